import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';
import { cleanupTmp, git, gitOk, tmp } from '../../git/helpers.js';

/*
 * createCurrentUserRepo, adminCreateRepo, repoGet, repoGetByID, repoEdit, repoDelete, repoSearch,
 * userCurrentListRepos, userListRepos (BEHAVIOUR.md 6.1-6.4, 6.6, 6.7, 6.9). Repositories live on disk at
 * <root>/<id>.git; the git CLI reads them by path.
 */

interface Perm {
  admin: boolean;
  push: boolean;
  pull: boolean;
}
interface ApiRepo {
  id: number;
  name: string;
  full_name: string;
  owner: { id: number; login: string };
  description: string;
  website: string;
  empty: boolean;
  private: boolean;
  fork: boolean;
  template: boolean;
  mirror: boolean;
  archived: boolean;
  archived_at: string;
  html_url: string;
  clone_url: string;
  ssh_url: string;
  url: string;
  default_branch: string;
  object_format_name: string;
  permissions: Perm;
  has_issues: boolean;
  has_wiki: boolean;
  has_pull_requests: boolean;
  has_projects: boolean;
  has_releases: boolean;
  has_packages: boolean;
  has_actions: boolean;
  allow_squash_merge: boolean;
  default_merge_style: string;
  internal: boolean;
  size: number;
  stars_count: number;
  created_at: string;
  updated_at: string;
}
interface SearchBody {
  ok: boolean;
  data: ApiRepo[];
}

const OWNER: Perm = { admin: true, push: true, pull: true };
const WRITE: Perm = { admin: false, push: true, pull: true };
const READ: Perm = { admin: false, push: false, pull: true };
const ZERO_TIME = '1970-01-01T00:00:00Z';
const INVALID_NAME = (n: string) => `name is invalid [${n}]: must be valid alpha or numeric or dash(-_) or dot characters`;

