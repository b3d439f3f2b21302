import type { Readable } from 'node:stream';
import type { operations, components } from '../../generated/openapi.js';
import type { OperationId } from '../../generated/operations.js';
import type { Actor, User } from '../domain/user.js';
import type { Services } from '../services/index.js';
import type { Paging } from '../services/paging.js';

export type { OperationId };
export type Schemas = components['schemas'];
/** A converter's result: every field of the schema filled explicitly. */
export type Complete<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };

type Op<O extends OperationId> = operations[O];
type ParamsOf<O extends OperationId> = Op<O>['parameters'];
export type PathParams<O extends OperationId> = ParamsOf<O> extends { path: infer P } ? ([P] extends [object] ? P : Record<never, never>) : Record<never, never>;
export type QueryParams<O extends OperationId> = ParamsOf<O> extends { query?: infer Q } ? ([NonNullable<Q>] extends [object] ? NonNullable<Q> : Record<never, never>) : Record<never, never>;
export type BodyOf<O extends OperationId> = Op<O> extends { requestBody: { content: infer C } }
  ? C extends { 'application/json': infer B } ? B : C extends { 'text/plain': infer B } ? B : never
  : Op<O> extends { requestBody?: { content: infer C } }
    ? // Gitea's description never marks bodies required; our reader turns an empty JSON body into {}.
      C extends { 'application/json': infer B } ? B : C extends { 'text/plain': infer B } ? B : never
    : undefined;

// 303: Gitea's membership check sends non-members to the public membership check.
type SuccessStatus = 200 | 201 | 202 | 204 | 206 | 302 | 303 | 304 | 307;
type ContentOf<R> = R extends { content: { 'application/json': infer B } }
  ? B
  : R extends { content: { 'text/html': infer B } }
    ? B
    : R extends { content: { 'text/plain': infer B } }
      ? B
      : R extends { content: { 'application/octet-stream': unknown } }
        ? // raw bytes, sent as they are with the Content-Type header the handler sets; a stream (a file) is
          // piped and needs a Content-Length header from the handler
          Buffer | Readable
        : undefined;
type Responses<O extends OperationId> = Op<O>['responses'];

/** What a handler answers: a declared success status with its declared body. Errors are thrown (AppError). */
export type Reply<O extends OperationId> = {
  [S in keyof Responses<O>]: S extends SuccessStatus
    ? {
        readonly status: S;
        readonly body: ContentOf<Responses<O>[S]>;
        readonly headers?: Readonly<Record<string, string>>;
        /** Total matching rows: sets X-Total-Count, and Link from the request's paging. */
        readonly total?: number;
        /** Set Link too (Gitea omits it on some lists). */
        readonly link?: boolean;
      }
    : never;
}[keyof Responses<O>];

export interface HandlerContext<O extends OperationId> {
  readonly path: PathParams<O>;
  readonly query: QueryParams<O>;
  readonly body: BodyOf<O>;
  /** The request's headers (lower-case names), for the few operations that read them (Range, If-None-Match). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly actor: Actor;
  /** The signed-in user after sudo, or null for anonymous callers. */
  readonly doer: User | null;
  readonly services: Services;
  /** page/limit from the query, clamped as Gitea does. */
  paging(): Paging;
}

export type Handler<O extends OperationId> = (ctx: HandlerContext<O>) => Promise<Reply<O>>;

/** The signed-in user; the HTTP layer already refused anonymous callers for non-public operations. */
export function requireDoer(ctx: { doer: User | null }): User {
  if (!ctx.doer) throw new Error('handler reached without a signed-in user');
  return ctx.doer;
}
