import { checkResponse } from './contract.js';

export interface ApiResponse<T = unknown> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
  readonly text: string;
}

export interface RequestOptions {
  readonly token?: string;
  /** Basic credentials: [username, password]. */
  readonly basic?: readonly [string, string];
  readonly headers?: Record<string, string>;
  /** JSON-encoded unless a string is given (then sent as is). */
  readonly body?: unknown;
  readonly contentType?: string;
  /** Skip the contract check (only for deliberately malformed requests to unknown routes). */
  readonly unchecked?: boolean;
}

/** A small HTTP client for tests; every JSON response is checked against generated/openapi.json. */
export class ApiClient {
  constructor(readonly baseUrl: string) {}

  async request<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.Authorization = `token ${opts.token}`;
    if (opts.basic) headers.Authorization = `Basic ${Buffer.from(`${opts.basic[0]}:${opts.basic[1]}`).toString('base64')}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      headers['Content-Type'] = opts.contentType ?? 'application/json';
    }
    const res = await fetch(`${this.baseUrl}/api/v1${path}`, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    const contentType = res.headers.get('content-type');
    let parsed: unknown = text;
    if (contentType?.includes('application/json') && text !== '') parsed = JSON.parse(text);
    if (!opts.unchecked) {
      const pathOnly = path.split('?')[0]!;
      const problem = checkResponse(method, pathOnly, res.status, contentType, parsed);
      if (problem) throw new Error(`contract violation: ${problem.message}\nresponse: ${text.slice(0, 500)}`);
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, opts?: RequestOptions) {
    return this.request<T>('GET', path, opts);
  }
  post<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('POST', path, { ...opts, body });
  }
  patch<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PATCH', path, { ...opts, body });
  }
  put<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PUT', path, { ...opts, body });
  }
  delete<T = any>(path: string, opts?: RequestOptions & { body?: unknown }) {
    return this.request<T>('DELETE', path, opts);
  }
}
