/** What went wrong, independent of HTTP; http/errors.ts maps each kind to Gitea's status. */
export type ErrorKind =
  | 'moved' // 307: a renamed account; the HTTP layer builds Location from redirectName
  | 'bad_request' // 400
  | 'unauthorized' // 401
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'method_not_allowed' // 405: Gitea's answer to team operations on a repository of a user
  | 'conflict' // 409
  | 'payload_too_large' // 413
  | 'unsupported_media_type' // 415
  | 'range_not_satisfiable' // 416
  | 'validation' // 422
  | 'locked' // 423
  | 'failed_dependency' // 424
  | 'too_many_requests' // 429
  | 'unavailable' // 503
  | 'internal'; // 500

export interface AppErrorOptions {
  /** Gitea's account gate and sudo answers carry only "message", no "url". */
  readonly bare?: boolean;
  /** Extra response headers, e.g. Retry-After. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly cause?: unknown;
  /** Extra members of the error body (Gitea's topic errors carry invalidTopics). */
  readonly extra?: Readonly<Record<string, unknown>>;
  /** With kind 'moved': the account's current name. */
  readonly redirectName?: string;
  /**
   * With kind 'moved': a renamed repository. The HTTP layer replaces the first `from` (`owner/old`) in
   * the request path with `to` (`owner/new`), as Gitea's RedirectToRepo does.
   */
  readonly redirectRepo?: { readonly from: string; readonly to: string };
  /** Answer with the message as a text/plain body instead of JSON (Gitea's markup errors: "Unknown mode: x\n"). */
  readonly plainText?: boolean;
  /** Answer with the status alone, no body (a boolean check's "no" where the contract wants it empty). */
  readonly emptyBody?: boolean;
}

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly bare: boolean;
  readonly headers: Readonly<Record<string, string>>;
  readonly redirectName: string | undefined;
  readonly redirectRepo: { readonly from: string; readonly to: string } | undefined;
  readonly extra: Readonly<Record<string, unknown>>;
  readonly plainText: boolean;
  readonly emptyBody: boolean;
  constructor(kind: ErrorKind, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.bare = options.bare ?? false;
    this.headers = options.headers ?? {};
    this.redirectName = options.redirectName;
    this.redirectRepo = options.redirectRepo;
    this.extra = options.extra ?? {};
    this.plainText = options.plainText ?? false;
    this.emptyBody = options.emptyBody ?? false;
  }
}

export const notFound = (message = "The target couldn't be found."): AppError => new AppError('not_found', message);
export const forbidden = (message: string): AppError => new AppError('forbidden', message);
export const validation = (message: string): AppError => new AppError('validation', message);
export const badRequest = (message: string): AppError => new AppError('bad_request', message);
