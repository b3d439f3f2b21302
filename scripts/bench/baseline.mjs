// Baseline servers for the benchmark: the same lookups and the same JSON as Anvil's GET /user and
// GET /users/{name}, answered by (a) bare node:http + better-sqlite3 or (b) express with one catch-all handler.
// Usage: node baseline.mjs bare|express DB_PATH PORT ROOT_URL
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import express from 'express';

const [kind, dbPath, port, rootUrl] = process.argv.slice(2);
const db = new Database(dbPath, { readonly: true });
db.pragma('busy_timeout = 5000');
const byToken = db.prepare('select u.* from access_token t join user u on u.id = t.uid where t.token_hash = ?');
const byName = db.prepare('select * from user where lower_name = ?');
const iso = (unix) => new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
const toJson = (u, self) =>
  JSON.stringify({
    id: u.id, login: u.name, login_name: self ? u.login_name : '', source_id: self ? u.login_source : 0, full_name: u.full_name,
    email: self ? u.email : `${u.lower_name}@noreply.localhost`,
    avatar_url: `${rootUrl}avatars/${createHash('md5').update(u.email.toLowerCase()).digest('hex')}`, html_url: `${rootUrl}${u.name}`,
    language: self ? u.language : '', is_admin: self ? !!u.is_admin : false, last_login: self ? iso(u.last_login_unix) : '0001-01-01T00:00:00Z',
    created: iso(u.created_unix), restricted: !!u.is_restricted, active: self ? !!u.is_active : false, prohibit_login: self ? !!u.prohibit_login : false,
    location: u.location, website: u.website, description: u.description, visibility: ['public', 'limited', 'private'][u.visibility],
    followers_count: u.num_followers, following_count: u.num_following, starred_repos_count: u.num_stars,
  });
function answer(url, authorization, send) {
  if (url === '/api/v1/user') {
    const token = (authorization ?? '').replace(/^token /, '');
    const u = byToken.get(createHash('sha256').update(token).digest('hex'));
    return u ? send(200, toJson(u, true)) : send(401, '{"message":"unauthorized"}');
  }
  if (url.startsWith('/api/v1/users/')) {
    const u = byName.get(decodeURIComponent(url.slice(14)).toLowerCase());
    return u ? send(200, toJson(u, false)) : send(404, '{"message":"not found"}');
  }
  send(404, '{"message":"not found"}');
}
if (kind === 'bare') {
  createServer((req, res) =>
    answer(req.url, req.headers.authorization, (status, body) => {
      res.writeHead(status, { 'Content-Type': 'application/json;charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    }),
  ).listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
} else {
  const app = express();
  app.use((req, res) => answer(req.originalUrl, req.headers.authorization, (status, body) => res.status(status).type('application/json').send(body)));
  app.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
}
