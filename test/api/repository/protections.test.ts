import { it, expect, beforeAll, afterAll, describe } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { createGitCli, type GitCli } from '../../helpers/gitcli.js';

/** The BranchProtection JSON of a rule created with defaults only. */
const defaults = (rule: string, branch = rule) => ({
  branch_name: branch,
  rule_name: rule,
  enable_push: false,
  enable_push_whitelist: false,
  push_whitelist_usernames: [],
  push_whitelist_teams: [],
  push_whitelist_deploy_keys: false,
  enable_merge_whitelist: false,
  merge_whitelist_usernames: [],
  merge_whitelist_teams: [],
  enable_status_check: false,
  status_check_contexts: [],
  required_approvals: 0,
  enable_approvals_whitelist: false,
  approvals_whitelist_username: [],
  approvals_whitelist_teams: [],
  block_on_rejected_reviews: false,
  block_on_official_review_requests: false,
  block_on_outdated_branch: false,
  dismiss_stale_approvals: false,
  ignore_stale_approvals: false,
  require_signed_commits: false,
  protected_file_patterns: '',
  unprotected_file_patterns: '',
  created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
  updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
});

describeDb('branch protections', () => {
  let s: TestServer;
  let git: GitCli;
  let owner: TestUser;
  let repoAdmin: TestUser;
  let writer: TestUser;
  let allowed: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let err: (message: string) => { message: string; url: string };
  const as = (u: TestUser) => ({ token: u.token });
  const ADMIN_ONLY = 'user should be an owner or a collaborator with admin write of a repository';

  const createRepo = async (body: Record<string, unknown> = {}) => {
    const r = await s.client.post('/user/repos', { name: uniqueName('bp'), auto_init: true, ...body }, as(owner));
    expect(r.status).toBe(201);
    for (const [u, permission] of [
      [repoAdmin, 'admin'],
      [writer, 'write'],
      [allowed, 'write'],
      [reader, 'read'],
    ] as const) {
      expect((await s.client.put(`/repos/${owner.name}/${r.body.name}/collaborators/${u.name}`, { permission }, as(owner))).status).toBe(204);
    }
    return `${owner.name}/${r.body.name as string}`;
  };

  beforeAll(async () => {
    s = await startServer();
    git = await createGitCli();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
    owner = await s.createUser();
    repoAdmin = await s.createUser();
    writer = await s.createUser();
    allowed = await s.createUser();
    reader = await s.createUser();
    stranger = await s.createUser();
  });
  afterAll(async () => {
    await git?.close();
    await s?.close();
  });

  describe('rules through the API', () => {
    let repo: string;
    let priv: string;
    beforeAll(async () => {
      repo = await createRepo();
      priv = await createRepo({ private: true });
    });

    it('repoCreateBranchProtection creates a plain rule with Gitea defaults', async () => {
      const r = await s.client.post(`/repos/${repo}/branch_protections`, { rule_name: 'main', required_approvals: 2, enable_push: true }, as(owner));
      expect(r.status).toBe(201);
      expect(r.body).toEqual({ ...defaults('main'), enable_push: true, required_approvals: 2 });
      expect(r.body.created_at).toBe(r.body.updated_at);
    });

    it('refuses a second rule with the same name (403, as Gitea)', async () => {
      const r = await s.client.post(`/repos/${repo}/branch_protections`, { rule_name: 'main' }, as(owner));
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('Branch protection already exist'));
    });

    it('accepts the deprecated branch_name and refuses a body without a name (400)', async () => {
      const r = await s.client.post(`/repos/${repo}/branch_protections`, { branch_name: 'legacy' }, as(owner));
      expect(r.status).toBe(201);
      expect(r.body).toEqual(defaults('legacy'));
      const none = await s.client.post(`/repos/${repo}/branch_protections`, { required_approvals: 1 }, as(owner));
      expect(none.status).toBe(400);
      expect(none.body).toEqual(err('both rule_name and branch_name are empty'));
    });

    it('creates a glob rule: branch_name empty, allow lists keep only users with write access', async () => {
      const r = await s.client.post(
        `/repos/${repo}/branch_protections`,
        {
          rule_name: 'release/*',
          enable_push: true,
          enable_push_whitelist: true,
          push_whitelist_usernames: [allowed.name, reader.name, stranger.name],
          push_whitelist_deploy_keys: true,
          approvals_whitelist_username: [reader.name],
          status_check_contexts: ['ci/build'],
          enable_status_check: true,
          protected_file_patterns: '*.lock',
        },
        as(repoAdmin),
      );
      expect(r.status).toBe(201);
      expect(r.body).toEqual({
        ...defaults('release/*', ''),
        enable_push: true,
        enable_push_whitelist: true,
        push_whitelist_usernames: [allowed.name],
        push_whitelist_deploy_keys: true,
        approvals_whitelist_username: [reader.name],
        status_check_contexts: ['ci/build'],
        enable_status_check: true,
        protected_file_patterns: '*.lock',
      });
    });

    it('refuses unknown users in an allow list with 422', async () => {
      const r = await s.client.post(`/repos/${repo}/branch_protections`, { rule_name: 'x', push_whitelist_usernames: ['no-such-user-bp'] }, as(owner));
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err('user does not exist [uid: 0, name: no-such-user-bp]'));
      const list = await s.client.get(`/repos/${repo}/branch_protections`, as(owner));
      expect(list.body.map((p: { rule_name: string }) => p.rule_name)).not.toContain('x');
    });

    it('repoListBranchProtection lists plain names first, then globs', async () => {
      const r = await s.client.get(`/repos/${repo}/branch_protections`, as(owner));
      expect(r.status).toBe(200);
      expect(r.body.map((p: { rule_name: string }) => p.rule_name)).toEqual(['main', 'legacy', 'release/*']);
    });

    it('repoGetBranchProtection takes a rule name with slashes; unknown is 404', async () => {
      const r = await s.client.get(`/repos/${repo}/branch_protections/release/*`, as(owner));
      expect(r.status).toBe(200);
      expect(r.body.rule_name).toBe('release/*');
      expect(r.body.push_whitelist_usernames).toEqual([allowed.name]);
      const missing = await s.client.get(`/repos/${repo}/branch_protections/release`, as(owner));
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(err("The target couldn't be found."));
    });

    it('repoEditBranchProtection changes only what is sent; enable_push=false also drops the allow list', async () => {
      const r = await s.client.patch(`/repos/${repo}/branch_protections/main`, { required_approvals: 3, block_on_rejected_reviews: true }, as(owner));
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ...defaults('main'), enable_push: true, required_approvals: 3, block_on_rejected_reviews: true });
      const neg = await s.client.patch(`/repos/${repo}/branch_protections/main`, { required_approvals: -1 }, as(owner));
      expect(neg.status).toBe(200);
      expect(neg.body.required_approvals).toBe(3);
      const off = await s.client.patch(`/repos/${repo}/branch_protections/release/*`, { enable_push: false }, as(owner));
      expect(off.status).toBe(200);
      expect(off.body).toMatchObject({ enable_push: false, enable_push_whitelist: false, push_whitelist_deploy_keys: false, push_whitelist_usernames: [allowed.name] });
      const bad = await s.client.patch(`/repos/${repo}/branch_protections/main`, { merge_whitelist_usernames: ['no-such-user-bp'] }, as(owner));
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual(err('user does not exist [uid: 0, name: no-such-user-bp]'));
      const missing = await s.client.patch(`/repos/${repo}/branch_protections/nope`, { required_approvals: 1 }, as(owner));
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(err("The target couldn't be found."));
    });

    it('needs repository administration, reads included', async () => {
      for (const u of [writer, reader, stranger]) {
        const list = await s.client.get(`/repos/${repo}/branch_protections`, as(u));
        expect(list.status).toBe(403);
        expect(list.body).toEqual(err(ADMIN_ONLY));
        const get = await s.client.get(`/repos/${repo}/branch_protections/main`, as(u));
        expect(get.status).toBe(403);
        expect(get.body).toEqual(err(ADMIN_ONLY));
        const create = await s.client.post(`/repos/${repo}/branch_protections`, { rule_name: 'w' }, as(u));
        expect(create.status).toBe(403);
        expect(create.body).toEqual(err(ADMIN_ONLY));
        const del = await s.client.delete(`/repos/${repo}/branch_protections/main`, as(u));
        expect(del.status).toBe(403);
        expect(del.body).toEqual(err(ADMIN_ONLY));
      }
      const hidden = await s.client.get(`/repos/${priv}/branch_protections`, as(stranger));
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(err("The target couldn't be found."));
      const site = await s.client.get(`/repos/${priv}/branch_protections`, as(s.admin));
      expect(site.status).toBe(200);
      expect(site.body).toEqual([]);
      const anon = await s.client.get(`/repos/${repo}/branch_protections`);
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual(err('token is required'));
    });

    it('Branch JSON shows the rule that applies, evaluated for the caller', async () => {
      const mine = await s.client.get(`/repos/${repo}/branches/main`, as(owner));
      expect(mine.status).toBe(200);
      expect(mine.body).toMatchObject({
        name: 'main',
        protected: true,
        required_approvals: 3,
        enable_status_check: false,
        status_check_contexts: [],
        user_can_push: true,
        user_can_merge: true,
        effective_branch_protection_name: 'main',
      });
      // Only repository administrators see the rule's name.
      const theirs = await s.client.get(`/repos/${repo}/branches/main`, as(writer));
      expect(theirs.body).toMatchObject({ protected: true, user_can_push: true, effective_branch_protection_name: '' });
      const readers = await s.client.get(`/repos/${repo}/branches/main`, as(reader));
      expect(readers.body).toMatchObject({ protected: true, user_can_push: false, user_can_merge: false });
      const anon = await s.client.get(`/repos/${repo}/branches`);
      expect(anon.status).toBe(200);
      expect(anon.body).toEqual([expect.objectContaining({ name: 'main', protected: true, user_can_push: false, required_approvals: 3 })]);
    });

    it('repoDeleteBranch refuses protected branches (403 branch protected); unprotected ones go', async () => {
      for (const name of ['release/1.0', 'topic']) {
        expect((await s.client.post(`/repos/${repo}/branches`, { new_branch_name: name }, as(owner))).status).toBe(201);
      }
      const created = await s.client.get(`/repos/${repo}/branches/release/1.0`, as(owner));
      expect(created.body).toMatchObject({ protected: true, user_can_push: false, effective_branch_protection_name: 'release/*' });
      const r = await s.client.delete(`/repos/${repo}/branches/release/1.0`, as(owner));
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('branch protected'));
      expect((await s.client.get(`/repos/${repo}/branches/release/1.0`, as(owner))).status).toBe(200);
      const topic = await s.client.delete(`/repos/${repo}/branches/topic`, as(owner));
      expect(topic.status).toBe(204);
    });

    it('repoDeleteBranchProtection deletes a rule; unknown is 404', async () => {
      const r = await s.client.delete(`/repos/${repo}/branch_protections/legacy`, as(repoAdmin));
      expect(r.status).toBe(204);
      const gone = await s.client.get(`/repos/${repo}/branch_protections/legacy`, as(owner));
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual(err("The target couldn't be found."));
      const again = await s.client.delete(`/repos/${repo}/branch_protections/legacy`, as(owner));
      expect(again.status).toBe(404);
      expect(again.body).toEqual(err("The target couldn't be found."));
    });

    it('refuses changes on an archived repository with 423', async () => {
      const archived = await createRepo();
      expect((await s.client.post(`/repos/${archived}/branch_protections`, { rule_name: 'main' }, as(owner))).status).toBe(201);
      expect((await s.client.patch(`/repos/${archived}`, { archived: true }, as(owner))).status).toBe(200);
      const id = (await s.client.get(`/repos/${archived}`, as(owner))).body.id as number;
      const locked = err(`<Repository ${id}:${archived}> is archived`);
      const create = await s.client.post(`/repos/${archived}/branch_protections`, { rule_name: 'dev' }, as(owner));
      expect(create.status).toBe(423);
      expect(create.body).toEqual(locked);
      const edit = await s.client.patch(`/repos/${archived}/branch_protections/main`, { required_approvals: 1 }, as(owner));
      expect(edit.status).toBe(423);
      expect(edit.body).toEqual(locked);
      const list = await s.client.get(`/repos/${archived}/branch_protections`, as(owner));
      expect(list.status).toBe(200);
      expect(list.body).toEqual([defaults('main')]);
    });
  });

  describe('enforced on git push', () => {
    let repo: string;
    let work: string;
    const remote = (u: TestUser) => {
      const url = new URL(`${s.url}/${repo}.git`);
      url.username = u.name;
      url.password = u.token;
      return url.toString();
    };
    const tip = async (branch: string): Promise<string | undefined> => {
      const r = await s.client.get(`/repos/${repo}/branches/${branch}`, as(owner));
      return r.status === 200 ? (r.body.commit.id as string) : undefined;
    };
    let n = 0;
    const commitOn = async (branch: string, base?: string): Promise<string> => {
      await git.ok(['checkout', '-q', '-B', branch, base ?? `origin/${branch}`], { cwd: work });
      return git.commit(work, { [`f${n++}.txt`]: `${n}\n` }, `change ${n}`);
    };

    beforeAll(async () => {
      repo = await createRepo();
      work = await git.dir('work');
      await git.ok(['clone', '-q', remote(owner), work]);
      const main = await git.ok(['rev-parse', 'HEAD'], { cwd: work });
      await git.ok(['push', '-q', remote(owner), `${main}:refs/heads/release/1.0`, `${main}:refs/heads/feature`], { cwd: work });
      await git.ok(['fetch', '-q', 'origin'], { cwd: work });
      expect((await s.client.post(`/repos/${repo}/branch_protections`, { rule_name: 'main', enable_push: true }, as(owner))).status).toBe(201);
      const rel = await s.client.post(
        `/repos/${repo}/branch_protections`,
        { rule_name: 'release/*', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [allowed.name] },
        as(owner),
      );
      expect(rel.status).toBe(201);
    });

    it('accepts a fast-forward push to a protected branch', async () => {
      const sha = await commitOn('main');
      const r = await git.run(['push', remote(writer), 'main:main'], { cwd: work });
      expect(r.code).toBe(0);
      expect(await tip('main')).toBe(sha);
    });

    it('refuses a force push to a protected branch with the reason', async () => {
      const before = await tip('main');
      await git.ok(['fetch', '-q', 'origin'], { cwd: work });
      await git.ok(['checkout', '-q', '-B', 'main', 'origin/main~1'], { cwd: work });
      await git.commit(work, { 'rewrite.txt': 'x\n' }, 'rewrite');
      const r = await git.run(['push', '--force', remote(owner), 'main:main'], { cwd: work });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('remote: branch main is protected from force push (rule "main")');
      expect(r.stderr).toContain('[remote rejected] main -> main (pre-receive hook declined)');
      expect(await tip('main')).toBe(before);
    });

    it('refuses deleting a protected branch by push', async () => {
      const before = await tip('release/1.0');
      const r = await git.run(['push', remote(owner), ':refs/heads/release/1.0'], { cwd: work });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('remote: branch release/1.0 is protected from deletion (rule "release/*")');
      expect(r.stderr).toContain('[remote rejected] release/1.0 (pre-receive hook declined)');
      expect(await tip('release/1.0')).toBe(before);
    });

    it('with a push allow list, refuses a writer not on it and accepts one on it', async () => {
      await git.ok(['fetch', '-q', 'origin'], { cwd: work });
      const before = await tip('release/1.0');
      const sha = await commitOn('release/1.0');
      const refused = await git.run(['push', remote(writer), 'release/1.0:release/1.0'], { cwd: work });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('remote: Not allowed to push to protected branch release/1.0 (rule "release/*")');
      expect(refused.stderr).toContain('[remote rejected] release/1.0 -> release/1.0 (pre-receive hook declined)');
      expect(await tip('release/1.0')).toBe(before);
      // Even the owner is bound by the allow list.
      expect((await git.run(['push', remote(owner), 'release/1.0:release/1.0'], { cwd: work })).code).not.toBe(0);
      const ok = await git.run(['push', remote(allowed), 'release/1.0:release/1.0'], { cwd: work });
      expect(ok.code).toBe(0);
      expect(await tip('release/1.0')).toBe(sha);
      // A new branch matching the glob is a push to a protected branch too.
      const created = await git.run(['push', remote(writer), 'release/1.0:refs/heads/release/2.0'], { cwd: work });
      expect(created.code).not.toBe(0);
      expect(created.stderr).toContain('Not allowed to push to protected branch release/2.0');
      expect(await tip('release/2.0')).toBeUndefined();
      const branch = await s.client.get(`/repos/${repo}/branches/release/1.0`, as(writer));
      expect(branch.body).toMatchObject({ protected: true, user_can_push: false });
      const theirs = await s.client.get(`/repos/${repo}/branches/release/1.0`, as(allowed));
      expect(theirs.body).toMatchObject({ protected: true, user_can_push: true });
    });

    it('enable_push=false refuses every push to the branch', async () => {
      expect((await s.client.patch(`/repos/${repo}/branch_protections/main`, { enable_push: false }, as(owner))).status).toBe(200);
      await git.ok(['fetch', '-q', 'origin'], { cwd: work });
      const before = await tip('main');
      await commitOn('main');
      for (const u of [owner, writer]) {
        const r = await git.run(['push', remote(u), 'main:main'], { cwd: work });
        expect(r.code).not.toBe(0);
        expect(r.stderr).toContain('remote: Not allowed to push to protected branch main (rule "main")');
      }
      expect(await tip('main')).toBe(before);
      const branch = await s.client.get(`/repos/${repo}/branches/main`, as(owner));
      expect(branch.body).toMatchObject({ protected: true, user_can_push: false });
      // Lifting the rule lets the same push through.
      expect((await s.client.delete(`/repos/${repo}/branch_protections/main`, as(owner))).status).toBe(204);
      expect((await git.run(['push', remote(writer), 'main:main'], { cwd: work })).code).toBe(0);
    });

    it('protected file patterns refuse a push that changes them, whoever pushes; unprotected ones let non-pushers through', async () => {
      const ruleName = 'guarded';
      await git.ok(['fetch', '-q', 'origin'], { cwd: work });
      await git.ok(['checkout', '-q', '-B', ruleName, 'origin/main'], { cwd: work });
      expect((await git.run(['push', remote(owner), `${ruleName}:${ruleName}`], { cwd: work })).code).toBe(0);
      const created = await s.client.post(
        `/repos/${repo}/branch_protections`,
        { rule_name: ruleName, enable_push: true, protected_file_patterns: '*.lock; Config/**', unprotected_file_patterns: 'docs/**' },
        as(owner),
      );
      expect(created.status).toBe(201);
      const before = await tip(ruleName);
      // `*` stays within a dot-separated part, and matching ignores case.
      await git.commit(work, { 'Yarn.LOCK': 'x\n' }, 'touch a lock file');
      const refused = await git.run(['push', remote(owner), `${ruleName}:${ruleName}`], { cwd: work });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain(`remote: branch ${ruleName} is protected from changing file Yarn.LOCK`);
      expect(await tip(ruleName)).toBe(before);
      await git.ok(['reset', '-q', '--hard', 'HEAD~1'], { cwd: work });
      await git.commit(work, { 'config/deep/app.ini': 'y\n' }, 'touch config');
      const deep = await git.run(['push', remote(writer), `${ruleName}:${ruleName}`], { cwd: work });
      expect(deep.stderr).toContain(`remote: branch ${ruleName} is protected from changing file config/deep/app.ini`);
      await git.ok(['reset', '-q', '--hard', 'HEAD~1'], { cwd: work });
      // Not protected: a lock file below a directory, and ordinary files.
      const fine = await git.commit(work, { 'sub/yarn.lock': 'z\n', 'readme.txt': 'r\n' }, 'ordinary change');
      expect((await git.run(['push', remote(writer), `${ruleName}:${ruleName}`], { cwd: work })).code).toBe(0);
      expect(await tip(ruleName)).toBe(fine);
      // With pushing disabled, only changes confined to unprotected files get through.
      expect((await s.client.patch(`/repos/${repo}/branch_protections/${ruleName}`, { enable_push: false }, as(owner))).status).toBe(200);
      const docs = await git.commit(work, { 'docs/guide.md': 'g\n' }, 'docs only');
      expect((await git.run(['push', remote(writer), `${ruleName}:${ruleName}`], { cwd: work })).code).toBe(0);
      expect(await tip(ruleName)).toBe(docs);
      await git.commit(work, { 'docs/more.md': 'm\n', 'src.txt': 's\n' }, 'docs and code');
      const mixed = await git.run(['push', remote(writer), `${ruleName}:${ruleName}`], { cwd: work });
      expect(mixed.code).not.toBe(0);
      expect(mixed.stderr).toContain(`remote: Not allowed to push to protected branch ${ruleName} (rule "${ruleName}")`);
      expect(await tip(ruleName)).toBe(docs);
    });

    it('leaves unprotected branches alone: force push and deletion work', async () => {
      await git.ok(['fetch', '-q', 'origin'], { cwd: work });
      await commitOn('feature');
      expect((await git.run(['push', remote(writer), 'feature:feature'], { cwd: work })).code).toBe(0);
      const rewritten = await commitOn('feature', 'origin/feature~0');
      await git.ok(['reset', '-q', '--hard', 'origin/main~1'], { cwd: work });
      const forced = await git.commit(work, { 'other.txt': 'o\n' }, 'other');
      expect(forced).not.toBe(rewritten);
      const r = await git.run(['push', '--force', remote(writer), 'feature:feature'], { cwd: work });
      expect(r.code).toBe(0);
      expect(await tip('feature')).toBe(forced);
      const del = await git.run(['push', remote(writer), ':refs/heads/feature'], { cwd: work });
      expect(del.code).toBe(0);
      expect(await tip('feature')).toBeUndefined();
    });
  });
});
