import { describeDb, startServer, type TestServer } from '../../helpers/server.js';

describeDb('smoke', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => s?.close());

  it('userGetCurrent with a token', async () => {
    const r = await s.client.get('/user', { token: s.admin.token });
    expect(r.status).toBe(200);
    expect(r.body.login).toBe('root');
    expect(r.body.is_admin).toBe(true);
  });
});
