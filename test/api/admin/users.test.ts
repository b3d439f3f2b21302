import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer } from '../../helpers/server.js';
import { generateSshKey } from '../../helpers/sshkeys.js';

/* adminCreateUser, adminEditUser, adminDeleteUser, adminSearchUsers, adminRenameUser (BEHAVIOUR.md 4.2-4.8, 4.11). */

interface ApiUser {
  id: number;
  login: string;
  login_name: string;
  source_id: number;
  full_name: string;
  email: string;
  is_admin: boolean;
  active: boolean;
  prohibit_login: boolean;
  restricted: boolean;
  visibility: string;
  created: string;
  last_login: string;
  location: string;
  website: string;
  description: string;
  html_url: string;
}

const INVALID_NAME = (n: string) => `name is invalid [${n}]: must be valid alpha or numeric or dash(-_) or dot characters`;

describeDb('admin users', () => {
  let s: TestServer;
  const admin = () => ({ token: s.admin.token });
  const swagger = () => `${s.url}/api/swagger`;
  const err = (message: string) => ({ message, url: swagger() });

  /** Creates a user through the API (must_change_password off unless given) and returns the 201 body. */
  async function apiCreate(extra: Record<string, unknown> = {}): Promise<ApiUser & { password: string }> {
    const username = (extra.username as string | undefined) ?? uniqueName();
    const password = 'password-123';
    const r = await s.client.post<ApiUser>(
      '/admin/users',
      { username, email: `${username}@example.com`, password, must_change_password: false, ...extra },
      admin(),
    );
    expect(r.status).toBe(201);
    return { ...r.body, password };
  }

  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(async () => s?.close());

  describe('adminCreateUser', () => {
    it('creates an active local user and answers 201 with the admin view of it', async () => {
      const username = uniqueName('New');
      const before = Math.floor(Date.now() / 1000);
      const r = await s.client.post<ApiUser>(
        '/admin/users',
        { username, email: `${username}@Example.com`, password: 'password-123', full_name: 'New Person' },
        admin(),
      );
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        login: username,
        full_name: 'New Person',
        email: `${username}@Example.com`,
        is_admin: false,
        active: true,
        prohibit_login: false,
        restricted: false,
        visibility: 'public',
        login_name: '',
        source_id: 0,
        html_url: `${s.url}/${username}`,
        // Never signed in: Gitea renders last_login_unix 0 as the Unix epoch for privileged viewers.
        last_login: '1970-01-01T00:00:00Z',
      });
      expect(r.body.id).toBeGreaterThan(s.admin.id);
      const created = Date.parse(r.body.created) / 1000;
      expect(created).toBeGreaterThanOrEqual(before - 1);
      expect(created).toBeLessThanOrEqual(Date.now() / 1000 + 1);
      expect(r.body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

      const got = await s.client.get<ApiUser>(`/users/${username.toLowerCase()}`, admin());
      expect(got.status).toBe(200);
      expect(got.body).toEqual(r.body);
    });

    it('back-dates created_at', async () => {
      const u = await apiCreate({ created_at: '2020-01-02T03:04:05Z' });
      expect(u.created).toBe('2020-01-02T03:04:05Z');
      const got = await s.client.get<ApiUser>(`/users/${u.login}`, admin());
      expect(got.status).toBe(200);
      expect(got.body.created).toBe('2020-01-02T03:04:05Z');
      // An offset is converted to UTC.
      const v = await apiCreate({ created_at: '2019-06-30T23:30:00+02:00' });
      expect(v.created).toBe('2019-06-30T21:30:00Z');
    });

    it('refuses a created_at that is not a date-time with 422', async () => {
      const username = uniqueName();
      const r = await s.client.post('/admin/users', { username, email: `${username}@example.com`, password: 'password-123', created_at: 'yesterday' }, admin());
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err('[created_at]: must match format "date-time"'));
    });

    it('must_change_password defaults to true: the new user is held at the account gate (403, message only)', async () => {
      const username = uniqueName();
      const r = await s.client.post<ApiUser>('/admin/users', { username, email: `${username}@example.com`, password: 'password-123' }, admin());
      expect(r.status).toBe(201);
      const gate = { message: `You must change your password. Change it at: ${s.url}//user/change_password` };

      const token = await s.createToken(username, ['all']);
      const viaToken = await s.client.get('/user', { token });
      expect(viaToken.status).toBe(403);
      expect(viaToken.body).toEqual(gate);
      expect(Object.keys(viaToken.body as object)).toEqual(['message']);

      const viaBasic = await s.client.get('/user', { basic: [username, 'password-123'] });
      expect(viaBasic.status).toBe(403);
      expect(viaBasic.body).toEqual(gate);

      // Even public reads are refused while the flag is set.
      const other = await s.client.get(`/users/${s.admin.name}`, { token });
      expect(other.status).toBe(403);
      expect(other.body).toEqual(gate);

      // Clearing the flag (adminEditUser) lets the same token in.
      const edit = await s.client.patch('/admin/users/' + username, { source_id: 0, login_name: '', must_change_password: false }, admin());
      // login_name is required and may not be empty (Gitea's binding): the flag is not cleared by this request.
      expect(edit.status).toBe(422);
      expect(edit.body).toEqual(err('[login_name]: Required'));
      const still = await s.client.get('/user', { token });
      expect(still.status).toBe(403);
      expect(still.body).toEqual(gate);

      const cleared = await s.client.patch<ApiUser>('/admin/users/' + username, { source_id: 0, login_name: username, must_change_password: false }, admin());
      expect(cleared.status).toBe(200);
      const ok = await s.client.get<ApiUser>('/user', { token });
      expect(ok.status).toBe(200);
      expect(ok.body.login).toBe(username);
    });

    it('must_change_password=false: the new user can work at once', async () => {
      const u = await apiCreate({ must_change_password: false });
      const r = await s.client.get<ApiUser>('/user', { basic: [u.login, u.password] });
      expect(r.status).toBe(200);
      expect(r.body.login).toBe(u.login);
      expect(r.body.id).toBe(u.id);
    });

    it.each(['private', 'limited', 'public'])('sets visibility %s', async (visibility) => {
      const u = await apiCreate({ visibility });
      expect(u.visibility).toBe(visibility);
      const anon = await s.client.get<ApiUser>(`/users/${u.login}`);
      if (visibility === 'public') {
        expect(anon.status).toBe(200);
        expect(anon.body.visibility).toBe('public');
      } else {
        expect(anon.status).toBe(404);
        expect(anon.body).toEqual(err("The target couldn't be found."));
      }
    });

    it('refuses an unknown visibility with 422', async () => {
      const username = uniqueName();
      const r = await s.client.post('/admin/users', { username, email: `${username}@example.com`, password: 'password-123', visibility: 'secret' }, admin());
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err('[Visibility]: In'));
    });

    it('sets restricted', async () => {
      const u = await apiCreate({ restricted: true });
      expect(u.restricted).toBe(true);
      const v = await apiCreate({ restricted: false });
      expect(v.restricted).toBe(false);
    });

    it('ignores login_name for a local account (source_id 0)', async () => {
      const u = await apiCreate({ source_id: 0, login_name: 'external-login' });
      expect(u.source_id).toBe(0);
      expect(u.login_name).toBe('');
    });

    it.each([
      ['a space', 'bad name'],
      ['leading punctuation', '-lead'],
      ['trailing punctuation', 'trail.'],
      ['consecutive punctuation', 'a..b'],
      ['a slash', 'a/b'],
      ['non-ASCII letters', 'jürgen'],
      ['41 characters', 'a'.repeat(41)],
    ])('refuses a name with %s (422)', async (_what, name) => {
      const r = await s.client.post('/admin/users', { username: name, email: `${uniqueName()}@example.com`, password: 'password-123' }, admin());
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err(INVALID_NAME(name)));
    });

    it('accepts a name of exactly 40 characters', async () => {
      const name = `x${uniqueName()}`.padEnd(40, 'z');
      const u = await apiCreate({ username: name });
      expect(u.login).toBe(name);
    });

    it.each(['admin', 'Admin', 'api', 'explore', 'ghost', 'user', 'repo', 'favicon.ico', 'swagger.v1.json'])(
      'refuses the reserved name %s (422)',
      async (name) => {
        const r = await s.client.post('/admin/users', { username: name, email: `${uniqueName()}@example.com`, password: 'password-123' }, admin());
        expect(r.status).toBe(422);
        expect(r.body).toEqual(err(`name is reserved [name: ${name}]`));
      },
    );

    it.each(['.keys', '.gpg', '.rss', '.atom', '.png'])('refuses names ending in %s (422)', async (suffix) => {
      const name = `abc${suffix}`;
      const r = await s.client.post('/admin/users', { username: name, email: `${uniqueName()}@example.com`, password: 'password-123' }, admin());
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err(`name pattern is not allowed [pattern: *${suffix}]`));
    });

    it('refuses a taken name, case-insensitively (422)', async () => {
      const u = await apiCreate({ username: uniqueName('Case') });
      for (const name of [u.login, u.login.toLowerCase(), u.login.toUpperCase(), 'ROOT']) {
        const r = await s.client.post('/admin/users', { username: name, email: `${uniqueName()}@example.com`, password: 'password-123' }, admin());
        expect(r.status).toBe(422);
        expect(r.body).toEqual(err(`user already exists [name: ${name}]`));
      }
      const list = await s.client.get<ApiUser[]>('/admin/users?limit=50', admin());
      expect(list.body.filter((x) => x.login.toLowerCase() === u.login.toLowerCase())).toHaveLength(1);
    });

    it.each([
      ['no @', 'not-an-email', 'e-mail address contains unsupported character [email: not-an-email]'],
      ['a space', 'a b@example.com', 'e-mail address contains unsupported character [email: a b@example.com]'],
      ['a leading dash', '-a@example.com', 'e-mail invalid [email: -a@example.com]'],
      ['nothing before @', '@example.com', 'e-mail invalid [email: @example.com]'],
      ['nothing at all', '', 'e-mail invalid [email: ]'],
    ])('refuses an e-mail with %s (422)', async (_what, email, message) => {
      const username = uniqueName();
      const r = await s.client.post('/admin/users', { username, email, password: 'password-123' }, admin());
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err(message));
      const gone = await s.client.get(`/users/${username}`, admin());
      expect(gone.status).toBe(404);
    });

    it('refuses an e-mail already used by another user, case-insensitively (422)', async () => {
      const u = await apiCreate();
      for (const email of [u.email, u.email.toUpperCase(), s.admin.email]) {
        const username = uniqueName();
        const r = await s.client.post('/admin/users', { username, email, password: 'password-123' }, admin());
        expect(r.status).toBe(422);
        expect(r.body).toEqual(err(`e-mail already in use [email: ${email}]`));
        const gone = await s.client.get(`/users/${username}`, admin());
        expect(gone.status).toBe(404);
      }
    });

    it.each([
      ['too short', { password: 'short' }],
      ['7 characters', { password: '1234567' }],
      ['missing', {}],
      ['empty', { password: '' }],
    ])('refuses a password that is %s with 400 PasswordIsRequired', async (_what, pw) => {
      const username = uniqueName();
      const r = await s.client.post('/admin/users', { username, email: `${username}@example.com`, ...pw }, admin());
      expect(r.status).toBe(400);
      expect(r.body).toEqual(err('PasswordIsRequired'));
    });

    it('accepts a password of exactly MIN_PASSWORD_LENGTH (8) characters', async () => {
      const username = uniqueName();
      const r = await s.client.post<ApiUser>('/admin/users', { username, email: `${username}@example.com`, password: '12345678', must_change_password: false }, admin());
      expect(r.status).toBe(201);
      const me = await s.client.get<ApiUser>('/user', { basic: [username, '12345678'] });
      expect(me.status).toBe(200);
      expect(me.body.login).toBe(username);
    });

    it('refuses an unknown source_id with 422', async () => {
      const username = uniqueName();
      const r = await s.client.post('/admin/users', { username, email: `${username}@example.com`, password: 'password-123', source_id: 42, login_name: 'x' }, admin());
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err('login source does not exist [id: 42]'));
    });

    it('refuses a body without username or e-mail, naming the field (422)', async () => {
      const noName = await s.client.post('/admin/users', { email: `${uniqueName()}@example.com`, password: 'password-123' }, admin());
      expect(noName.status).toBe(422);
      expect(noName.body).toEqual(err('[username]: Required'));
      const noEmail = await s.client.post('/admin/users', { username: uniqueName(), password: 'password-123' }, admin());
      expect(noEmail.status).toBe(422);
      expect(noEmail.body).toEqual(err('[email]: Required'));
    });

    it('refuses a wrongly typed field (422) and malformed JSON without a 500', async () => {
      const typed = await s.client.post('/admin/users', { username: 12, email: `${uniqueName()}@example.com`, password: 'password-123' }, admin());
      expect(typed.status).toBe(422);
      expect(typed.body).toEqual(err('[username]: must be string'));
      const broken = await s.client.post('/admin/users', '{"username": ', admin());
      expect(broken.status).toBe(422);
      expect((broken.body as { message: string }).message).toMatch(/^invalid JSON body: /);
      expect((broken.body as { url: string }).url).toBe(swagger());
    });

    it('accepts field names in another case (Go decodes JSON case-insensitively)', async () => {
      const username = uniqueName();
      const r = await s.client.post<ApiUser>(
        '/admin/users',
        { UserName: username, Email: `${username}@example.com`, Password: 'password-123', Must_Change_Password: false },
        admin(),
      );
      expect(r.status).toBe(201);
      expect(r.body.login).toBe(username);
    });
  });

  describe('adminEditUser', () => {
    it('changes profile fields and flags, and keeps omitted ones', async () => {
      const u = await apiCreate({ full_name: 'Before' });
      const r = await s.client.patch<ApiUser>(
        `/admin/users/${u.login}`,
        {
          source_id: 0,
          login_name: u.login,
          full_name: 'After Name',
          website: 'https://example.org/me',
          location: 'Lisbon',
          description: 'about me',
          restricted: true,
          prohibit_login: false,
          active: true,
          allow_create_organization: false,
          max_repo_creation: 3,
        },
        admin(),
      );
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        id: u.id,
        login: u.login,
        login_name: u.login,
        source_id: 0,
        full_name: 'After Name',
        website: 'https://example.org/me',
        location: 'Lisbon',
        description: 'about me',
        restricted: true,
        active: true,
        prohibit_login: false,
        email: u.email,
        visibility: 'public',
        created: u.created,
      });
      // Persisted, as another read shows; fields not sent keep their value.
      const again = await s.client.patch<ApiUser>(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login }, admin());
      expect(again.status).toBe(200);
      expect(again.body).toEqual(r.body);
    });

    it('refuses an invalid website with 422', async () => {
      const u = await apiCreate();
      const r = await s.client.patch(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login, website: 'not a url' }, admin());
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err('[Website]: ValidUrl'));
    });

    it('requires login_name (422 naming the field), missing or empty', async () => {
      const u = await apiCreate();
      const missing = await s.client.patch(`/admin/users/${u.login}`, { source_id: 0, full_name: 'x' }, admin());
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual(err('[login_name]: Required'));
      const empty = await s.client.patch(`/admin/users/${u.login}`, { source_id: 0, login_name: '  ', full_name: 'x' }, admin());
      expect(empty.status).toBe(422);
      expect(empty.body).toEqual(err('[login_name]: Required'));
      const unchanged = await s.client.get<ApiUser>(`/users/${u.login}`, admin());
      expect(unchanged.body.full_name).toBe('');
    });

    it('accepts a body without source_id (Gitea treats it as 0)', async () => {
      const u = await apiCreate();
      const r = await s.client.patch<ApiUser>(`/admin/users/${u.login}`, { login_name: u.login, full_name: 'No Source' }, admin());
      expect(r.status).toBe(200);
      expect(r.body.full_name).toBe('No Source');
      expect(r.body.source_id).toBe(0);
    });

    it('refuses an unknown source_id with 422', async () => {
      const u = await apiCreate();
      const r = await s.client.patch(`/admin/users/${u.login}`, { source_id: 7, login_name: u.login }, admin());
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err('login source does not exist [id: 7]'));
    });

    it('changes the password: the new one signs in, the old one no longer does', async () => {
      const u = await apiCreate();
      const before = await s.client.get('/user', { basic: [u.login, u.password] });
      expect(before.status).toBe(200);
      const r = await s.client.patch<ApiUser>(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login, password: 'brand-new-pass' }, admin());
      expect(r.status).toBe(200);
      const ok = await s.client.get<ApiUser>('/user', { basic: [u.login, 'brand-new-pass'] });
      expect(ok.status).toBe(200);
      expect(ok.body.login).toBe(u.login);
      const old = await s.client.get('/user', { basic: [u.login, u.password] });
      expect(old.status).toBe(401);
      expect(old.body).toEqual(err(`user does not exist [uid: 0, name: ${u.login}]`));
    });

    it('an empty password leaves it unchanged; a short one is 400', async () => {
      const u = await apiCreate();
      const empty = await s.client.patch(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login, password: '' }, admin());
      expect(empty.status).toBe(200);
      const short = await s.client.patch(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login, password: 'short' }, admin());
      expect(short.status).toBe(400);
      expect(short.body).toEqual(err('password must be at least 8 characters'));
      const still = await s.client.get('/user', { basic: [u.login, u.password] });
      expect(still.status).toBe(200);
    });

    it('sets must_change_password: the user is then held at the gate', async () => {
      const u = await apiCreate();
      const r = await s.client.patch(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login, must_change_password: true }, admin());
      expect(r.status).toBe(200);
      const me = await s.client.get('/user', { basic: [u.login, u.password] });
      expect(me.status).toBe(403);
      expect(me.body).toEqual({ message: `You must change your password. Change it at: ${s.url}//user/change_password` });
    });

    it('prohibit_login and active=false lock the user out (403, message only)', async () => {
      const u = await apiCreate();
      const token = await s.createToken(u.login, ['all']);
      const locked = { message: 'This account is prohibited from signing in, please contact your site administrator.' };
      const p = await s.client.patch<ApiUser>(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login, prohibit_login: true }, admin());
      expect(p.status).toBe(200);
      expect(p.body.prohibit_login).toBe(true);
      const r1 = await s.client.get('/user', { token });
      expect(r1.status).toBe(403);
      expect(r1.body).toEqual(locked);
      await s.client.patch(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login, prohibit_login: false, active: false }, admin());
      const r2 = await s.client.get('/user', { token });
      expect(r2.status).toBe(403);
      expect(r2.body).toEqual(locked);
      const back = await s.client.patch<ApiUser>(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login, active: true }, admin());
      expect(back.body.active).toBe(true);
      const r3 = await s.client.get('/user', { token });
      expect(r3.status).toBe(200);
    });

    it('changes the primary e-mail', async () => {
      const u = await apiCreate();
      const email = `${uniqueName('mail')}@example.net`;
      const r = await s.client.patch<ApiUser>(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login, email }, admin());
      expect(r.status).toBe(200);
      expect(r.body.email).toBe(email);
      const emails = await s.client.get<Array<{ email: string; primary: boolean; user_id: number }>>(`/admin/emails/search?q=${u.login}`, admin());
      expect(emails.status).toBe(200);
      expect(emails.body.filter((e) => e.primary && e.user_id === u.id).map((e) => e.email)).toEqual([email]);
      // Signing in by e-mail uses the new address.
      const me = await s.client.get<ApiUser>('/user', { basic: [email, u.password] });
      expect(me.status).toBe(200);
      expect(me.body.login).toBe(u.login);
    });

    it("refuses another user's e-mail (400) and an invalid one (400)", async () => {
      const u = await apiCreate();
      const other = await apiCreate();
      const taken = await s.client.patch(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login, email: other.email.toUpperCase() }, admin());
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual(err(`e-mail already in use [email: ${other.email.toUpperCase()}]`));
      const bad = await s.client.patch(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login, email: 'nope' }, admin());
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual(err('e-mail address contains unsupported character [email: nope]'));
      const unchanged = await s.client.get<ApiUser>(`/users/${u.login}`, admin());
      expect(unchanged.body.email).toBe(u.email);
    });

    it('grants and removes site admin; the last admin cannot be demoted (400)', async () => {
      const u = await apiCreate();
      const token = await s.createToken(u.login, ['all']);
      const denied = await s.client.get('/admin/users', { token });
      expect(denied.status).toBe(403);

      const up = await s.client.patch<ApiUser>(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login, admin: true }, admin());
      expect(up.status).toBe(200);
      expect(up.body.is_admin).toBe(true);
      const allowed = await s.client.get<ApiUser[]>('/admin/users', { token });
      expect(allowed.status).toBe(200);
      expect(allowed.body.map((x) => x.login)).toContain(u.login);

      const down = await s.client.patch<ApiUser>(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login, admin: false }, admin());
      expect(down.status).toBe(200);
      expect(down.body.is_admin).toBe(false);
      const deniedAgain = await s.client.get('/admin/users', { token });
      expect(deniedAgain.status).toBe(403);
      expect(deniedAgain.body).toEqual(err('user should be the site admin'));

      // root is now the only administrator.
      const last = await s.client.patch('/admin/users/root', { source_id: 0, login_name: 'root', admin: false }, admin());
      expect(last.status).toBe(400);
      expect(last.body).toEqual(err(`can not delete the last admin user [uid: ${s.admin.id}]`));
      const rootStill = await s.client.get<ApiUser>('/user', admin());
      expect(rootStill.body.is_admin).toBe(true);
    });

    it('changes visibility, including back to public', async () => {
      const u = await apiCreate();
      const priv = await s.client.patch<ApiUser>(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login, visibility: 'private' }, admin());
      expect(priv.status).toBe(200);
      expect(priv.body.visibility).toBe('private');
      const hidden = await s.client.get(`/users/${u.login}`);
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(err("The target couldn't be found."));
      const lim = await s.client.patch<ApiUser>(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login, visibility: 'limited' }, admin());
      expect(lim.body.visibility).toBe('limited');
      // Gitea 1.22 ignores "public" here (go-gitea/gitea#35030); Anvil applies it.
      const pub = await s.client.patch<ApiUser>(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login, visibility: 'public' }, admin());
      expect(pub.status).toBe(200);
      expect(pub.body.visibility).toBe('public');
      const seen = await s.client.get<ApiUser>(`/users/${u.login}`);
      expect(seen.status).toBe(200);
      expect(seen.body.login).toBe(u.login);
      const bad = await s.client.patch(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login, visibility: 'hidden' }, admin());
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual(err('[Visibility]: In'));
    });

    it('is 404 for an unknown user', async () => {
      const r = await s.client.patch('/admin/users/' + uniqueName('ghostly'), { source_id: 0, login_name: 'x' }, admin());
      expect(r.status).toBe(404);
      expect(r.body).toEqual(err("The target couldn't be found."));
    });

    it('finds the user case-insensitively', async () => {
      const u = await apiCreate({ username: uniqueName('Mixed') });
      const r = await s.client.patch<ApiUser>(`/admin/users/${u.login.toUpperCase()}`, { source_id: 0, login_name: 'l', full_name: 'Upper' }, admin());
      expect(r.status).toBe(200);
      expect(r.body.login).toBe(u.login);
      expect(r.body.full_name).toBe('Upper');
    });
  });

  describe('adminDeleteUser', () => {
    it('deletes the user (204) with their tokens, keys and e-mail addresses', async () => {
      const u = await apiCreate();
      const token = await s.createToken(u.login, ['all']);
      const key = generateSshKey('ed25519');
      const k = await s.client.post(`/admin/users/${u.login}/keys`, { title: 'k', key: key.line }, admin());
      expect(k.status).toBe(201);

      const r = await s.client.delete(`/admin/users/${u.login}`, admin());
      expect(r.status).toBe(204);
      expect(r.text).toBe('');

      const gone = await s.client.get(`/users/${u.login}`, admin());
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual(err("The target couldn't be found."));
      const byToken = await s.client.get('/user', { token });
      expect(byToken.status).toBe(401);
      expect(byToken.body).toEqual(err('user does not exist [uid: 0, name: ]'));
      const byPassword = await s.client.get('/user', { basic: [u.login, u.password] });
      expect(byPassword.status).toBe(401);
      expect(byPassword.body).toEqual(err(`user does not exist [uid: 0, name: ${u.login}]`));
      const emails = await s.client.get<unknown[]>(`/admin/emails/search?q=${u.login}`, admin());
      expect(emails.status).toBe(200);
      expect(emails.body).toEqual([]);

      // The key and the address are free again: another user may register them.
      const other = await apiCreate({ email: u.email });
      const again = await s.client.post<{ fingerprint: string }>(`/admin/users/${other.login}/keys`, { title: 'k', key: key.line }, admin());
      expect(again.status).toBe(201);
      expect(again.body.fingerprint).toBe(key.fingerprint);
    });

    it('is 404 for an unknown user', async () => {
      const r = await s.client.delete(`/admin/users/${uniqueName('nope')}`, admin());
      expect(r.status).toBe(404);
      expect(r.body).toEqual(err("The target couldn't be found."));
    });

    it('refuses to delete yourself (422)', async () => {
      const r = await s.client.delete('/admin/users/root', admin());
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err('you cannot delete yourself'));
      const still = await s.client.get<ApiUser>('/user', admin());
      expect(still.status).toBe(200);
      expect(still.body.login).toBe('root');
    });

    it('accepts purge=true and purge=false', async () => {
      for (const purge of ['true', 'false']) {
        const u = await apiCreate();
        const r = await s.client.delete(`/admin/users/${u.login}?purge=${purge}`, admin());
        expect(r.status).toBe(204);
        const gone = await s.client.get(`/users/${u.login}`, admin());
        expect(gone.status).toBe(404);
      }
    });

    it('deletes another administrator', async () => {
      const u = await apiCreate();
      await s.client.patch(`/admin/users/${u.login}`, { source_id: 0, login_name: u.login, admin: true }, admin());
      const r = await s.client.delete(`/admin/users/${u.login}`, admin());
      expect(r.status).toBe(204);
      const gone = await s.client.get(`/users/${u.login}`, admin());
      expect(gone.status).toBe(404);
    });

    it('removes the user from the follow lists of others', async () => {
      const u = await apiCreate();
      const fan = await s.createUser();
      const f = await s.client.put(`/user/following/${u.login}`, undefined, { token: fan.token });
      expect(f.status).toBe(204);
      const r = await s.client.delete(`/admin/users/${u.login}`, admin());
      expect(r.status).toBe(204);
      const following = await s.client.get<unknown[]>('/user/following', { token: fan.token });
      expect(following.status).toBe(200);
      expect(following.body).toEqual([]);
      const me = await s.client.get<{ following_count: number }>('/user', { token: fan.token });
      expect(me.body.following_count).toBe(0);
    });
  });

  describe('adminSearchUsers', () => {
    let all: ApiUser[] = [];
    let total = 0;

    beforeAll(async () => {
      // Names chosen so that case-insensitive and case-sensitive orders differ.
      for (const prefix of ['Zed', 'alpha', 'Beta', 'gamma']) await apiCreate({ username: uniqueName(prefix) });
      // Enough users for the 50-item cap.
      for (let i = 0; i < 50; i++) await s.createUser();
      const first = await s.client.get<ApiUser[]>('/admin/users?limit=50', admin());
      total = Number(first.headers.get('x-total-count'));
      const pages = Math.ceil(total / 50);
      all = [...first.body];
      for (let p = 2; p <= pages; p++) {
        const r = await s.client.get<ApiUser[]>(`/admin/users?limit=50&page=${p}`, admin());
        all.push(...r.body);
      }
    }, 60_000);

    it('lists every individual user, alphabetically (case-insensitive), in the admin view', async () => {
      expect(total).toBeGreaterThan(54);
      expect(all).toHaveLength(total);
      const logins = all.map((u) => u.login);
      expect(new Set(logins).size).toBe(logins.length);
      expect(logins).toEqual([...logins].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0)));
      const root = all.find((u) => u.login === 'root')!;
      expect(root.is_admin).toBe(true);
      expect(root.email).toBe(s.admin.email);
      // Every listed user is rendered for an administrator: private fields are filled.
      const created = all.find((u) => u.login.startsWith('Zed'))!;
      expect(created.active).toBe(true);
      expect(created.last_login).toBe('1970-01-01T00:00:00Z');
    });

    it('pages with page and limit and sets X-Total-Count and Link', async () => {
      const limit = 7;
      const last = Math.ceil(total / limit);
      const base = `${s.url}/api/v1/admin/users`;
      const p1 = await s.client.get<ApiUser[]>(`/admin/users?limit=${limit}`, admin());
      expect(p1.status).toBe(200);
      expect(p1.headers.get('x-total-count')).toBe(String(total));
      expect(p1.body.map((u) => u.login)).toEqual(all.slice(0, limit).map((u) => u.login));
      expect(p1.headers.get('link')).toBe(`<${base}?limit=${limit}&page=2>; rel="next",<${base}?limit=${limit}&page=${last}>; rel="last"`);

      const p2 = await s.client.get<ApiUser[]>(`/admin/users?page=2&limit=${limit}`, admin());
      expect(p2.body.map((u) => u.login)).toEqual(all.slice(limit, 2 * limit).map((u) => u.login));
      expect(p2.headers.get('x-total-count')).toBe(String(total));
      expect(p2.headers.get('link')).toBe(
        [
          `<${base}?limit=${limit}&page=3>; rel="next"`,
          `<${base}?limit=${limit}&page=${last}>; rel="last"`,
          `<${base}?limit=${limit}&page=1>; rel="first"`,
          `<${base}?limit=${limit}&page=1>; rel="prev"`,
        ].join(','),
      );

      const pl = await s.client.get<ApiUser[]>(`/admin/users?page=${last}&limit=${limit}`, admin());
      expect(pl.body.map((u) => u.login)).toEqual(all.slice((last - 1) * limit).map((u) => u.login));
      expect(pl.headers.get('link')).toBe(`<${base}?limit=${limit}&page=1>; rel="first",<${base}?limit=${limit}&page=${last - 1}>; rel="prev"`);

      const beyond = await s.client.get<ApiUser[]>(`/admin/users?page=${last + 5}&limit=${limit}`, admin());
      expect(beyond.status).toBe(200);
      expect(beyond.body).toEqual([]);
      expect(beyond.headers.get('x-total-count')).toBe(String(total));
    });

    it('treats page 0 or negative as 1, limit 0 as the default (30) and clamps limit to 50', async () => {
      for (const q of ['page=0&limit=3', 'page=-2&limit=3']) {
        const r = await s.client.get<ApiUser[]>(`/admin/users?${q}`, admin());
        expect(r.body.map((u) => u.login)).toEqual(all.slice(0, 3).map((u) => u.login));
      }
      const dflt = await s.client.get<ApiUser[]>('/admin/users', admin());
      expect(dflt.body).toHaveLength(30);
      const zero = await s.client.get<ApiUser[]>('/admin/users?limit=0', admin());
      expect(zero.body).toHaveLength(30);
      const big = await s.client.get<ApiUser[]>('/admin/users?limit=1000', admin());
      expect(big.body).toHaveLength(50);
      expect(big.body.map((u) => u.login)).toEqual(all.slice(0, 50).map((u) => u.login));
    });

    it('keeps other query parameters in the Link URLs', async () => {
      const r = await s.client.get('/admin/users?source_id=0&limit=40', admin());
      const base = `${s.url}/api/v1/admin/users`;
      expect(r.headers.get('link')).toBe(`<${base}?limit=40&page=2&source_id=0>; rel="next",<${base}?limit=40&page=${Math.ceil(total / 40)}&source_id=0>; rel="last"`);
    });

    it('filters by login_name and source_id', async () => {
      const u = await apiCreate();
      const loginName = uniqueName('ext');
      const e = await s.client.patch(`/admin/users/${u.login}`, { source_id: 0, login_name: loginName }, admin());
      expect(e.status).toBe(200);
      const r = await s.client.get<ApiUser[]>(`/admin/users?login_name=${loginName}`, admin());
      expect(r.status).toBe(200);
      expect(r.body.map((x) => [x.login, x.login_name])).toEqual([[u.login, loginName]]);
      expect(r.headers.get('x-total-count')).toBe('1');
      expect(r.headers.get('link')).toBeNull();
      const none = await s.client.get<ApiUser[]>(`/admin/users?login_name=${uniqueName('none')}`, admin());
      expect(none.body).toEqual([]);
      expect(none.headers.get('x-total-count')).toBe('0');
      const src = await s.client.get<ApiUser[]>('/admin/users?source_id=5', admin());
      expect(src.body).toEqual([]);
      expect(src.headers.get('x-total-count')).toBe('0');
    });
  });

  describe('adminRenameUser', () => {
    it('renames (204); the old name redirects (307) to the new one', async () => {
      const u = await apiCreate();
      const token = await s.createToken(u.login, ['all']);
      const to = uniqueName('Renamed');
      const r = await s.client.post(`/admin/users/${u.login}/rename`, { new_username: to }, admin());
      expect(r.status).toBe(204);
      expect(r.text).toBe('');

      const now = await s.client.get<ApiUser>(`/users/${to}`, admin());
      expect(now.status).toBe(200);
      expect(now.body.id).toBe(u.id);
      expect(now.body.login).toBe(to);
      expect(now.body.html_url).toBe(`${s.url}/${to}`);

      const old = await s.client.get(`/users/${u.login}`, admin());
      expect(old.status).toBe(307);
      expect(old.headers.get('location')).toBe(`/api/v1/users/${to}`);
      expect(old.body).toEqual(err('moved permanently'));
      const oldAnon = await s.client.get(`/users/${u.login}`);
      expect(oldAnon.status).toBe(307);
      expect(oldAnon.headers.get('location')).toBe(`/api/v1/users/${to}`);

      // The user's token keeps working under the new name; password sign-in uses the new name.
      const me = await s.client.get<ApiUser>('/user', { token });
      expect(me.body.login).toBe(to);
      const basic = await s.client.get<ApiUser>('/user', { basic: [to, u.password] });
      expect(basic.status).toBe(200);
    });

    it('a new account may take the old name, which then stops redirecting', async () => {
      const u = await apiCreate();
      const to = uniqueName('moved');
      expect((await s.client.post(`/admin/users/${u.login}/rename`, { new_username: to }, admin())).status).toBe(204);
      const taker = await apiCreate({ username: u.login, email: `${uniqueName()}@example.com` });
      const r = await s.client.get<ApiUser>(`/users/${u.login}`, admin());
      expect(r.status).toBe(200);
      expect(r.body.id).toBe(taker.id);
      expect(r.body.id).not.toBe(u.id);
    });

    it('allows a change of case only', async () => {
      const u = await apiCreate({ username: uniqueName('lower') });
      const upper = u.login.toUpperCase();
      const r = await s.client.post(`/admin/users/${u.login}/rename`, { new_username: upper }, admin());
      expect(r.status).toBe(204);
      const got = await s.client.get<ApiUser>(`/users/${u.login}`, admin());
      expect(got.status).toBe(200);
      expect(got.body.login).toBe(upper);
      expect(got.body.id).toBe(u.id);
    });

    it('refuses a taken name, case-insensitively (422)', async () => {
      const u = await apiCreate();
      const other = await apiCreate();
      for (const name of [other.login, other.login.toUpperCase(), 'Root']) {
        const r = await s.client.post(`/admin/users/${u.login}/rename`, { new_username: name }, admin());
        expect(r.status).toBe(422);
        expect(r.body).toEqual(err(`user already exists [name: ${name}]`));
      }
      const still = await s.client.get<ApiUser>(`/users/${u.login}`, admin());
      expect(still.status).toBe(200);
      expect(still.body.login).toBe(u.login);
    });

    it('refuses reserved, patterned and invalid names (422)', async () => {
      const u = await apiCreate();
      const cases: Array<[string, string]> = [
        ['admin', 'name is reserved [name: admin]'],
        ['Explore', 'name is reserved [name: Explore]'],
        ['me.rss', 'name pattern is not allowed [pattern: *.rss]'],
        ['bad name', INVALID_NAME('bad name')],
        ['x--y', INVALID_NAME('x--y')],
        ['', INVALID_NAME('')],
      ];
      for (const [name, message] of cases) {
        const r = await s.client.post(`/admin/users/${u.login}/rename`, { new_username: name }, admin());
        expect(r.status).toBe(422);
        expect(r.body).toEqual(err(message));
      }
      const still = await s.client.get<ApiUser>(`/users/${u.login}`, admin());
      expect(still.body.login).toBe(u.login);
    });

    it('requires new_username (422 naming the field)', async () => {
      const u = await apiCreate();
      const r = await s.client.post(`/admin/users/${u.login}/rename`, {}, admin());
      expect(r.status).toBe(422);
      expect(r.body).toEqual(err('[new_username]: Required'));
    });

    it('is 404 for an unknown user', async () => {
      const r = await s.client.post(`/admin/users/${uniqueName('nobody')}/rename`, { new_username: uniqueName() }, admin());
      expect(r.status).toBe(404);
      expect(r.body).toEqual(err("The target couldn't be found."));
    });
  });
});
