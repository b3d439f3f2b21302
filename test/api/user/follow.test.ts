import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { describeDb, startServer, type TestServer, type TestUser } from '../../helpers/server.js';

describeDb('follows', () => {
  let s: TestServer;
  let err: (message: string) => { message: string; url: string };
  const notFound = () => err("The target couldn't be found.");
  const logins = (r: { body: { login: string }[] }) => r.body.map((u) => u.login);
  const counts = async (u: TestUser) => {
    const r = await s.client.get(`/users/${u.name}`, { token: s.admin.token });
    expect(r.status).toBe(200);
    return { followers: r.body.followers_count as number, following: r.body.following_count as number };
  };

  beforeAll(async () => {
    s = await startServer();
    err = (message) => ({ message, url: `${s.url}/api/swagger` });
  });
  afterAll(async () => s?.close());

  describe('following and unfollowing', () => {
    let alice: TestUser;
    let bob: TestUser;
    let carol: TestUser;

    beforeAll(async () => {
      alice = await s.createUser();
      bob = await s.createUser();
      carol = await s.createUser();
    });

    it('userCurrentPutFollow answers 204 and updates both counters', async () => {
      const r = await s.client.put(`/user/following/${bob.name}`, undefined, { token: alice.token });
      expect(r.status).toBe(204);
      expect(r.text).toBe('');
      expect(await counts(alice)).toEqual({ followers: 0, following: 1 });
      expect(await counts(bob)).toEqual({ followers: 1, following: 0 });
      // The caller's own User JSON shows it too.
      const me = await s.client.get('/user', { token: alice.token });
      expect(me.body).toMatchObject({ followers_count: 0, following_count: 1 });
    });

    it('following twice changes nothing', async () => {
      const r = await s.client.put(`/user/following/${bob.name}`, undefined, { token: alice.token });
      expect(r.status).toBe(204);
      expect(await counts(bob)).toEqual({ followers: 1, following: 0 });
    });

    it('following oneself is accepted and changes nothing', async () => {
      const r = await s.client.put(`/user/following/${alice.name}`, undefined, { token: alice.token });
      expect(r.status).toBe(204);
      expect(await counts(alice)).toEqual({ followers: 0, following: 1 });
      const check = await s.client.get(`/user/following/${alice.name}`, { token: alice.token });
      expect(check.status).toBe(404);
      expect(check.body).toEqual(notFound());
    });

    it('userCurrentCheckFollowing is 204 when following and 404 otherwise', async () => {
      const yes = await s.client.get(`/user/following/${bob.name}`, { token: alice.token });
      expect(yes.status).toBe(204);
      expect(yes.text).toBe('');
      const no = await s.client.get(`/user/following/${alice.name}`, { token: bob.token });
      expect(no.status).toBe(404);
      expect(no.body).toEqual(notFound());
      const unknown = await s.client.get('/user/following/no-such-user-f', { token: alice.token });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual(notFound());
    });

    it('userCheckFollowing is 204 when the first follows the second and 404 otherwise', async () => {
      const yes = await s.client.get(`/users/${alice.name}/following/${bob.name}`, { token: carol.token });
      expect(yes.status).toBe(204);
      expect(yes.text).toBe('');
      const no = await s.client.get(`/users/${bob.name}/following/${alice.name}`, { token: carol.token });
      expect(no.status).toBe(404);
      expect(no.body).toEqual(notFound());
      for (const path of [`/users/no-such-user-f/following/${bob.name}`, `/users/${alice.name}/following/no-such-user-f`]) {
        const r = await s.client.get(path, { token: carol.token });
        expect(r.status).toBe(404);
        expect(r.body).toEqual(notFound());
      }
    });

    it('the lists show both directions, as User JSON seen by the viewer', async () => {
      expect((await s.client.put(`/user/following/${bob.name}`, undefined, { token: carol.token })).status).toBe(204);

      const followers = await s.client.get('/user/followers', { token: bob.token });
      expect(followers.status).toBe(200);
      // Newest first.
      expect(logins(followers)).toEqual([carol.name, alice.name]);
      expect(followers.headers.get('x-total-count')).toBe('2');
      expect(followers.body[1]).toMatchObject({ id: alice.id, email: alice.email, following_count: 1, is_admin: false, last_login: '0001-01-01T00:00:00Z' });

      const following = await s.client.get('/user/following', { token: alice.token });
      expect(following.status).toBe(200);
      expect(logins(following)).toEqual([bob.name]);
      expect(following.headers.get('x-total-count')).toBe('1');

      const theirFollowers = await s.client.get(`/users/${bob.name}/followers`, { token: alice.token });
      expect(theirFollowers.status).toBe(200);
      expect(logins(theirFollowers)).toEqual([carol.name, alice.name]);
      expect(theirFollowers.headers.get('x-total-count')).toBe('2');

      const theirFollowing = await s.client.get(`/users/${carol.name}/following`, { token: alice.token });
      expect(theirFollowing.status).toBe(200);
      expect(logins(theirFollowing)).toEqual([bob.name]);

      const empty = await s.client.get(`/users/${carol.name}/followers`, { token: alice.token });
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual([]);
      expect(empty.headers.get('x-total-count')).toBe('0');
    });

    it('userCurrentDeleteFollow answers 204 and updates the counters; unfollowing again is 204 too', async () => {
      const r = await s.client.delete(`/user/following/${bob.name}`, { token: alice.token });
      expect(r.status).toBe(204);
      expect(r.text).toBe('');
      expect(await counts(alice)).toEqual({ followers: 0, following: 0 });
      expect(await counts(bob)).toEqual({ followers: 1, following: 0 });
      const check = await s.client.get(`/user/following/${bob.name}`, { token: alice.token });
      expect(check.status).toBe(404);
      expect(check.body).toEqual(notFound());
      const again = await s.client.delete(`/user/following/${bob.name}`, { token: alice.token });
      expect(again.status).toBe(204);
      expect(await counts(bob)).toEqual({ followers: 1, following: 0 });
      expect(logins(await s.client.get('/user/followers', { token: bob.token }))).toEqual([carol.name]);
    });

    it('following or unfollowing an unknown user is 404', async () => {
      for (const r of [
        await s.client.put('/user/following/no-such-user-f', undefined, { token: alice.token }),
        await s.client.delete('/user/following/no-such-user-f', { token: alice.token }),
        await s.client.get('/users/no-such-user-f/followers', { token: alice.token }),
        await s.client.get('/users/no-such-user-f/following', { token: alice.token }),
      ]) {
        expect(r.status).toBe(404);
        expect(r.body).toEqual(notFound());
      }
    });

    it('every follow route is 401 for anonymous callers', async () => {
      const calls = [
        s.client.get('/user/followers'),
        s.client.get('/user/following'),
        s.client.get(`/user/following/${bob.name}`),
        s.client.put(`/user/following/${bob.name}`),
        s.client.delete(`/user/following/${bob.name}`),
        s.client.get(`/users/${bob.name}/followers`),
        s.client.get(`/users/${bob.name}/following`),
        s.client.get(`/users/${carol.name}/following/${bob.name}`),
      ];
      for (const r of await Promise.all(calls)) {
        expect(r.status).toBe(401);
        expect(r.body).toEqual(err('token is required'));
      }
      expect(await counts(bob)).toEqual({ followers: 1, following: 0 });
    });

    it('following needs write:user, listing read:user', async () => {
      const read = await s.createToken(alice.name, ['read:user']);
      const put = await s.client.put(`/user/following/${carol.name}`, undefined, { token: read });
      expect(put.status).toBe(403);
      expect(put.body).toEqual(err('token does not have at least one of required scope(s), required=[write:user], token scope=read:user'));
      const del = await s.client.delete(`/user/following/${bob.name}`, { token: read });
      expect(del.status).toBe(403);
      expect(del.body).toEqual(err('token does not have at least one of required scope(s), required=[write:user], token scope=read:user'));
      expect((await s.client.get('/user/following', { token: read })).status).toBe(200);
      const none = await s.createToken(alice.name, ['read:repository']);
      const list = await s.client.get(`/users/${bob.name}/followers`, { token: none });
      expect(list.status).toBe(403);
      expect(list.body).toEqual(err('token does not have at least one of required scope(s), required=[read:user], token scope=read:repository'));
      expect(await counts(carol)).toEqual({ followers: 0, following: 1 });
    });
  });

  describe('visibility', () => {
    let hidden: TestUser;
    let limited: TestUser;
    let target: TestUser;
    let stranger: TestUser;

    beforeAll(async () => {
      hidden = await s.createUser({ visibility: 'private' });
      limited = await s.createUser({ visibility: 'limited' });
      target = await s.createUser();
      stranger = await s.createUser();
    });

    it('following a private user one cannot see is 404 and follows nobody', async () => {
      const r = await s.client.put(`/user/following/${hidden.name}`, undefined, { token: stranger.token });
      expect(r.status).toBe(404);
      expect(r.body).toEqual(notFound());
      expect(await counts(hidden)).toEqual({ followers: 0, following: 0 });
      expect(await counts(stranger)).toEqual({ followers: 0, following: 0 });
      for (const path of [`/user/following/${hidden.name}`, `/users/${hidden.name}/followers`, `/users/${hidden.name}/following`, `/users/${hidden.name}/following/${target.name}`]) {
        const c = await s.client.get(path, { token: stranger.token });
        expect(c.status).toBe(404);
        expect(c.body).toEqual(notFound());
      }
    });

    it('a site administrator may follow a private user', async () => {
      const r = await s.client.put(`/user/following/${hidden.name}`, undefined, { token: s.admin.token });
      expect(r.status).toBe(204);
      expect(await counts(hidden)).toEqual({ followers: 1, following: 0 });
      const list = await s.client.get(`/users/${hidden.name}/followers`, { token: s.admin.token });
      expect(list.status).toBe(200);
      expect(logins(list)).toEqual(['root']);
      expect((await s.client.delete(`/user/following/${hidden.name}`, { token: s.admin.token })).status).toBe(204);
      expect(await counts(hidden)).toEqual({ followers: 0, following: 0 });
    });

    it('lists leave out followers the viewer may not see; X-Total-Count agrees', async () => {
      for (const u of [hidden, limited, stranger]) {
        expect((await s.client.put(`/user/following/${target.name}`, undefined, { token: u.token })).status).toBe(204);
      }
      expect(await counts(target)).toEqual({ followers: 3, following: 0 });

      const asStranger = await s.client.get(`/users/${target.name}/followers`, { token: stranger.token });
      expect(asStranger.status).toBe(200);
      expect(logins(asStranger)).toEqual([stranger.name, limited.name]);
      expect(asStranger.headers.get('x-total-count')).toBe('2');

      const asAdmin = await s.client.get(`/users/${target.name}/followers`, { token: s.admin.token });
      expect(logins(asAdmin)).toEqual([stranger.name, limited.name, hidden.name]);
      expect(asAdmin.headers.get('x-total-count')).toBe('3');

      const restricted = await s.createUser({ restricted: true });
      const asRestricted = await s.client.get(`/users/${target.name}/followers`, { token: restricted.token });
      expect(logins(asRestricted)).toEqual([stranger.name]);
      expect(asRestricted.headers.get('x-total-count')).toBe('1');
    });

    it('a private user sees themself in the lists', async () => {
      const r = await s.client.get(`/users/${target.name}/followers`, { token: hidden.token });
      expect(r.status).toBe(200);
      expect(logins(r)).toEqual([stranger.name, limited.name, hidden.name]);
      expect(r.headers.get('x-total-count')).toBe('3');
      const mine = await s.client.get('/user/following', { token: hidden.token });
      expect(logins(mine)).toEqual([target.name]);
    });

    it('a user sees a private user who follows them (Gitea: followers see each other)', async () => {
      const r = await s.client.get('/user/followers', { token: target.token });
      expect(r.status).toBe(200);
      expect(logins(r)).toEqual([stranger.name, limited.name, hidden.name]);
      expect(r.headers.get('x-total-count')).toBe('3');
    });

    it('a private user who follows the viewer can be looked up and followed back by them, not by others', async () => {
      const seen = await s.client.get(`/users/${hidden.name}`, { token: target.token });
      expect(seen.status).toBe(200);
      expect(seen.body).toMatchObject({ login: hidden.name, visibility: 'private', email: hidden.email, is_admin: false });
      const back = await s.client.put(`/user/following/${hidden.name}`, undefined, { token: target.token });
      expect(back.status).toBe(204);
      expect(await counts(hidden)).toEqual({ followers: 1, following: 1 });
      const other = await s.client.get(`/users/${hidden.name}`, { token: stranger.token });
      expect(other.status).toBe(404);
      expect(other.body).toEqual(notFound());
      const anon = await s.client.get(`/users/${hidden.name}`);
      expect(anon.status).toBe(404);
      expect(anon.body).toEqual(notFound());
    });
  });

  describe('paging', () => {
    let star: TestUser;
    const fans: TestUser[] = [];

    // 52 accounts (a password hash each): more than jest's default five seconds on a busy machine.
    beforeAll(async () => {
      star = await s.createUser();
      for (let i = 0; i < 52; i++) fans.push(await s.createUser());
      for (const f of fans) expect((await s.client.put(`/user/following/${star.name}`, undefined, { token: f.token })).status).toBe(204);
    }, 60_000);

    it('defaults to 30 per page, clamps limit to 50 and treats page 0 as 1', async () => {
      const newestFirst = [...fans].reverse().map((f) => f.name);
      const dflt = await s.client.get('/user/followers', { token: star.token });
      expect(dflt.status).toBe(200);
      expect(logins(dflt)).toEqual(newestFirst.slice(0, 30));
      expect(dflt.headers.get('x-total-count')).toBe('52');

      const big = await s.client.get('/user/followers?limit=500', { token: star.token });
      expect(logins(big)).toEqual(newestFirst.slice(0, 50));

      const second = await s.client.get('/user/followers?limit=50&page=2', { token: star.token });
      expect(logins(second)).toEqual(newestFirst.slice(50));

      const zero = await s.client.get(`/users/${star.name}/followers?limit=5&page=0`, { token: fans[0]!.token });
      expect(logins(zero)).toEqual(newestFirst.slice(0, 5));
      const third = await s.client.get(`/users/${star.name}/followers?limit=5&page=3`, { token: fans[0]!.token });
      expect(logins(third)).toEqual(newestFirst.slice(10, 15));
      expect(third.headers.get('x-total-count')).toBe('52');

      const beyond = await s.client.get(`/users/${star.name}/followers?limit=5&page=99`, { token: fans[0]!.token });
      expect(beyond.status).toBe(200);
      expect(beyond.body).toEqual([]);

      expect(await counts(star)).toEqual({ followers: 52, following: 0 });
      const f = await s.client.get(`/users/${fans[0]!.name}/following?page=0&limit=0`, { token: star.token });
      expect(logins(f)).toEqual([star.name]);
    });
  });
});
