import type { IncomingMessage } from 'node:http';
import { AppError } from '../domain/errors.js';
import type { OperationValidator } from './validate.js';

/**
 * Reads and decodes a request body within `limit` bytes (413 beyond it). JSON and urlencoded forms are
 * accepted like Gitea; text/plain only where the operation declares it. An empty body counts as {}.
 */
export async function readBody(req: IncomingMessage, op: OperationValidator, limit: number): Promise<unknown> {
  // 413 closes the connection (as Go's MaxBytesReader does for Gitea): the rest of the body is discarded
  // rather than read, and the socket is not left half-read for the next request.
  const tooLarge = () => new AppError('payload_too_large', `request body is larger than ${limit} bytes`, { headers: { Connection: 'close' } });
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > limit) {
    req.resume();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // destroyOnReturn: false — leaving the loop early must not destroy the request (and with it the socket)
  // before the 413 is written.
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      req.resume();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (op.bodyMediaTypes.includes('text/plain') && (type === 'text/plain' || !op.bodyMediaTypes.includes('application/json'))) {
    // An operation that takes only text reads the body as it is, whatever the content type (Gitea's
    // /markdown/raw does).
    return raw;
  }
  if (raw.trim() === '') return op.bodyMediaTypes.includes('application/json') ? {} : '';
  if (type === 'application/x-www-form-urlencoded') {
    return Object.fromEntries(new URLSearchParams(raw));
  }
  if (type !== '' && !type.includes('json') && type !== 'text/plain') {
    throw new AppError('validation', `Unsupported Content-Type: ${type}`);
  }
  try {
    return JSON.parse(raw);
  } catch (e) {
    throw new AppError('validation', `invalid JSON body: ${(e as Error).message}`);
  }
}
