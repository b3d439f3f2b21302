// A real HTTP receiver on loopback for webhook tests: records every delivery and every connection.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import openapi from '../../../generated/openapi.json' with { type: 'json' };

export interface Delivery {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** Parsed JSON payload (form bodies decoded from payload=). */
  readonly json: any;
}

export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly deliveries: Delivery[];
  connections: number;
  /** Status to answer for the n-th request (0-based); default 200. */
  respond: (n: number, d: Delivery) => number;
  /** Location to send with a 3xx answer. */
  location?: string;
  /** Delay before answering (a slow receiver). */
  delayMs?: number;
  waitFor(n: number, timeoutMs?: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let waiters: (() => void)[] = [];
  const deliveries: Delivery[] = [];
  const r: Receiver = {
    url: '',
    port: 0,
    deliveries,
    connections: 0,
    respond: () => 200,
    async waitFor(n, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (deliveries.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} deliveries, got ${deliveries.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return deliveries.slice(0, n);
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      try {
        const ct = String(req.headers['content-type'] ?? '');
        json = ct.includes('x-www-form-urlencoded') ? JSON.parse(new URLSearchParams(body).get('payload') ?? 'null') : JSON.parse(body);
      } catch {
        json = null;
      }
      const d: Delivery = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, json };
      const answer = () => {
        const n = deliveries.length;
        deliveries.push(d);
        res.statusCode = r.respond(n, d);
        res.setHeader('X-Receiver', 'yes');
        if (r.location) res.setHeader('Location', r.location);
        res.end(`answer ${n}`);
        const w = waiters;
        waiters = [];
        w.forEach((f) => f());
      };
      if (r.delayMs) setTimeout(answer, r.delayMs);
      else answer();
    });
  });
  server.on('connection', () => r.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  Object.assign(r, { port, url: `http://127.0.0.1:${port}/hook` });
  return r;
}

export const hmac256 = (secret: string, text: string): string => createHmac('sha256', secret).update(text).digest('hex');

type AddFormats = (ajv: Ajv) => Ajv;
const addFormats: AddFormats = (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) });
ajv.addSchema({ $id: 'api', components: { schemas: (openapi as any).components.schemas } });
const validators = new Map<string, ValidateFunction>();

/** Validates a received payload against a definition of our description (PushPayload, CreatePayload...). */
export function payloadProblem(schema: string, body: unknown): string | null {
  let v = validators.get(schema);
  if (!v) {
    v = ajv.compile({ $ref: `api#/components/schemas/${schema}` });
    validators.set(schema, v);
  }
  return v(body) ? null : ajv.errorsText(v.errors);
}
