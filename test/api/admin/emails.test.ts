import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';

/* adminGetAllEmails and adminSearchEmails (BEHAVIOUR.md 4.12, 3.2). */

interface ApiEmail {
  email: string;
  user_id: number;
  username: string;
  verified: boolean;
  primary: boolean;
}

describeDb('admin e-mails', () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let expected: ApiEmail[] = [];
  const secondary = `${uniqueName('Second')}@Second.Example.org`;
  const admin = () => ({ token: s.admin.token });

  const primaryOf = (u: TestUser): ApiEmail => ({ email: u.email, user_id: u.id, username: u.name, verified: true, primary: true });

  beforeAll(async () => {
    s = await startServer();
    alice = await s.createUser({ name: uniqueName('alice') });
    bob = await s.createUser({ name: uniqueName('bob') });
    const add = await s.client.post('/user/emails', { emails: [secondary] }, { token: alice.token });
    expect(add.status).toBe(201);
    carol = await s.createUser({ name: uniqueName('carol') });
    // In the order the addresses were added (Gitea lists by address id).
    expected = [
      primaryOf(s.admin),
      primaryOf(alice),
      primaryOf(bob),
      { email: secondary, user_id: alice.id, username: alice.name, verified: true, primary: false },
      primaryOf(carol),
    ];
  });
  afterAll(async () => s?.close());

  describe('adminGetAllEmails', () => {
    it("lists every user's addresses, primary and secondary", async () => {
      const r = await s.client.get<ApiEmail[]>('/admin/emails', admin());
      expect(r.status).toBe(200);
      expect(r.body).toEqual(expected);
      expect(r.headers.get('x-total-count')).toBe(String(expected.length));
      expect(r.headers.get('link')).toBeNull();
    });

    it('pages with page and limit (X-Total-Count, Link)', async () => {
      const base = `${s.url}/api/v1/admin/emails`;
      const p1 = await s.client.get<ApiEmail[]>('/admin/emails?limit=2', admin());
      expect(p1.status).toBe(200);
      expect(p1.body).toEqual(expected.slice(0, 2));
      expect(p1.headers.get('x-total-count')).toBe('5');
      expect(p1.headers.get('link')).toBe(`<${base}?limit=2&page=2>; rel="next",<${base}?limit=2&page=3>; rel="last"`);

      const p2 = await s.client.get<ApiEmail[]>('/admin/emails?page=2&limit=2', admin());
      expect(p2.body).toEqual(expected.slice(2, 4));
      expect(p2.headers.get('link')).toBe(
        `<${base}?limit=2&page=3>; rel="next",<${base}?limit=2&page=3>; rel="last",<${base}?limit=2&page=1>; rel="first",<${base}?limit=2&page=1>; rel="prev"`,
      );

      const p3 = await s.client.get<ApiEmail[]>('/admin/emails?page=3&limit=2', admin());
      expect(p3.body).toEqual(expected.slice(4));
      expect(p3.headers.get('link')).toBe(`<${base}?limit=2&page=1>; rel="first",<${base}?limit=2&page=2>; rel="prev"`);

      const p9 = await s.client.get<ApiEmail[]>('/admin/emails?page=9&limit=2', admin());
      expect(p9.status).toBe(200);
      expect(p9.body).toEqual([]);
      expect(p9.headers.get('x-total-count')).toBe('5');

      const p0 = await s.client.get<ApiEmail[]>('/admin/emails?page=0&limit=2', admin());
      expect(p0.body).toEqual(expected.slice(0, 2));
    });

    it('drops an address when it is deleted', async () => {
      const extra = `${uniqueName('gone')}@example.com`;
      expect((await s.client.post('/user/emails', { emails: [extra] }, { token: bob.token })).status).toBe(201);
      const withIt = await s.client.get<ApiEmail[]>('/admin/emails', admin());
      expect(withIt.body).toContainEqual({ email: extra, user_id: bob.id, username: bob.name, verified: true, primary: false });
      expect(withIt.headers.get('x-total-count')).toBe('6');
      expect((await s.client.delete('/user/emails', { token: bob.token, body: { emails: [extra] } })).status).toBe(204);
      const without = await s.client.get<ApiEmail[]>('/admin/emails', admin());
      expect(without.body).toEqual(expected);
      expect(without.headers.get('x-total-count')).toBe('5');
    });
  });

  describe('adminSearchEmails', () => {
    it('matches part of an address, case-insensitively', async () => {
      for (const q of ['second.example', 'SECOND.EXAMPLE.ORG', secondary]) {
        const r = await s.client.get<ApiEmail[]>(`/admin/emails/search?q=${encodeURIComponent(q)}`, admin());
        expect(r.status).toBe(200);
        expect(r.body).toEqual([expected[3]]);
        expect(r.headers.get('x-total-count')).toBe('1');
      }
    });

    it("matches the owner's user name too (all of that user's addresses)", async () => {
      const r = await s.client.get<ApiEmail[]>(`/admin/emails/search?q=${alice.name.toUpperCase()}`, admin());
      expect(r.status).toBe(200);
      expect(r.body).toEqual([expected[1], expected[3]]);
      expect(r.headers.get('x-total-count')).toBe('2');
    });

    it('returns an empty list when nothing matches', async () => {
      const r = await s.client.get<ApiEmail[]>(`/admin/emails/search?q=${uniqueName('nomatch')}`, admin());
      expect(r.status).toBe(200);
      expect(r.body).toEqual([]);
      expect(r.headers.get('x-total-count')).toBe('0');
      expect(r.headers.get('link')).toBeNull();
    });

    it('without q (or a blank one) lists everything', async () => {
      for (const path of ['/admin/emails/search', '/admin/emails/search?q=', '/admin/emails/search?q=%20%20']) {
        const r = await s.client.get<ApiEmail[]>(path, admin());
        expect(r.status).toBe(200);
        expect(r.body).toEqual(expected);
        expect(r.headers.get('x-total-count')).toBe('5');
      }
    });

    it('pages the matches and keeps q in the Link URLs', async () => {
      // "example" matches every address here (example.com and Second.Example.org).
      const base = `${s.url}/api/v1/admin/emails/search`;
      const p1 = await s.client.get<ApiEmail[]>('/admin/emails/search?q=example&limit=3', admin());
      expect(p1.body).toEqual(expected.slice(0, 3));
      expect(p1.headers.get('x-total-count')).toBe('5');
      expect(p1.headers.get('link')).toBe(`<${base}?limit=3&page=2&q=example>; rel="next",<${base}?limit=3&page=2&q=example>; rel="last"`);
      const p2 = await s.client.get<ApiEmail[]>('/admin/emails/search?q=example&limit=3&page=2', admin());
      expect(p2.body).toEqual(expected.slice(3));
      expect(p2.headers.get('link')).toBe(`<${base}?limit=3&page=1&q=example>; rel="first",<${base}?limit=3&page=1&q=example>; rel="prev"`);
    });
  });
});
