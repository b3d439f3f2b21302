import { it, expect, beforeAll, afterAll } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeDb, startServer, type TestServer } from '../../helpers/server.js';

const pkg = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { version: string };

describeDb('getVersion', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => s?.close());

  it('reports the Gitea API level with our version as build metadata, to anonymous callers', async () => {
    const r = await s.client.get('/version');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/json');
    expect(r.body).toEqual({ version: `1.22.0+anvil-${pkg.version}` });
    // A semantic version clients can parse (major.minor.patch, optional pre-release, build metadata).
    expect(r.body.version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?\+[0-9A-Za-z.-]+$/);
  });

  it('is not scope-checked: a token with an unrelated scope is served', async () => {
    const token = await s.createToken('root', ['read:organization']);
    const r = await s.client.get('/version', { token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ version: `1.22.0+anvil-${pkg.version}` });
  });

  it('answers HEAD like GET, without a body', async () => {
    const r = await s.client.request('HEAD', '/version');
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
  });
});
