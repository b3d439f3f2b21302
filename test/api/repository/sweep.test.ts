import { it, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdirSync, existsSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describeDb, startServer, type TestServer } from '../../helpers/server.js';

/** A crash between "prepare the git directory" and "move it into place" leaves a temporary directory behind. */
describeDb('abandoned temporary repositories', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => s?.close());

  it('removes old temporary directories and keeps young ones (another process may be creating)', async () => {
    const tmp = join(s.app.config.repository.root, '.tmp');
    const old = join(tmp, 'old.git');
    const young = join(tmp, 'young.git');
    mkdirSync(join(old, 'objects'), { recursive: true });
    mkdirSync(join(young, 'objects'), { recursive: true });
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(old, twoHoursAgo, twoHoursAgo);
    expect(await s.app.services.repos.sweepAbandoned()).toBe(1);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(young)).toBe(true);
    // Repositories themselves are untouched.
    const r = await s.client.post('/user/repos', { name: 'kept', auto_init: true }, { token: s.admin.token });
    expect(r.status).toBe(201);
    expect(await s.app.services.repos.sweepAbandoned()).toBe(0);
    expect(existsSync(join(s.app.config.repository.root, `${r.body.id}.git`))).toBe(true);
  });
});
