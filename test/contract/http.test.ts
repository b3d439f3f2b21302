import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeDb, startServer, uniqueName, type TestServer } from '../helpers/server.js';

const generatedSwagger = JSON.parse(readFileSync(join(__dirname, '../../generated/swagger.json'), 'utf8')) as Record<string, unknown>;

/** Cross-cutting HTTP behaviour of the pipeline (issue 2, §1 and §6). */
describeDb('HTTP pipeline', () => {
  let s: TestServer;
  let swaggerUrl: string;
  beforeAll(async () => {
    s = await startServer();
    swaggerUrl = `${s.url}/api/swagger`;
  });
  afterAll(async () => s?.close());

  describe('query parameters', () => {
    it('unknown parameters are ignored and malformed declared ones fall back to defaults', async () => {
      const r = await s.client.get('/users/search?foo=bar&limit=abc&page=-3&q=', { token: s.admin.token });
      expect(r.status).toBe(200);
      expect(r.body.ok).toBe(true);
      expect((r.body.data as { login: string }[]).map((u) => u.login)).toContain('root');
    });

    it('?token= never fails validation on operations that declare no such parameter', async () => {
      const r = await s.client.get(`/version?token=${s.admin.token}&unknown=1`);
      expect(r.status).toBe(200);
      expect(r.body.version).toMatch(/^1\.22\.0\+anvil-/);
    });
  });

  describe('request bodies', () => {
    it('JSON field names are matched case-insensitively', async () => {
      const name = uniqueName('ci');
      const r = await s.client.post(
        '/admin/users',
        { UserName: name, EMAIL: `${name}@example.com`, Password: 'correct-horse-battery', Must_Change_Password: false },
        { token: s.admin.token },
      );
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ login: name, email: `${name}@example.com` });
      const check = await s.client.get(`/users/${name}`, { token: s.admin.token });
      expect(check.status).toBe(200);
      expect(check.body.login).toBe(name);
    });

    it('the exact spelling wins over a differently-cased duplicate', async () => {
      const name = uniqueName('dup');
      const r = await s.client.post(
        '/admin/users',
        { USERNAME: 'ignored-name', username: name, email: `${name}@example.com`, password: 'correct-horse-battery' },
        { token: s.admin.token },
      );
      expect(r.status).toBe(201);
      expect(r.body.login).toBe(name);
    });

    it('malformed JSON is 422', async () => {
      const r = await s.client.post('/admin/users', '{"username": "x", ', { token: s.admin.token });
      expect(r.status).toBe(422);
      expect(r.body.url).toBe(swaggerUrl);
      expect(r.body.message).toMatch(/^invalid JSON body/);
    });

    it('wrong types are 422 naming the field', async () => {
      const bad = await s.client.post('/admin/users', { username: 123, email: 'x@example.com', password: 'correct-horse-battery' }, { token: s.admin.token });
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual({ message: '[username]: must be string', url: swaggerUrl });
      const settings = await s.client.patch('/user/settings', { hide_email: 'yes' }, { token: s.admin.token });
      expect(settings.status).toBe(422);
      expect(settings.body).toEqual({ message: '[hide_email]: must be boolean', url: swaggerUrl });
    });

    it('a missing required field is 422 naming it', async () => {
      const r = await s.client.post('/admin/users', { email: 'x@example.com', password: 'correct-horse-battery' }, { token: s.admin.token });
      expect(r.status).toBe(422);
      expect(r.body).toEqual({ message: '[username]: Required', url: swaggerUrl });
    });

    it('a body over 1 MiB is 413 (declared length)', async () => {
      const big = JSON.stringify({ username: 'big', email: 'big@example.com', password: 'x'.repeat(1024 * 1024 + 10) });
      // 413 is a cross-cutting answer the description does not declare per operation: checked by hand.
      const r = await s.client.post('/admin/users', big, { token: s.admin.token, unchecked: true });
      expect(r.status).toBe(413);
      expect(r.body).toEqual({ message: 'request body is larger than 1048576 bytes', url: swaggerUrl });
      // The unread rest of the body is dropped with the connection.
      expect(r.headers.get('connection')).toBe('close');
    });

    it('a body over 1 MiB is 413 (chunked, no declared length)', async () => {
      const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 20) controller.close();
          else {
            controller.enqueue(chunk);
            sent++;
          }
        },
      });
      const res = await fetch(`${s.url}/api/v1/admin/users`, {
        method: 'POST',
        headers: { Authorization: `token ${s.admin.token}`, 'Content-Type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ message: 'request body is larger than 1048576 bytes', url: swaggerUrl });
    });

    it('after all that the server still answers, request after request', async () => {
      // A half-read oversized body once left a kept-alive connection hanging for the next requests.
      for (let i = 0; i < 5; i++) {
        const r = await s.client.get('/version');
        expect(r.status).toBe(200);
        expect(r.body.version).toMatch(/^1\.22\.0\+anvil-/);
      }
    });
  });

  describe('routes outside the description', () => {
    it('an unknown /api/v1 path is 404 JSON', async () => {
      const r = await s.client.get('/nope');
      expect(r.status).toBe(404);
      expect(r.headers.get('content-type')).toContain('application/json');
      expect(r.body).toEqual({ message: 'not found', url: swaggerUrl });
    });

    it('an unknown path outside /api/v1 is 404 JSON too', async () => {
      const res = await fetch(`${s.url}/no/such/thing`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: 'not found', url: swaggerUrl });
    });

    it('a trailing slash reaches the operation', async () => {
      const r = await s.client.get('/version/');
      expect(r.status).toBe(200);
      expect(r.body.version).toMatch(/^1\.22\.0\+anvil-/);
    });
  });

  describe('self-description and health', () => {
    it('GET /swagger.v1.json serves our Swagger 2.0 description', async () => {
      const res = await fetch(`${s.url}/swagger.v1.json`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      const doc = (await res.json()) as { swagger: string; basePath: string; info: { version: string; license: { name: string } }; paths: Record<string, unknown> };
      expect(doc.swagger).toBe('2.0');
      expect(doc.basePath).toBe('/api/v1');
      expect(doc.info.version).toBe('1.1.1');
      expect(doc.info.license.name).toBe('MIT');
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/version', '/user', '/admin/users']));
      expect(doc).toEqual(generatedSwagger);
    });

    it('GET /api/swagger is an HTML page pointing at the description', async () => {
      const res = await fetch(`${s.url}/api/swagger`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      const html = await res.text();
      expect(html).toContain('<div id="swagger-ui">');
      expect(html).toContain(`${s.url}/swagger.v1.json`);
      const css = await fetch(`${s.url}/api/swagger/assets/swagger-ui.css`);
      expect(css.status).toBe(200);
      expect(css.headers.get('content-type')).toContain('text/css');
    });

    it('GET /api/healthz answers 200 pass with a database check', async () => {
      const res = await fetch(`${s.url}/api/healthz`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      const body = (await res.json()) as { status: string; checks: Record<string, { status: string; time: string }[]> };
      expect(body.status).toBe('pass');
      const db = body.checks['database:ping']!;
      expect(db).toHaveLength(1);
      expect(db[0]!.status).toBe('pass');
      expect(db[0]!.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    });
  });
});
