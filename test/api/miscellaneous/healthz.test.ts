import { it, expect, beforeAll, afterAll } from '@jest/globals';
import { describeDb, startServer, type TestServer } from '../../helpers/server.js';

interface Health {
  status: string;
  checks: Record<string, { status: string; time: string; output?: string }[]>;
}

describeDb('GET /api/healthz', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => s?.close());

  it('answers 200 pass while the database answers', async () => {
    const res = await fetch(`${s.url}/api/healthz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Health;
    expect(body.status).toBe('pass');
    expect(body.checks['database:ping']?.[0]?.status).toBe('pass');
  });

  it('answers 424 fail once the database is gone', async () => {
    await s.app.database.close();
    const res = await fetch(`${s.url}/api/healthz`);
    expect(res.status).toBe(424);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = (await res.json()) as Health;
    expect(body.status).toBe('fail');
    const check = body.checks['database:ping']?.[0];
    expect(check?.status).toBe('fail');
    expect(typeof check?.output).toBe('string');
  });
});