describeDb('repositories', () => {
  let s: TestServer;
  let root: string;
  let alice: TestUser;
  let bob: TestUser;
  let stranger: TestUser;
  const err = (message: string) => ({ message, url: `${s.url}/api/swagger` });
  const rootUrl = () => `${s.url}/`;
  const as = (u: TestUser | null) => (u ? { token: u.token } : {});

  /** Creates a repository through the API for `user` and returns the 201 body. */
  async function newRepo(user: TestUser, body: Record<string, unknown> = {}): Promise<ApiRepo> {
    const r = await s.client.post<ApiRepo>('/user/repos', { name: uniqueName('r'), ...body }, as(user));
    expect(r.status).toBe(201);
    return r.body;
  }
  async function addCollaborator(repo: ApiRepo, user: TestUser, permission: 'read' | 'write' | 'admin'): Promise<void> {
    const r = await s.client.put(`/repos/${repo.full_name}/collaborators/${user.name}`, { permission }, { token: s.admin.token });
    expect(r.status).toBe(204);
  }
  /** Entries of the repositories root (the .tmp staging directory aside). */
  const rootEntries = () => readdirSync(root).filter((e) => e !== '.tmp').sort();
  const tmpEntries = () => (existsSync(join(root, '.tmp')) ? readdirSync(join(root, '.tmp')) : []);
  async function clone(repo: ApiRepo): Promise<string> {
    const dir = join(await tmp(), 'work');
    await gitOk(['clone', '--quiet', join(root, `${repo.id}.git`), dir]);
    return dir;
  }

  beforeAll(async () => {
    s = await startServer();
    root = join(s.dir, 'repositories');
    alice = await s.createUser();
    bob = await s.createUser();
    stranger = await s.createUser();
  });
  afterAll(async () => {
    await s?.close();
    await cleanupTmp();
  });

  describe('createCurrentUserRepo', () => {
    it('creates an empty repository and answers 201 with the complete Repository', async () => {
      const name = uniqueName('repo');
      const r = await s.client.post<ApiRepo>('/user/repos', { name }, as(alice));
      expect(r.status).toBe(201);
      const full = `${alice.name}/${name}`;
      expect(r.body).toMatchObject({
        name,
        full_name: full,
        owner: { id: alice.id, login: alice.name },
        description: '',
        website: '',
        empty: true,
        private: false,
        fork: false,
        template: false,
        mirror: false,
        internal: false,
        archived: false,
        archived_at: ZERO_TIME,
        html_url: `${rootUrl()}${full}`,
        clone_url: `${rootUrl()}${full}.git`,
        ssh_url: `git@127.0.0.1:${full}.git`,
        url: `${rootUrl()}api/v1/repos/${full}`,
        default_branch: 'main',
        object_format_name: 'sha1',
        permissions: OWNER,
        stars_count: 0,
        forks_count: 0,
        watchers_count: 0,
        open_issues_count: 0,
        has_issues: true,
        has_wiki: true,
        has_pull_requests: true,
        mirror_interval: '',
      });
      expect(r.body.id).toBeGreaterThan(0);
      expect(Date.parse(r.body.created_at)).not.toBeNaN();
      expect(r.body).not.toHaveProperty('parent');
      // A bare repository by id, HEAD on the default branch, no commits.
      const dir = join(root, `${r.body.id}.git`);
      expect(await gitOk(['--git-dir', dir, 'rev-parse', '--is-bare-repository'])).toBe('true');
      expect(await gitOk(['--git-dir', dir, 'symbolic-ref', 'HEAD'])).toBe('refs/heads/main');
      expect((await git(['--git-dir', dir, 'rev-parse', '--verify', '--quiet', 'HEAD'])).code).not.toBe(0);
      // The same body comes back from repoGet.
      const got = await s.client.get<ApiRepo>(`/repos/${full}`, as(alice));
      expect(got.status).toBe(200);
      expect(got.body).toEqual(r.body);
    });

    it('honours default_branch, private and template', async () => {
      const r = await s.client.post<ApiRepo>('/user/repos', { name: uniqueName('r'), default_branch: 'develop', private: true, template: true }, as(alice));
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ default_branch: 'develop', private: true, template: true, empty: true, permissions: OWNER });
      expect(await gitOk(['--git-dir', join(root, `${r.body.id}.git`), 'symbolic-ref', 'HEAD'])).toBe('refs/heads/develop');
    });

    it('auto_init commits README.md, LICENSE and .gitignore on the default branch', async () => {
      const name = uniqueName('init');
      const description = 'A repository made for testing';
      const r = await s.client.post<ApiRepo>(
        '/user/repos',
        { name, description, auto_init: true, gitignores: 'Node', license: 'MIT', readme: 'Default', default_branch: 'trunk' },
        as(alice),
      );
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ name, description, empty: false, default_branch: 'trunk' });
      const work = await clone(r.body);
      expect(await gitOk(['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: work })).toBe('trunk');
      expect(await gitOk(['log', '--format=%s|%ae', 'trunk'], { cwd: work })).toBe(`Initial commit|${alice.email}`);
      expect((await gitOk(['ls-tree', '--name-only', 'HEAD'], { cwd: work })).split('\n').sort()).toEqual(['.gitignore', 'LICENSE', 'README.md']);
      expect(readFileSync(join(work, 'README.md'), 'utf8')).toBe(`# ${name}\n\n${description}\n`);
      const license = readFileSync(join(work, 'LICENSE'), 'utf8');
      expect(license).toContain('MIT License');
      expect(license).toContain('Permission is hereby granted, free of charge');
      expect(license).toContain(String(new Date().getUTCFullYear()));
      const gitignore = readFileSync(join(work, '.gitignore'), 'utf8');
      expect(gitignore).toMatch(/^# ---> Node\n/);
      expect(gitignore).toContain('node_modules/');
    });

    it('auto_init without templates commits only the README; the readme name is ignored without auto_init', async () => {
      const a = await newRepo(alice, { auto_init: true });
      expect(a.empty).toBe(false);
      const work = await clone(a);
      expect(await gitOk(['ls-tree', '--name-only', 'HEAD'], { cwd: work })).toBe('README.md');
      expect(readFileSync(join(work, 'README.md'), 'utf8')).toBe(`# ${a.name}\n\n\n`);
      const b = await newRepo(alice, { readme: 'Nope' });
      expect(b.empty).toBe(true);
    });

    it('an unknown readme template is 400', async () => {
      const name = uniqueName('r');
      const r = await s.client.post('/user/repos', { name, auto_init: true, readme: 'Fancy' }, as(alice));
      expect(r.status).toBe(400);
      expect(r.body).toEqual(err('readme template does not exist, available templates: [Default]'));
      expect((await s.client.get(`/repos/${alice.name}/${name}`, as(alice))).status).toBe(404);
    });

    it.each([
      ['gitignores', 'Node,NoSuchIgnore', 'gitignore template does not exist: NoSuchIgnore'],
      ['license', 'NO-SUCH-LICENSE', 'license template does not exist: NO-SUCH-LICENSE'],
      ['issue_labels', 'NoSuchLabels', 'label template does not exist: NoSuchLabels'],
    ])('an unknown %s template is 422', async (field, value, message) => {
      const name = uniqueName('r');
      const r = await s.client.post('/user/repos', { name, auto_init: true, [field]: value }, as(alice));
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err(message));
      expect((await s.client.get(`/repos/${alice.name}/${name}`, as(alice))).status).toBe(404);
    });

    it('accepts the known label sets', async () => {
      const r = await newRepo(alice, { issue_labels: 'Default' });
      expect(r.empty).toBe(true);
    });

    it.each([
      ['a b', INVALID_NAME('a b')],
      ['ünï', INVALID_NAME('ünï')],
      ['x/y', INVALID_NAME('x/y')],
      ['', INVALID_NAME('')],
      ['a'.repeat(101), INVALID_NAME('a'.repeat(101))],
      ['.', 'name is reserved [name: .]'],
      ['..', 'name is reserved [name: ..]'],
      ['-', 'name is reserved [name: -]'],
      ['x.git', 'name pattern is not allowed [pattern: *.git]'],
      ['X.WIKI', 'name pattern is not allowed [pattern: *.wiki]'],
      ['feed.rss', 'name pattern is not allowed [pattern: *.rss]'],
      ['feed.atom', 'name pattern is not allowed [pattern: *.atom]'],
    ])('refuses the name %j with 422', async (name, message) => {
      const before = rootEntries();
      const r = await s.client.post('/user/repos', { name }, as(alice));
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err(message));
      expect(rootEntries()).toEqual(before);
    });

    it('accepts names of letters, digits, dash, underscore and dot up to 100 characters', async () => {
      for (const name of ['A-b_c.d', 'x'.repeat(100), `.${uniqueName()}`]) {
        const r = await s.client.post<ApiRepo>('/user/repos', { name }, as(bob));
        expect(r.status).toBe(201);
        expect(r.body.name).toBe(name);
      }
    });

    it('a name the owner already uses, in any case, is 409', async () => {
      const name = uniqueName('Dup');
      await newRepo(alice, { name });
      for (const again of [name, name.toUpperCase(), name.toLowerCase()]) {
        const r = await s.client.post('/user/repos', { name: again }, as(alice));
        expect(r.status).toBe(409);
        expect(r.body).toEqual(err('The repository with the same name already exists.'));
      }
      // Another owner may use it.
      const other = await s.client.post<ApiRepo>('/user/repos', { name }, as(bob));
      expect(other.status).toBe(201);
      expect(other.body.full_name).toBe(`${bob.name}/${name}`);
    });

    it('object_format_name sha256 makes a sha256 repository when git can, 422 otherwise', async () => {
      const probe = await tmp();
      const canSha256 = (await git(['init', '--bare', '--quiet', '--object-format=sha256', join(probe, 'p.git')])).code === 0;
      const name = uniqueName('sha');
      const r = await s.client.post<ApiRepo>('/user/repos', { name, object_format_name: 'sha256', auto_init: true }, as(alice));
      if (!canSha256) {
        expect(r.status).toBe(422);
        expect(r.body).toEqual(err('the git on this server cannot create sha256 repositories'));
        return;
      }
      expect(r.status).toBe(201);
      expect(r.body.object_format_name).toBe('sha256');
      const dir = join(root, `${r.body.id}.git`);
      expect(await gitOk(['--git-dir', dir, 'rev-parse', '--show-object-format'])).toBe('sha256');
      expect(await gitOk(['--git-dir', dir, 'rev-parse', 'HEAD'])).toMatch(/^[0-9a-f]{64}$/);
      const sha1 = await newRepo(alice, { object_format_name: 'sha1' });
      expect(sha1.object_format_name).toBe('sha1');
    });

    it('an unknown object format is 422', async () => {
      const r = await s.client.post('/user/repos', { name: uniqueName('r'), object_format_name: 'md5' }, as(alice));
      expect(r.status).toBe(422);
      expect(r.body).toMatchObject({ url: `${s.url}/api/swagger` });
      expect(r.body.message).toContain('object_format_name');
    });

    it('is 401 for anonymous callers', async () => {
      const r = await s.client.post('/user/repos', { name: uniqueName('r') });
      expect(r.status).toBe(401);
      expect(r.body).toEqual(err('token is required'));
    });

    it('is 403 for a read-only token', async () => {
      const token = await s.createToken(alice.name, ['read:repository', 'read:user']);
      const r = await s.client.post('/user/repos', { name: uniqueName('r') }, { token });
      expect(r.status).toBe(403);
      expect(r.body).toEqual(
        err('token does not have at least one of required scope(s), required=[write:user write:repository], token scope=read:repository,read:user'),
      );
    });

    it('20 parallel creates of one name: one 201, the rest 409, one directory', async () => {
      const before = rootEntries();
      const name = uniqueName('race');
      const results = await Promise.all(Array.from({ length: 20 }, () => s.client.post<ApiRepo>('/user/repos', { name, auto_init: true }, as(alice))));
      const created = results.filter((r) => r.status === 201);
      const conflicts = results.filter((r) => r.status === 409);
      expect(created).toHaveLength(1);
      expect(conflicts).toHaveLength(19);
      for (const c of conflicts) expect(c.body).toEqual(err('The repository with the same name already exists.'));
      const id = created[0]!.body.id;
      expect(rootEntries()).toEqual([...before, `${id}.git`].sort());
      expect(tmpEntries()).toEqual([]);
      const work = await clone(created[0]!.body);
      expect(readFileSync(join(work, 'README.md'), 'utf8')).toBe(`# ${name}\n\n\n`);
      const search = await s.client.get<SearchBody>(`/repos/search?q=${name}`, as(alice));
      expect(search.body.data.map((r) => r.id)).toEqual([id]);
    });

    it('a failed create leaves neither a row nor a directory', async () => {
      const before = rootEntries();
      const name = uniqueName('fail');
      for (const body of [
        { name, default_branch: 'a..b' },
        { name, default_branch: 'a..b', auto_init: true },
        { name, auto_init: true, license: 'NOPE' },
      ]) {
        const r = await s.client.post('/user/repos', body, as(alice));
        expect(r.status).toBe(422);
        expect(r.body).toMatchObject({ url: `${s.url}/api/swagger` });
      }
      const search = await s.client.get<SearchBody>(`/repos/search?q=${name}`, as(alice));
      expect(search.body).toEqual({ ok: true, data: [] });
      expect(rootEntries()).toEqual(before);
      expect(tmpEntries()).toEqual([]);
      // The name is still free.
      const ok = await newRepo(alice, { name });
      expect(ok.name).toBe(name);
    });
  });

  describe('adminCreateRepo', () => {
    it('creates a repository owned by another user', async () => {
      const owner = await s.createUser();
      const name = uniqueName('adm');
      const r = await s.client.post<ApiRepo>(`/admin/users/${owner.name}/repos`, { name, private: true, auto_init: true }, { token: s.admin.token });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ name, full_name: `${owner.name}/${name}`, owner: { id: owner.id, login: owner.name }, private: true, empty: false, permissions: OWNER });
      const mine = await s.client.get<ApiRepo>(`/repos/${owner.name}/${name}`, as(owner));
      expect(mine.status).toBe(200);
      expect(mine.body.permissions).toEqual(OWNER);
      // The initial commit is the doer's (the administrator).
      expect(await gitOk(['--git-dir', join(root, `${r.body.id}.git`), 'log', '--format=%ae'])).toBe(s.admin.email);
    });

    it('is 409 for a name the user already has', async () => {
      const r0 = await newRepo(alice);
      const r = await s.client.post(`/admin/users/${alice.name}/repos`, { name: r0.name.toUpperCase() }, { token: s.admin.token });
      expect(r.status).toBe(409);
      expect(r.body).toEqual(err('The repository with the same name already exists.'));
    });

    it('is 403 for a non-admin', async () => {
      const r = await s.client.post(`/admin/users/${bob.name}/repos`, { name: uniqueName('r') }, as(alice));
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('user should be the site admin'));
    });

    it('is 404 for an unknown user', async () => {
      const r = await s.client.post(`/admin/users/${uniqueName('ghost')}/repos`, { name: uniqueName('r') }, { token: s.admin.token });
      expect(r.status).toBe(404);
      expect(r.body).toEqual(err("The target couldn't be found."));
    });
  });

  describe('repoGet and repoGetByID', () => {
    let pub: ApiRepo;
    let priv: ApiRepo;
    let reader: TestUser;
    beforeAll(async () => {
      pub = await newRepo(alice, { description: 'public one' });
      priv = await newRepo(alice, { private: true });
      reader = await s.createUser();
      await addCollaborator(priv, reader, 'read');
    });

    it('a public repository: anonymous and strangers read it', async () => {
      const anon = await s.client.get<ApiRepo>(`/repos/${pub.full_name}`);
      expect(anon.status).toBe(200);
      expect(anon.body).toMatchObject({ id: pub.id, full_name: pub.full_name, description: 'public one', permissions: READ });
      const other = await s.client.get<ApiRepo>(`/repos/${pub.full_name}`, as(stranger));
      expect(other.status).toBe(200);
      expect(other.body.permissions).toEqual(READ);
      const admin = await s.client.get<ApiRepo>(`/repos/${pub.full_name}`, { token: s.admin.token });
      expect(admin.body.permissions).toEqual(OWNER);
    });

    it('the owner and repository names are case-insensitive', async () => {
      const r = await s.client.get<ApiRepo>(`/repos/${alice.name.toUpperCase()}/${pub.name.toUpperCase()}`);
      expect(r.status).toBe(200);
      expect(r.body.full_name).toBe(pub.full_name);
    });

    it('a private repository is 404 for anonymous callers and strangers', async () => {
      for (const who of [null, stranger]) {
        const r = await s.client.get(`/repos/${priv.full_name}`, as(who));
        expect(r.status).toBe(404);
        expect(r.body).toEqual(err("The target couldn't be found."));
      }
    });

    it('a private repository is 200 for its owner, a collaborator and a site admin, each with their permissions', async () => {
      for (const [who, perm] of [
        [alice, OWNER],
        [reader, READ],
        [s.admin, OWNER],
      ] as const) {
        const r = await s.client.get<ApiRepo>(`/repos/${priv.full_name}`, as(who));
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ id: priv.id, private: true, permissions: perm });
      }
    });

    it('an unknown owner or repository is 404', async () => {
      for (const path of [`/repos/${uniqueName('ghost')}/${pub.name}`, `/repos/${alice.name}/${uniqueName('none')}`]) {
        const r = await s.client.get(path, as(alice));
        expect(r.status).toBe(404);
        expect(r.body).toEqual(err("The target couldn't be found."));
      }
    });

    it('a public-only token reads public repositories but gets 403 on private ones', async () => {
      const token = await s.createToken(alice.name, ['public-only', 'read:repository']);
      const ok = await s.client.get<ApiRepo>(`/repos/${pub.full_name}`, { token });
      expect(ok.status).toBe(200);
      expect(ok.body.id).toBe(pub.id);
      const r = await s.client.get(`/repos/${priv.full_name}`, { token });
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('token scope is limited to public repos'));
    });

    it('a token without the repository scope is 403', async () => {
      const token = await s.createToken(alice.name, ['read:user']);
      const r = await s.client.get(`/repos/${pub.full_name}`, { token });
      expect(r.status).toBe(403);
      expect(r.body).toEqual(err('token does not have at least one of required scope(s), required=[read:repository], token scope=read:user'));
    });

    it('public repositories of private and limited users follow the owner visibility', async () => {
      const hidden = await s.createUser({ visibility: 'private' });
      const limited = await s.createUser({ visibility: 'limited' });
      const hr = await newRepo(hidden);
      const lr = await newRepo(limited);
      for (const who of [null, stranger]) {
        const r = await s.client.get(`/repos/${hr.full_name}`, as(who));
        expect(r.status).toBe(404);
        expect(r.body).toEqual(err("The target couldn't be found."));
      }
      const adminView = await s.client.get<ApiRepo>(`/repos/${hr.full_name}`, { token: s.admin.token });
      expect(adminView.status).toBe(200);
      // A public repository of a private user is "internal".
      expect(adminView.body).toMatchObject({ private: false, internal: true });
      expect(lr.internal).toBe(false);
      const anon = await s.client.get(`/repos/${lr.full_name}`);
      expect(anon.status).toBe(404);
      expect(anon.body).toEqual(err("The target couldn't be found."));
      const signed = await s.client.get<ApiRepo>(`/repos/${lr.full_name}`, as(stranger));
      expect(signed.status).toBe(200);
      expect(signed.body.permissions).toEqual(READ);
    });

    it('repoGetByID needs sign-in', async () => {
      const r = await s.client.get(`/repositories/${pub.id}`);
      expect(r.status).toBe(401);
      expect(r.body).toEqual(err('token is required'));
    });

    it('repoGetByID answers visible repositories and 404 for the rest', async () => {
      const ok = await s.client.get<ApiRepo>(`/repositories/${pub.id}`, as(stranger));
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ id: pub.id, full_name: pub.full_name, permissions: READ });
      const col = await s.client.get<ApiRepo>(`/repositories/${priv.id}`, as(reader));
      expect(col.status).toBe(200);
      expect(col.body).toMatchObject({ id: priv.id, permissions: READ });
      for (const path of [`/repositories/${priv.id}`, '/repositories/99999999']) {
        const r = await s.client.get(path, as(stranger));
        expect(r.status).toBe(404);
        expect(r.body).toEqual(err("The target couldn't be found."));
      }
    });
  });

  describe('repoEdit', () => {
    it('changes description, website, template, private and has_* flags, reflected in the body', async () => {
      const repo = await newRepo(alice);
      const r = await s.client.patch<ApiRepo>(
        `/repos/${repo.full_name}`,
        {
          description: 'new words',
          website: 'https://example.com/x',
          template: true,
          private: true,
          has_issues: false,
          has_wiki: false,
          has_projects: false,
          has_releases: false,
          has_packages: false,
          has_actions: true,
          allow_squash_merge: false,
          default_merge_style: 'rebase',
        },
        as(alice),
      );
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        id: repo.id,
        name: repo.name,
        description: 'new words',
        website: 'https://example.com/x',
        template: true,
        private: true,
        has_issues: false,
        has_wiki: false,
        has_projects: false,
        has_releases: false,
        has_packages: false,
        has_actions: true,
        has_pull_requests: true,
        allow_squash_merge: false,
        default_merge_style: 'rebase',
        permissions: OWNER,
      });
      const got = await s.client.get<ApiRepo>(`/repos/${repo.full_name}`, as(alice));
      expect(got.body).toEqual(r.body);
      // Now private: hidden from strangers.
      expect((await s.client.get(`/repos/${repo.full_name}`, as(stranger))).status).toBe(404);
      // Fields not sent keep their values.
      const again = await s.client.patch<ApiRepo>(`/repos/${repo.full_name}`, { private: false }, as(alice));
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ private: false, description: 'new words', website: 'https://example.com/x', has_issues: false });
      expect((await s.client.get(`/repos/${repo.full_name}`, as(stranger))).status).toBe(200);
    });

    it('archives and unarchives', async () => {
      const repo = await newRepo(alice);
      const r = await s.client.patch<ApiRepo>(`/repos/${repo.full_name}`, { archived: true }, as(alice));
      expect(r.status).toBe(200);
      expect(r.body.archived).toBe(true);
      expect(r.body.archived_at).not.toBe(ZERO_TIME);
      expect(Date.parse(r.body.archived_at)).not.toBeNaN();
      // Editing is still allowed while archived.
      const desc = await s.client.patch<ApiRepo>(`/repos/${repo.full_name}`, { description: 'frozen' }, as(alice));
      expect(desc.status).toBe(200);
      expect(desc.body).toMatchObject({ archived: true, description: 'frozen' });
      const un = await s.client.patch<ApiRepo>(`/repos/${repo.full_name}`, { archived: false }, as(alice));
      expect(un.status).toBe(200);
      expect(un.body).toMatchObject({ archived: false, archived_at: ZERO_TIME });
    });

    it('renames the repository; the old name answers 307 to the new one', async () => {
      const repo = await newRepo(alice, { auto_init: true });
      const newName = uniqueName('renamed');
      const r = await s.client.patch<ApiRepo>(`/repos/${repo.full_name}`, { name: newName }, as(alice));
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        id: repo.id,
        name: newName,
        full_name: `${alice.name}/${newName}`,
        clone_url: `${rootUrl()}${alice.name}/${newName}.git`,
        html_url: `${rootUrl()}${alice.name}/${newName}`,
      });
      // Stored by id: the directory does not move.
      expect(existsSync(join(root, `${repo.id}.git`))).toBe(true);
      const now = await s.client.get<ApiRepo>(`/repos/${alice.name}/${newName}`, as(alice));
      expect(now.status).toBe(200);
      expect(now.body.id).toBe(repo.id);
      const old = await s.client.get(`/repos/${repo.full_name}?x=1`, as(alice));
      expect(old.status).toBe(307);
      expect(old.headers.get('location')).toBe(`/api/v1/repos/${alice.name}/${newName}?x=1`);
      expect(old.body).toEqual(err('moved permanently'));
      // Every operation under the old name redirects, whatever the case of the names in the path.
      const sub = await s.client.get(`/repos/${alice.name.toUpperCase()}/${repo.name.toUpperCase()}/topics`, as(alice));
      expect(sub.status).toBe(307);
      expect(sub.headers.get('location')).toBe(`/api/v1/repos/${alice.name}/${newName}/topics`);
      const patch = await s.client.patch(`/repos/${repo.full_name}`, { description: 'via old name' }, as(alice));
      expect(patch.status).toBe(307);
      expect(patch.headers.get('location')).toBe(`/api/v1/repos/${alice.name}/${newName}`);
      expect((await s.client.get<ApiRepo>(`/repos/${alice.name}/${newName}`, as(alice))).body.description).toBe('');
      // The redirect reveals nothing to those who cannot see the repository.
      await s.client.patch(`/repos/${alice.name}/${newName}`, { private: true }, as(alice));
      const hidden = await s.client.get(`/repos/${repo.full_name}`, as(stranger));
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(err("The target couldn't be found."));
      // A case-only change is not a rename.
      const upper = newName.toUpperCase();
      const cased = await s.client.patch<ApiRepo>(`/repos/${alice.name}/${newName}`, { name: upper }, as(alice));
      expect(cased.status).toBe(200);
      expect(cased.body.name).toBe(upper);
      // The old name can be taken again; then it is no longer redirected.
      const reuse = await newRepo(alice, { name: repo.name });
      const got = await s.client.get<ApiRepo>(`/repos/${repo.full_name}`, as(alice));
      expect(got.status).toBe(200);
      expect(got.body.id).toBe(reuse.id);
    });

    it('a renamed owner: /repos/{old owner}/{repo} answers 307 to the new owner name, only to those who may see it', async () => {
      const bob = await s.createUser();
      const pub = await newRepo(bob, { auto_init: true });
      const priv = await newRepo(bob, { private: true });
      const newOwner = uniqueName('moved');
      const renamed = await s.client.post(`/admin/users/${bob.name}/rename`, { new_username: newOwner }, as(s.admin));
      expect(renamed.status).toBe(204);
      const old = await s.client.get(`/repos/${bob.name}/${pub.name}/branches?page=1`, as(stranger));
      expect(old.status).toBe(307);
      expect(old.headers.get('location')).toBe(`/api/v1/repos/${newOwner}/${pub.name}/branches?page=1`);
      expect(old.body).toEqual(err('moved permanently'));
      const anon = await s.client.get(`/repos/${bob.name}/${pub.name}`);
      expect(anon.status).toBe(307);
      // A private repository under the old owner name is as missing as one that never existed.
      const hidden = await s.client.get(`/repos/${bob.name}/${priv.name}`, as(stranger));
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(err("The target couldn't be found."));
      expect((await s.client.get(`/repos/${bob.name}/${priv.name}`, as(bob))).status).toBe(307);
      expect((await s.client.get(`/repos/${bob.name}/nothing-here`, as(bob))).status).toBe(404);
    });

    it('a name that is taken or invalid is 422', async () => {
      const a = await newRepo(alice);
      const b = await newRepo(alice);
      const taken = await s.client.patch(`/repos/${a.full_name}`, { name: b.name.toUpperCase() }, as(alice));
      expect(taken.status).toBe(422);
      // Gitea's body carries the error's text, not the "repo name is already taken" title it logs.
      expect(taken.body).toEqual(err(`repository already exists [uname: ${alice.name}, name: ${b.name.toUpperCase()}]`));
      const reserved = await s.client.patch(`/repos/${a.full_name}`, { name: '..' }, as(alice));
      expect(reserved.status).toBe(422);
      expect(reserved.body).toEqual(err('name is reserved [name: ..]'));
      const pattern = await s.client.patch(`/repos/${a.full_name}`, { name: 'x.git' }, as(alice));
      expect(pattern.status).toBe(422);
      expect(pattern.body).toEqual(err('name pattern is not allowed [pattern: *.git]'));
      const chars = await s.client.patch(`/repos/${a.full_name}`, { name: 'a b' }, as(alice));
      expect(chars.status).toBe(422);
      expect(chars.body).toEqual(err(INVALID_NAME('a b')));
      expect((await s.client.get<ApiRepo>(`/repos/${a.full_name}`, as(alice))).body.name).toBe(a.name);
    });

    it('default_branch: set to an existing branch (HEAD follows), a missing branch is ignored', async () => {
      const repo = await newRepo(alice, { auto_init: true });
      const br = await s.client.post(`/repos/${repo.full_name}/branches`, { new_branch_name: 'stable' }, as(alice));
      expect(br.status).toBe(201);
      const r = await s.client.patch<ApiRepo>(`/repos/${repo.full_name}`, { default_branch: 'stable' }, as(alice));
      expect(r.status).toBe(200);
      expect(r.body.default_branch).toBe('stable');
      expect(await gitOk(['--git-dir', join(root, `${repo.id}.git`), 'symbolic-ref', 'HEAD'])).toBe('refs/heads/stable');
      const missing = await s.client.patch<ApiRepo>(`/repos/${repo.full_name}`, { default_branch: 'nope' }, as(alice));
      expect(missing.status).toBe(200);
      expect(missing.body.default_branch).toBe('stable');
      expect(await gitOk(['--git-dir', join(root, `${repo.id}.git`), 'symbolic-ref', 'HEAD'])).toBe('refs/heads/stable');
    });

    it('default_branch of an empty repository may name a branch to come', async () => {
      const repo = await newRepo(alice);
      const r = await s.client.patch<ApiRepo>(`/repos/${repo.full_name}`, { default_branch: 'future' }, as(alice));
      expect(r.status).toBe(200);
      expect(r.body.default_branch).toBe('future');
      expect(await gitOk(['--git-dir', join(root, `${repo.id}.git`), 'symbolic-ref', 'HEAD'])).toBe('refs/heads/future');
    });

    it('needs repository admin: a write collaborator gets 403, an admin collaborator may edit', async () => {
      const repo = await newRepo(alice);
      const writer = await s.createUser();
      const admin = await s.createUser();
      await addCollaborator(repo, writer, 'write');
      await addCollaborator(repo, admin, 'admin');
      const w = await s.client.patch(`/repos/${repo.full_name}`, { description: 'x' }, as(writer));
      expect(w.status).toBe(403);
      expect(w.body).toEqual(err('user should be an owner or a collaborator with admin write of a repository'));
      const a = await s.client.patch<ApiRepo>(`/repos/${repo.full_name}`, { description: 'by admin' }, as(admin));
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({ description: 'by admin', permissions: { admin: true, push: true, pull: true } });
      const st = await s.client.patch(`/repos/${repo.full_name}`, { description: 'x' }, as(stranger));
      expect(st.status).toBe(403);
      expect(st.body).toEqual(err('user should be an owner or a collaborator with admin write of a repository'));
      const anon = await s.client.patch(`/repos/${repo.full_name}`, { description: 'x' });
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual(err('token is required'));
    });

    it('a private repository is 404 to strangers', async () => {
      const repo = await newRepo(alice, { private: true });
      const r = await s.client.patch(`/repos/${repo.full_name}`, { description: 'x' }, as(stranger));
      expect(r.status).toBe(404);
      expect(r.body).toEqual(err("The target couldn't be found."));
    });
  });

  describe('repoDelete', () => {
    it('the owner deletes: 204, the row and the directory are gone', async () => {
      const repo = await newRepo(alice, { auto_init: true });
      const dir = join(root, `${repo.id}.git`);
      expect(existsSync(dir)).toBe(true);
      const r = await s.client.delete(`/repos/${repo.full_name}`, as(alice));
      expect(r.status).toBe(204);
      expect(r.text).toBe('');
      expect(existsSync(dir)).toBe(false);
      const got = await s.client.get(`/repos/${repo.full_name}`, as(alice));
      expect(got.status).toBe(404);
      expect(got.body).toEqual(err("The target couldn't be found."));
      expect((await s.client.get(`/repositories/${repo.id}`, as(alice))).status).toBe(404);
      // The name is free again.
      const again = await newRepo(alice, { name: repo.name });
      expect(again.id).not.toBe(repo.id);
    });

    it('a site administrator may delete', async () => {
      const repo = await newRepo(bob, { private: true });
      const r = await s.client.delete(`/repos/${repo.full_name}`, { token: s.admin.token });
      expect(r.status).toBe(204);
      expect(existsSync(join(root, `${repo.id}.git`))).toBe(false);
    });

    it('collaborators (even admin ones) and strangers on public repositories get 403', async () => {
      const repo = await newRepo(alice);
      const users: TestUser[] = [];
      for (const perm of ['read', 'write', 'admin'] as const) {
        const u = await s.createUser();
        await addCollaborator(repo, u, perm);
        users.push(u);
      }
      for (const u of [...users, stranger]) {
        const r = await s.client.delete(`/repos/${repo.full_name}`, as(u));
        expect(r.status).toBe(403);
        expect(r.body).toEqual(err('user should be the owner of the repo'));
      }
      expect(existsSync(join(root, `${repo.id}.git`))).toBe(true);
      expect((await s.client.get(`/repos/${repo.full_name}`)).status).toBe(200);
    });

    it('a private repository is 404 to strangers; anonymous is 401', async () => {
      const repo = await newRepo(alice, { private: true });
      const r = await s.client.delete(`/repos/${repo.full_name}`, as(stranger));
      expect(r.status).toBe(404);
      expect(r.body).toEqual(err("The target couldn't be found."));
      const anon = await s.client.delete(`/repos/${repo.full_name}`);
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual(err('token is required'));
      expect(existsSync(join(root, `${repo.id}.git`))).toBe(true);
    });
  });

  describe('repoSearch', () => {
    const tag = uniqueName('s');
    let owner: TestUser;
    let collab: TestUser;
    let hiddenOwner: TestUser;
    let pub: ApiRepo;
    let priv: ApiRepo;
    let tmpl: ApiRepo;
    let arch: ApiRepo;
    let described: ApiRepo;
    let otherPub: ApiRepo;
    let collabPriv: ApiRepo;
    let hiddenPub: ApiRepo;
    const search = (query: string, who: TestUser | null = null) => s.client.get<SearchBody>(`/repos/search?${query}`, as(who));
    const names = (r: { body: SearchBody }) => r.body.data.map((x) => x.name);

    beforeAll(async () => {
      owner = await s.createUser();
      collab = await s.createUser();
      hiddenOwner = await s.createUser({ visibility: 'private' });
      pub = await newRepo(owner, { name: `${tag}-a-pub` });
      priv = await newRepo(owner, { name: `${tag}-b-priv`, private: true });
      tmpl = await newRepo(owner, { name: `${tag}-c-tmpl`, template: true });
      arch = await newRepo(owner, { name: `${tag}-d-arch` });
      expect((await s.client.patch(`/repos/${arch.full_name}`, { archived: true }, as(owner))).status).toBe(200);
      described = await newRepo(owner, { name: `${tag.toUpperCase()}-e-desc`, description: 'holds the word zebra' });
      otherPub = await newRepo(collab, { name: `${tag}-f-other` });
      collabPriv = await newRepo(collab, { name: `${tag}-g-collabpriv`, private: true });
      hiddenPub = await newRepo(hiddenOwner, { name: `${tag}-h-hidden` });
      await addCollaborator(priv, collab, 'read');
    });

    it('answers {ok, data} with X-Total-Count and only what anonymous callers may see', async () => {
      const r = await search(`q=${tag}`);
      expect(r.status).toBe(200);
      expect(r.body.ok).toBe(true);
      expect(names(r)).toEqual([pub.name, tmpl.name, arch.name, described.name, otherPub.name]);
      expect(r.headers.get('x-total-count')).toBe('5');
      for (const repo of r.body.data) expect(repo.permissions).toEqual(READ);
    });

    it('a stranger sees the same as anonymous; the collaborator and the owners see their private ones; admins see all', async () => {
      expect(names(await search(`q=${tag}`, stranger))).toEqual([pub.name, tmpl.name, arch.name, described.name, otherPub.name]);
      const c = await search(`q=${tag}`, collab);
      expect(names(c)).toEqual([pub.name, priv.name, tmpl.name, arch.name, described.name, otherPub.name, collabPriv.name]);
      expect(c.body.data.find((x) => x.id === priv.id)!.permissions).toEqual(READ);
      expect(c.body.data.find((x) => x.id === collabPriv.id)!.permissions).toEqual(OWNER);
      const o = await search(`q=${tag}`, owner);
      expect(names(o)).toEqual([pub.name, priv.name, tmpl.name, arch.name, described.name, otherPub.name]);
      const a = await search(`q=${tag}`, s.admin);
      expect(names(a)).toEqual([pub.name, priv.name, tmpl.name, arch.name, described.name, otherPub.name, collabPriv.name, hiddenPub.name]);
      expect(a.headers.get('x-total-count')).toBe('8');
      const h = await search(`q=${tag}`, hiddenOwner);
      expect(names(h)).toContain(hiddenPub.name);
    });

    it('private=false leaves out private repositories; is_private filters exactly', async () => {
      expect(names(await search(`q=${tag}&private=false`, collab))).toEqual([pub.name, tmpl.name, arch.name, described.name, otherPub.name]);
      expect(names(await search(`q=${tag}&is_private=true`, collab))).toEqual([priv.name, collabPriv.name]);
      expect(names(await search(`q=${tag}&is_private=false`, collab))).toEqual([pub.name, tmpl.name, arch.name, described.name, otherPub.name]);
      expect(names(await search(`q=${tag}&is_private=true`))).toEqual([]);
      expect(names(await search(`q=${tag}&is_private=true&private=false`, collab))).toEqual([]);
    });

    it('a public-only token never finds private repositories', async () => {
      const token = await s.createToken(collab.name, ['public-only', 'read:repository']);
      const r = await s.client.get<SearchBody>(`/repos/search?q=${tag}`, { token });
      expect(r.status).toBe(200);
      expect(names(r)).toEqual([pub.name, tmpl.name, arch.name, described.name, otherPub.name]);
    });

    it('q matches names case-insensitively; includeDesc also matches descriptions', async () => {
      expect(names(await search(`q=${tag.toUpperCase()}-A`))).toEqual([pub.name]);
      expect(names(await search('q=zebra'))).toEqual([]);
      expect(names(await search('q=ZEBRA&includeDesc=true'))).toEqual([described.name]);
    });

    it('uid: owned or collaborative; exclusive: owned; mode=collaborative: only collaborative', async () => {
      expect(names(await search(`q=${tag}&uid=${collab.id}`, collab))).toEqual([priv.name, otherPub.name, collabPriv.name]);
      expect(names(await search(`q=${tag}&uid=${collab.id}&exclusive=true`, collab))).toEqual([otherPub.name, collabPriv.name]);
      expect(names(await search(`q=${tag}&uid=${collab.id}&mode=collaborative`, collab))).toEqual([priv.name]);
      // Others still only see what they may see.
      expect(names(await search(`q=${tag}&uid=${collab.id}`, stranger))).toEqual([otherPub.name]);
      expect(names(await search(`q=${tag}&uid=${owner.id}&exclusive=true`))).toEqual([pub.name, tmpl.name, arch.name, described.name]);
    });

    it('mode fork and source', async () => {
      expect(names(await search(`q=${tag}&mode=fork`, owner))).toEqual([]);
      expect(names(await search(`q=${tag}&mode=source`, owner))).toEqual([pub.name, priv.name, tmpl.name, arch.name, described.name, otherPub.name]);
      expect(names(await search(`q=${tag}&mode=mirror`, owner))).toEqual([]);
    });

    it('template and archived filter both ways', async () => {
      expect(names(await search(`q=${tag}&template=true`))).toEqual([tmpl.name]);
      expect(names(await search(`q=${tag}&template=false`))).toEqual([pub.name, arch.name, described.name, otherPub.name]);
      expect(names(await search(`q=${tag}&archived=true`))).toEqual([arch.name]);
      expect(names(await search(`q=${tag}&archived=false`))).toEqual([pub.name, tmpl.name, described.name, otherPub.name]);
    });

    it('sort and order; priority_owner_id puts that owner first', async () => {
      expect(names(await search(`q=${tag}&sort=alpha&order=desc`))).toEqual([otherPub.name, described.name, arch.name, tmpl.name, pub.name]);
      expect(names(await search(`q=${tag}&sort=id&order=asc`))).toEqual([pub.name, tmpl.name, arch.name, described.name, otherPub.name]);
      expect(names(await search(`q=${tag}&sort=created`))).toEqual([pub.name, tmpl.name, arch.name, described.name, otherPub.name]);
      expect(names(await search(`q=${tag}&sort=id&order=desc`))).toEqual([otherPub.name, described.name, arch.name, tmpl.name, pub.name]);
      expect(names(await search(`q=${tag}&priority_owner_id=${collab.id}`))).toEqual([otherPub.name, pub.name, tmpl.name, arch.name, described.name]);
    });

    it.each([
      ['mode=bogus', 'Invalid search mode: "bogus"'],
      ['sort=bogus', 'Invalid sort mode: "bogus"'],
      ['sort=alpha&order=sideways', 'Invalid sort order: "sideways"'],
    ])('%s is 422', async (query, message) => {
      const r = await search(`q=${tag}&${query}`);
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err(message));
    });

    it('pages with limit (at most 50), X-Total-Count and Link', async () => {
      const many = await s.createUser();
      const prefix = uniqueName('many');
      for (let i = 0; i < 52; i += 4) {
        await Promise.all([0, 1, 2, 3].map((j) => newRepo(many, { name: `${prefix}-${String(i + j).padStart(2, '0')}` })));
      }
      const all = await search(`q=${prefix}&limit=100`);
      expect(all.status).toBe(200);
      expect(all.body.data).toHaveLength(50);
      expect(all.headers.get('x-total-count')).toBe('52');
      expect(all.body.data[0]!.name).toBe(`${prefix}-00`);
      const p2 = await search(`q=${prefix}&limit=50&page=2`);
      expect(names(p2)).toEqual([`${prefix}-50`, `${prefix}-51`]);
      const small = await search(`q=${prefix}&limit=5&page=3`);
      expect(names(small)).toEqual([10, 11, 12, 13, 14].map((n) => `${prefix}-${n}`));
      const link = small.headers.get('link')!;
      expect(link).toContain('rel="next"');
      expect(link).toContain('rel="prev"');
      expect(link).toContain('rel="last"');
      expect(link).toContain('page=4');
      expect(link).toContain('page=11');
      // Defaults: 30 per page.
      expect((await search(`q=${prefix}`)).body.data).toHaveLength(30);
    });
  });

  describe('userCurrentListRepos and userListRepos', () => {
    let owner: TestUser;
    let collab: TestUser;
    let pub: ApiRepo;
    let priv: ApiRepo;
    let shared: ApiRepo;
    let collabOwn: ApiRepo;
    beforeAll(async () => {
      owner = await s.createUser();
      collab = await s.createUser();
      pub = await newRepo(owner);
      priv = await newRepo(owner, { private: true });
      shared = await newRepo(owner, { private: true });
      collabOwn = await newRepo(collab);
      await addCollaborator(shared, collab, 'write');
    });

    it('userCurrentListRepos lists owned and collaborative repositories with permissions', async () => {
      const r = await s.client.get<ApiRepo[]>('/user/repos', as(collab));
      expect(r.status).toBe(200);
      expect(r.body.map((x) => x.id)).toEqual([shared.id, collabOwn.id]);
      expect(r.headers.get('x-total-count')).toBe('2');
      expect(r.body[0]!.permissions).toEqual(WRITE);
      expect(r.body[1]!.permissions).toEqual(OWNER);
      const mine = await s.client.get<ApiRepo[]>('/user/repos', as(owner));
      expect(mine.body.map((x) => x.id)).toEqual([pub.id, priv.id, shared.id]);
      const paged = await s.client.get<ApiRepo[]>('/user/repos?limit=1&page=2', as(owner));
      expect(paged.body.map((x) => x.id)).toEqual([priv.id]);
      expect(paged.headers.get('x-total-count')).toBe('3');
      expect(paged.headers.get('link')).toContain('rel="next"');
    });

    it('userCurrentListRepos needs sign-in', async () => {
      const r = await s.client.get('/user/repos');
      expect(r.status).toBe(401);
      expect(r.body).toEqual(err('token is required'));
    });

    it("userListRepos lists another user's repositories the caller may see", async () => {
      const anon = await s.client.get<ApiRepo[]>(`/users/${owner.name}/repos`);
      expect(anon.status).toBe(200);
      expect(anon.body.map((x) => x.id)).toEqual([pub.id]);
      expect(anon.headers.get('x-total-count')).toBe('1');
      expect(anon.body[0]!.permissions).toEqual(READ);
      expect((await s.client.get<ApiRepo[]>(`/users/${owner.name}/repos`, as(stranger))).body.map((x) => x.id)).toEqual([pub.id]);
      // Only owned repositories, plus the private one shared with the caller.
      const c = await s.client.get<ApiRepo[]>(`/users/${owner.name}/repos`, as(collab));
      expect(c.body.map((x) => x.id)).toEqual([pub.id, shared.id]);
      expect((await s.client.get<ApiRepo[]>(`/users/${collab.name}/repos`, as(collab))).body.map((x) => x.id)).toEqual([collabOwn.id]);
      for (const who of [owner, s.admin]) {
        const r = await s.client.get<ApiRepo[]>(`/users/${owner.name}/repos`, as(who));
        expect(r.body.map((x) => x.id)).toEqual([pub.id, priv.id, shared.id]);
      }
    });

    it('userListRepos of an unknown or invisible user is 404', async () => {
      const hidden = await s.createUser({ visibility: 'private' });
      await newRepo(hidden);
      for (const path of [`/users/${uniqueName('ghost')}/repos`, `/users/${hidden.name}/repos`]) {
        const r = await s.client.get(path, as(stranger));
        expect(r.status).toBe(404);
        expect(r.body).toEqual(err("The target couldn't be found."));
      }
    });
  });
});
