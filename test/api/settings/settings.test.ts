import { it, expect, beforeAll, afterAll } from '@jest/globals';
import { describeDb, startServer, type TestServer } from '../../helpers/server.js';

/** BEHAVIOUR.md §9.2: Gitea's defaults for what we do not configure. */
describeDb('settings', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => s?.close());

  it('getGeneralAPISettings: Gitea defaults', async () => {
    const r = await s.client.get('/settings/api');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ max_response_items: 50, default_paging_num: 30, default_git_trees_per_page: 1000, default_max_blob_size: 10485760 });
  });

  it('getGeneralAttachmentSettings: Gitea defaults (max_size in MB)', async () => {
    const r = await s.client.get('/settings/attachment');
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['allowed_types', 'enabled', 'max_files', 'max_size']);
    expect(r.body).toMatchObject({ enabled: true, max_size: 2048, max_files: 5 });
    const types = (r.body.allowed_types as string).split(',');
    expect(types).toEqual(expect.arrayContaining(['.zip', '.png', '.pdf', '.txt', '.md']));
    for (const t of types) expect(t).toMatch(/^(\.[a-z0-9]+|[a-z]+\/[a-z0-9.+*-]+)$/);
  });

  it('getGeneralRepositorySettings: Gitea defaults', async () => {
    const r = await s.client.get('/settings/repository');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      mirrors_disabled: false,
      http_git_disabled: false,
      migrations_disabled: false,
      stars_disabled: false,
      time_tracking_disabled: false,
      lfs_disabled: true,
    });
  });

  it('getGeneralUISettings: Gitea defaults', async () => {
    const r = await s.client.get('/settings/ui');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      default_theme: 'gitea-auto',
      allowed_reactions: ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes'],
      custom_emojis: ['git', 'gitea', 'codeberg', 'gitlab', 'github', 'gogs'],
    });
  });

  it('settings are public and not scope-checked', async () => {
    const token = await s.createToken('root', ['read:repository']);
    for (const path of ['/settings/api', '/settings/attachment', '/settings/repository', '/settings/ui']) {
      const anonymous = await s.client.get(path);
      const withToken = await s.client.get(path, { token });
      expect(anonymous.status).toBe(200);
      expect(withToken.status).toBe(200);
      expect(withToken.body).toEqual(anonymous.body);
    }
  });
});

describeDb('settings from the configuration', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ overrides: { api: { DEFAULT_PAGING_NUM: '10', MAX_RESPONSE_ITEMS: '20' } } });
  });
  afterAll(async () => s?.close());

  it('getGeneralAPISettings reflects [api] DEFAULT_PAGING_NUM and MAX_RESPONSE_ITEMS', async () => {
    const r = await s.client.get('/settings/api');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ max_response_items: 20, default_paging_num: 10, default_git_trees_per_page: 1000, default_max_blob_size: 10485760 });
  });

  it('and list operations page with them', async () => {
    for (let i = 0; i < 21; i++) await s.createUser();
    const byDefault = await s.client.get('/admin/users', { token: s.admin.token });
    expect(byDefault.status).toBe(200);
    expect(byDefault.body).toHaveLength(10);
    expect(byDefault.headers.get('x-total-count')).toBe('22');
    const clamped = await s.client.get('/admin/users?limit=100', { token: s.admin.token });
    expect(clamped.status).toBe(200);
    expect(clamped.body).toHaveLength(20);
  });
});
