// [rate_limit]: separate read, write and expensive budgets, per account for signed-in callers and per client
// address for anonymous ones (through trusted reverse proxies' X-Forwarded-For), 429 with Retry-After, site
// administrators exempt. 429 is a cross-cutting answer the description does not declare per operation: those
// answers are checked by hand (unchecked), every other one against the contract.
import { it, expect, beforeAll, afterAll } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';

describeDb('rate limits', () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  const limited = (r: { status: number; body: unknown; headers: Headers }, seconds: number) => {
    expect(r.status).toBe(429);
    expect(r.body).toEqual({ message: 'API rate limit exceeded, please retry later', url: `${s.url}/api/swagger` });
    const retryAfter = Number(r.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(seconds);
  };

  beforeAll(async () => {
    s = await startServer({
      overrides: {
        rate_limit: { ANONYMOUS_READ: '3', ANONYMOUS_WRITE: '2', ANONYMOUS_EXPENSIVE: '1', USER_READ: '4', USER_WRITE: '2', USER_EXPENSIVE: '0' },
      },
    });
    alice = await s.createUser();
    bob = await s.createUser();
  });
  afterAll(async () => s?.close());

  it('anonymous reads from one address run out; another address behind the trusted proxy has its own budget', async () => {
    const from = (ip: string) => ({ headers: { 'X-Forwarded-For': ip } });
    for (let i = 0; i < 3; i++) expect((await s.client.get(`/users/${alice.name}`, from('203.0.113.7'))).status).toBe(200);
    // 3 a minute: the next one is 20 seconds away at most.
    limited(await s.client.get(`/users/${alice.name}`, { ...from('203.0.113.7'), unchecked: true }), 20);
    // The proxy's own address is skipped: the client is the last untrusted hop.
    limited(await s.client.get(`/users/${alice.name}`, { headers: { 'X-Forwarded-For': '203.0.113.7, 127.0.0.1' }, unchecked: true }), 20);
    expect((await s.client.get(`/users/${alice.name}`, from('198.51.100.9'))).status).toBe(200);
    // A signed-in caller draws on the account's budget, not the address's.
    expect((await s.client.get('/user', { token: alice.token, ...from('203.0.113.7') })).status).toBe(200);
  });

  it('reads, writes and expensive operations are separate budgets per account; admins are not limited', async () => {
    for (let i = 0; i < 4; i++) expect((await s.client.get('/user', { token: bob.token })).status).toBe(200);
    limited(await s.client.get('/user', { token: bob.token, unchecked: true }), 15);
    // Writes still have their own budget (2 a minute).
    for (let i = 0; i < 2; i++) expect((await s.client.post('/user/repos', { name: uniqueName('rl') }, { token: bob.token })).status).toBe(201);
    limited(await s.client.post('/user/repos', { name: uniqueName('rl') }, { token: bob.token, unchecked: true }), 30);
    // USER_EXPENSIVE = 0: unlimited.
    for (let i = 0; i < 5; i++) expect((await s.client.post('/markdown', { Text: '# hi' }, { token: bob.token })).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await s.client.get('/user', { token: s.admin.token })).status).toBe(200);
  });

  it('anonymous expensive operations have the smallest budget', async () => {
    const from = { headers: { 'X-Forwarded-For': '192.0.2.44' } };
    expect((await s.client.get('/repos/search?q=x', from)).status).toBe(200);
    limited(await s.client.get('/repos/search?q=x', { ...from, unchecked: true }), 60);
    // A cheap read from the same address is not affected.
    expect((await s.client.get(`/users/${alice.name}`, from)).status).toBe(200);
  });
});

describeDb('rate limits behind an untrusted peer', () => {
  let s: TestServer;
  let alice: TestUser;
  beforeAll(async () => {
    s = await startServer({ overrides: { rate_limit: { ANONYMOUS_READ: '2' }, security: { REVERSE_PROXY_TRUSTED_PROXIES: '10.0.0.0/8' } } });
    alice = await s.createUser();
  });
  afterAll(async () => s?.close());

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    // Each request claims another address; the socket's (127.0.0.1) is what counts.
    for (const ip of ['203.0.113.1', '203.0.113.2']) expect((await s.client.get(`/users/${alice.name}`, { headers: { 'X-Forwarded-For': ip } })).status).toBe(200);
    const r = await s.client.get(`/users/${alice.name}`, { headers: { 'X-Forwarded-For': '203.0.113.3' }, unchecked: true });
    expect(r.status).toBe(429);
  });
});
