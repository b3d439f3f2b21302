import { AppError, type ErrorKind } from '../domain/errors.js';
import { isTransientDbError } from '../db/index.js';

export const STATUS_BY_KIND: Readonly<Record<ErrorKind, number>> = {
  moved: 307,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  validation: 422,
  locked: 423,
  failed_dependency: 424,
  too_many_requests: 429,
  internal: 500,
  unavailable: 503,
};

export interface ErrorResponse {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Readonly<Record<string, string>>;
}

/** One place turns any thrown value into Gitea's error shape: {"message", "url"}. */
export function toErrorResponse(e: unknown, rootUrl: string): ErrorResponse {
  const url = `${rootUrl}api/swagger`;
  if (e instanceof AppError) {
    const status = STATUS_BY_KIND[e.kind];
    return { status, body: e.bare ? { message: e.message } : { message: e.message, url, ...e.extra }, headers: e.headers };
  }
  if (isTransientDbError(e)) {
    // A busy database is the server's momentary problem, not a crash: ask the client to retry.
    return { status: 503, body: { message: 'the database is busy, please retry', url }, headers: { 'Retry-After': '1' } };
  }
  // Gitea hides 500 details from non-admins; so do we (the log has them).
  return { status: 500, body: { message: '', url }, headers: {} };
}
