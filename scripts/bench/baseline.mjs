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
const repoByName = db.prepare('select * from repository where owner_id = ? and lower_name = ?');
const DEFAULTS = { hasIssues: true, hasWiki: true, hasPullRequests: true, hasProjects: true, hasReleases: true, hasPackages: true, hasActions: false, ignoreWhitespaceConflicts: false, allowMergeCommits: true, allowRebase: true, allowRebaseExplicit: true, allowSquashMerge: true, allowFastForwardOnlyMerge: true, allowRebaseUpdate: true, defaultDeleteBranchAfterMerge: false, defaultMergeStyle: 'merge', defaultAllowMaintainerEdit: false, internalTracker: { enableTimeTracker: true, allowOnlyContributorsToTrackTime: true, enableIssueDependencies: true }, mirrorInterval: '' };
const repoJson = (r, owner) => {
  const s = { ...DEFAULTS, ...(r.settings ? JSON.parse(r.settings) : {}) };
  const full = `${owner.name}/${r.name}`;
  return JSON.stringify({
    id: r.id, owner: JSON.parse(toJson(owner, false)), name: r.name, full_name: full, description: r.description, empty: !!r.is_empty, private: !!r.is_private,
    fork: !!r.is_fork, template: !!r.is_template, mirror: !!r.is_mirror, size: Math.floor(r.size / 1024), language: '', languages_url: `${rootUrl}api/v1/repos/${full}/languages`,
    html_url: `${rootUrl}${full}`, url: `${rootUrl}api/v1/repos/${full}`, link: '', ssh_url: `git@127.0.0.1:${full}.git`, clone_url: `${rootUrl}${full}.git`, original_url: r.original_url,
    website: r.website, stars_count: r.num_stars, forks_count: r.num_forks, watchers_count: r.num_watches, open_issues_count: r.num_issues - r.num_closed_issues,
    open_pr_counter: r.num_pulls - r.num_closed_pulls, release_counter: r.num_releases, default_branch: r.default_branch, archived: !!r.is_archived,
    created_at: iso(r.created_unix), updated_at: iso(r.updated_unix), archived_at: iso(r.archived_unix), permissions: { admin: false, push: false, pull: true },
    has_issues: s.hasIssues, internal_tracker: { enable_time_tracker: s.internalTracker.enableTimeTracker, allow_only_contributors_to_track_time: s.internalTracker.allowOnlyContributorsToTrackTime, enable_issue_dependencies: s.internalTracker.enableIssueDependencies },
    has_wiki: s.hasWiki, has_pull_requests: s.hasPullRequests, has_projects: s.hasProjects, projects_mode: 'all', has_releases: s.hasReleases, has_packages: s.hasPackages, has_actions: s.hasActions,
    ignore_whitespace_conflicts: s.ignoreWhitespaceConflicts, allow_merge_commits: s.allowMergeCommits, allow_rebase: s.allowRebase, allow_rebase_explicit: s.allowRebaseExplicit,
    allow_squash_merge: s.allowSquashMerge, allow_fast_forward_only_merge: s.allowFastForwardOnlyMerge, allow_rebase_update: s.allowRebaseUpdate,
    default_delete_branch_after_merge: s.defaultDeleteBranchAfterMerge, default_merge_style: s.defaultMergeStyle, default_allow_maintainer_edit: s.defaultAllowMaintainerEdit,
    avatar_url: '', internal: false, mirror_interval: s.mirrorInterval, mirror_updated: '0001-01-01T00:00:00Z', object_format_name: r.object_format_name === 'sha256' ? 'sha256' : 'sha1',
  });
};
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
  if (url.startsWith('/api/v1/repos/')) {
    const [ownerName, repoName] = url.slice(14).split('/').map((s) => decodeURIComponent(s).toLowerCase());
    const owner = byName.get(ownerName);
    const r = owner && repoByName.get(owner.id, repoName);
    // Anonymous caller on a public repository of a public owner: what the benchmark requests.
    return r && !r.is_private && owner.visibility === 0 ? send(200, repoJson(r, owner)) : send(404, '{"message":"not found"}');
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
