import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { AppError } from '../domain/errors.js';
import { DurationError, formatGoDuration, MIRROR_DEFAULT_INTERVAL_MS, parseMirrorInterval } from '../domain/duration.js';
import { AccessMode, DEFAULT_REPO_SETTINGS, repoNameProblem } from '../domain/repo.js';
import type { User } from '../domain/user.js';
import { isUniqueViolation } from '../db/index.js';
import * as mirrorsDb from '../db/mirrors.js';
import * as reposDb from '../db/repos.js';
import * as usersDb from '../db/users.js';
import * as orgsDb from '../db/orgs.js';
import { repositoryCreated } from './refevents.js';
import { openSecret, sealSecret } from '../events/seal.js';
import { cloneRemote, fetchRemote, headBranch, pinnedResolve, type RemoteTarget } from '../git/remote.js';
import { initBare, objectFormatOf } from '../git/repo.js';
import { GitError } from '../git/run.js';
import { checkUrlAllowed, migrationHostPolicy, normalizeIp, OutboundBlockedError, urlHost, type HostPolicy } from '../net/hostpolicy.js';
import { outboundRequest } from '../net/request.js';
import { unixNow, type ServiceDeps } from './context.js';
import type { RepoAccess, RepoService } from './repos.js';

/** The body of POST /repos/migrate, as the service needs it. */
export interface MigrateInput {
  readonly cloneAddr: string;
  readonly repoName: string;
  readonly repoOwner?: string | undefined;
  readonly uid?: number | undefined;
  readonly service?: string | undefined;
  readonly authUsername?: string | undefined;
  readonly authPassword?: string | undefined;
  readonly authToken?: string | undefined;
  readonly mirror?: boolean | undefined;
  readonly mirrorInterval?: string | undefined;
  readonly private?: boolean | undefined;
  readonly description?: string | undefined;
}

/** A remote target plus what messages may show: the address as given, and for git:// [pinned host, given host]. */
type Shown = RemoteTarget & { readonly shown: string; readonly hosts?: readonly [string, string] };

interface Credentials {
  readonly username: string;
  readonly password: string;
  readonly token: string;
}

/** Seconds without a heartbeat after which a repository "being migrated" is taken as abandoned by a dead process. */
const MIGRATION_STALE_SECONDS = 120;
const HEARTBEAT_MS = 20_000;
const SCHEDULER_TICK_MS = 30_000;
const PROBE_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;

const DISALLOWED = 'You can not import from disallowed hosts.';

/**
 * Repository migration (POST /repos/migrate) and pull mirrors (POST /repos/{o}/{r}/mirror-sync, periodic syncs).
 *
 * Migration states and durability: every check that can fail cheaply runs first (name, owner, address, host policy,
 * interval, a probe that follows and re-checks redirects) so that a refused request creates nothing and connects
 * nowhere it may not. Then the row is inserted with status 1 ("being migrated"): the name is taken (409 for a
 * concurrent create) and the state is visible to the API while git clones into a temporary directory. The clone
 * runs as a background job owned by this service; the request waits for it and answers 201 with the finished
 * repository like Gitea, but a client that gives up does not stop it. On failure the row and every directory are
 * removed: a failed migration leaves nothing, and the same name can be used again at once. While it runs the job
 * touches the row's updated_unix (a heartbeat); a row in status 1 whose heartbeat is older than two minutes belongs
 * to a process that died, and the sweep at start-up and on every scheduler tick removes it with its directories.
 */
export function createMigrationService(deps: ServiceDeps, repos: RepoService) {
  const { db, log } = deps;
  const policy: HostPolicy = migrationHostPolicy(deps.config.migrations);
  const root = deps.config.repository.root;
  /** Jobs in flight (migrations and syncs); close() aborts and awaits them. */
  const jobs = new Set<Promise<unknown>>();
  const aborter = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;
  let tickAgain = false;
  let stopped = false;
  let started = false;
  /** Repository ids of migrations running in this process. */
  const running = new Set<number>();

  function track<T>(p: Promise<T>): Promise<T> {
    jobs.add(p);
    void p.then(
      () => jobs.delete(p),
      () => jobs.delete(p),
    );
    return p;
  }

  /** Gitea's address rules, in its order. Returns the URL without credentials. */
  function parseAddress(raw: string): URL {
    const addr = raw.trim();
    // Messages echo the address: never with a user-info part, even one the URL parser could not make sense of
    // (everything up to the last `@`, as a password may hold `/`, `?` or `#`).
    const shown = addr.replace(/^([A-Za-z][A-Za-z0-9+.-]*:(?:\/\/)?).*@/su, '$1');
    const invalid = () => new AppError('validation', `migration/cloning from '${shown}' is not allowed: the provided url is invalid`);
    // Local paths (absolute, relative, file://): Gitea needs [security] IMPORT_LOCAL_PATHS, which Anvil never enables.
    if (addr === '' || addr.startsWith('/') || addr.startsWith('.') || /^file:/iu.test(addr) || !/^[A-Za-z][A-Za-z0-9+.-]*:/u.test(addr)) {
      throw new AppError('validation', 'You are not allowed to import local repositories.');
    }
    let url: URL;
    try {
      url = new URL(addr);
    } catch {
      throw invalid();
    }
    if (/%0[da]/iu.test(addr) || /[\r\n]/u.test(addr)) throw invalid();
    const scheme = url.protocol.slice(0, -1).toLowerCase();
    if (scheme !== 'http' && scheme !== 'https' && scheme !== 'git') {
      throw new AppError('validation', `migration/cloning from '${url.host || shown}' is not allowed: the provided url protocol is not allowed`);
    }
    if (url.hostname === '') throw invalid();
    // Credentials belong in auth_username/auth_password/auth_token, where they are kept out of URLs, logs and git config.
    if (url.username !== '' || url.password !== '') {
      throw new AppError('validation', `migration/cloning from '${url.host}' is not allowed: the url must not contain credentials; use auth_username, auth_password or auth_token`);
    }
    url.hash = '';
    return url;
  }

  const authHeaders = (c: Credentials): string[] => {
    if (c.token) return [`Authorization: Basic ${Buffer.from(`${c.username || 'oauth2'}:${c.token}`).toString('base64')}`];
    if (c.username || c.password) return [`Authorization: Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`];
    return [];
  };

  /**
   * Where git may connect for `url`: the host policy applied to every address the name resolves to; for http(s) a
   * probe of the smart-HTTP discovery URL that follows redirects itself (each hop re-checked, credentials dropped
   * when the origin changes) and hands git the final base URL, pinned to the checked addresses; for git:// the URL
   * rewritten to the checked address. Throws AppError (422) for refused hosts and failed authentication.
   */
  async function remoteTarget(url: URL, creds: Credentials, timeoutMs?: number): Promise<Shown> {
    const shown = url.toString();
    try {
      if (url.protocol === 'git:') {
        const addresses = await checkUrlAllowed(url, policy);
        const ip = addresses[0]!;
        const pinned = new URL(url);
        pinned.hostname = isIP(ip) === 6 ? `[${ip}]` : ip;
        return { url: pinned.toString(), shown, hosts: [pinned.hostname, url.hostname], ...(timeoutMs === undefined ? {} : { timeoutMs }) };
      }
      const headers = authHeaders(creds);
      // Names without their trailing dot, so the probe, the policy check and git's pinned lookup all see one name.
      const dotless = (u: URL): URL => {
        const h = u.hostname.replace(/\.+$/u, '');
        if (h !== u.hostname && h !== '' && !h.startsWith('[')) u.hostname = h;
        return u;
      };
      let base = dotless(new URL(url));
      const origin = base.origin;
      for (let hop = 0; ; hop++) {
        const probe = new URL(base);
        probe.pathname = `${base.pathname.replace(/\/+$/u, '')}/info/refs`;
        probe.search = '?service=git-upload-pack';
        const sameOrigin = probe.origin === origin;
        const auth: Record<string, string> = sameOrigin && headers.length ? { authorization: headers[0]!.slice('Authorization: '.length) } : {};
        const res = await outboundRequest(probe, {
          method: 'GET',
          headers: { ...auth, 'git-protocol': 'version=2', 'user-agent': 'git/anvil-migration' },
          timeoutMs: PROBE_TIMEOUT_MS,
          maxRedirects: 0,
          policy,
          maxResponseBytes: 1024,
        });
        if ([301, 302, 303, 307, 308].includes(res.status) && res.headers.location) {
          if (hop >= MAX_REDIRECTS) throw new AppError('validation', 'Migration failed: too many redirects.');
          const next = new URL(res.headers.location, probe);
          if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new AppError('validation', DISALLOWED);
          // As git does: the new base is the redirect target without the discovery suffix; anything else is refused.
          if (!next.pathname.endsWith('/info/refs')) throw new AppError('validation', 'Migration failed: unable to update url base from redirection.');
          next.pathname = next.pathname.slice(0, -'/info/refs'.length);
          next.search = '';
          next.username = '';
          next.password = '';
          base = dotless(next);
          continue;
        }
        if (res.status === 401 || res.status === 403) throw new AppError('validation', 'Authentication failed: the remote refused the credentials.');
        break;
      }
      const addresses = await checkUrlAllowed(base, policy);
      const host = urlHost(base);
      const port = base.port || (base.protocol === 'https:' ? '443' : '80');
      const resolve = isIP(normalizeIp(host)) !== 0 ? [] : pinnedResolve(host, port, addresses);
      // Credentials go to the final origin only when it is the one they were given for.
      return { url: base.toString(), shown, resolve, headers: base.origin === origin ? headers : [], ...(timeoutMs === undefined ? {} : { timeoutMs }) };
    } catch (e) {
      if (e instanceof OutboundBlockedError) throw new AppError('validation', DISALLOWED);
      if (e instanceof AppError) throw e;
      // Node's network errors name the address a host resolved to: only the code is shown.
      const code = (e as NodeJS.ErrnoException).code;
      throw new AppError('validation', `Migration failed: cannot reach ${url.host}${code ? ` (${code})` : ''}.`);
    }
  }

  /** Error text without credentials or the addresses names resolved to. */
  function redact(text: string, creds: Credentials, target?: Shown): string {
    let t = text;
    if (target && target.url !== target.shown) t = t.split(target.url).join(target.shown).split(target.url.replace(/\/$/u, '')).join(target.shown.replace(/\/$/u, ''));
    // git:// connects to the checked address; its messages must not show what the name resolved to.
    if (target?.hosts && target.hosts[0] !== target.hosts[1]) t = t.split(target.hosts[0]).join(target.hosts[1]);
    for (const secret of [creds.password, creds.token]) if (secret) t = t.split(secret).join('***');
    for (const h of authHeaders(creds)) t = t.split(h.slice('Authorization: Basic '.length)).join('***');
    return t.replace(/\/\/[^/@\s]*@/gu, '//').trim();
  }

  /** Gitea's migration error mapping (BEHAVIOUR 6.10 step 10). */
  function gitFailure(e: unknown, creds: Credentials, target: Shown): AppError {
    if (e instanceof AppError) return e;
    if (e instanceof GitError) {
      const lines = e.stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '');
      const fatal = lines.find((l) => l.startsWith('fatal:')) ?? lines[lines.length - 1] ?? e.message;
      const text = redact(fatal, creds, target);
      if (/Authentication failed|Bad credentials|could not read Username|could not read Password|HTTP 401|returned error: 40[13]/u.test(e.stderr)) {
        return new AppError('validation', `Authentication failed: ${text}.`);
      }
      if (e.reason === 'timeout') return new AppError('validation', 'Migration failed: the remote did not answer in time.');
      if (e.reason === 'aborted') return new AppError('unavailable', 'Migration failed: the server is shutting down.');
      return new AppError('validation', `Migration failed: ${text}.`);
    }
    return new AppError('internal', 'Migration failed.', { cause: e });
  }

  async function resolveOwner(doer: User, input: MigrateInput): Promise<User> {
    let owner: User | undefined;
    if (input.repoOwner) {
      owner = await usersDb.getUserByName(db, input.repoOwner);
      if (!owner) throw new AppError('validation', `user does not exist [uid: 0, name: ${input.repoOwner}]`);
    } else if (input.uid) {
      owner = await usersDb.getUserById(db, input.uid);
      if (!owner) throw new AppError('validation', `user does not exist [uid: ${input.uid}, name: ]`);
    } else owner = doer;
    if (!doer.isAdmin && owner.id !== doer.id) {
      if (!owner.isOrganization) throw new AppError('forbidden', 'Given user is not an organization.');
      if (!(await orgsDb.isOrgOwner(db, owner.id, doer.id))) throw new AppError('forbidden', 'Given user is not owner of organization.');
    }
    return owner;
  }

  /** POST /repos/migrate: clones a remote repository (optionally as a pull mirror) for `repo_owner` or the caller. */
  async function migrate(doer: User, input: MigrateInput): Promise<RepoAccess> {
    const problem = repoNameProblem(input.repoName);
    if (problem) throw new AppError('validation', problem);
    if ([...(input.description ?? '')].length > 2048) throw new AppError('validation', '[Description]: MaxSize');
    const owner = await resolveOwner(doer, input);
    const url = parseAddress(input.cloneAddr);
    let intervalSeconds = 0;
    if (input.mirror) {
      try {
        intervalSeconds = input.mirrorInterval?.trim() ? parseMirrorInterval(input.mirrorInterval) : MIRROR_DEFAULT_INTERVAL_MS / 1000;
      } catch (e) {
        if (e instanceof DurationError) throw new AppError('validation', e.message);
        throw e;
      }
    }
    const conflict = () => new AppError('conflict', 'The repository with the same name already exists.');
    if (await reposDb.getRepoByName(db, owner.id, input.repoName)) throw conflict();
    const creds: Credentials = { username: input.authUsername ?? '', password: input.authPassword ?? '', token: input.authToken ?? '' };
    // Host policy, DNS and redirects: before anything exists.
    const target = await remoteTarget(url, creds);

    const now = unixNow(deps);
    let id: number;
    try {
      id = await db.transaction().execute(async (trx) => {
        const newId = await reposDb.insertRepo(
          trx,
          owner.id,
          {
            name: input.repoName,
            description: input.description ?? '',
            originalUrl: url.toString(),
            defaultBranch: deps.config.repository.defaultBranch,
            objectFormatName: 'sha1',
            trustModel: 'default',
            isPrivate: input.private ?? false,
            isTemplate: false,
            isEmpty: true,
            isMirror: input.mirror ?? false,
            status: 1,
            numCommits: 0,
            settings: { ...DEFAULT_REPO_SETTINGS, mirrorInterval: input.mirror ? formatGoDuration(intervalSeconds * 1000) : '' },
          },
          now,
        );
        if (input.mirror) {
          await mirrorsDb.insertMirror(trx, {
            repoId: newId,
            intervalSeconds,
            enablePrune: true,
            nextUpdateUnix: intervalSeconds > 0 ? now + intervalSeconds : 0,
            updatedUnix: 0,
            remoteAddress: url.toString(),
            authUsername: creds.username,
            // Encrypted at rest under [security] SECRET_KEY, like webhook credentials.
            authPassword: sealSecret(deps.config.security.secretKey, creds.password),
            authToken: sealSecret(deps.config.security.secretKey, creds.token),
          });
        }
        await reposDb.deleteRepoRedirect(trx, owner.id, input.repoName.toLowerCase());
        await reposDb.refreshOwnerRepoCount(trx, owner.id);
        return newId;
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict();
      throw e;
    }
    running.add(id);
    try {
      await track(runMigration(id, owner, doer, target, creds));
    } finally {
      running.delete(id);
    }
    return { repo: (await reposDb.getRepoById(db, id))!, owner, mode: AccessMode.owner };
  }

  /** The background part of a migration: clone, move into place, mark ready; on failure remove everything. */
  async function runMigration(id: number, owner: User, doer: User, target: Shown, creds: Credentials): Promise<void> {
    await mkdir(join(root, '.tmp'), { recursive: true });
    const tmp = join(root, '.tmp', `${randomUUID()}.git`);
    const final = repos.repoPath(id);
    const heartbeat = setInterval(() => {
      void reposDb.updateRepo(db, id, { updatedUnix: unixNow(deps) }).catch(() => {});
    }, HEARTBEAT_MS);
    heartbeat.unref();
    try {
      // Meanwhile the repository is a valid empty one, so API reads of it answer like for any empty repository.
      await initBare(final, { defaultBranch: deps.config.repository.defaultBranch });
      try {
        await cloneRemoteAbortable(target, tmp);
      } catch (e) {
        throw gitFailure(e, creds, target);
      }
      const [format, head] = await Promise.all([objectFormatOf(tmp), headBranch(tmp)]);
      // Deleted by its owner while cloning: the clone goes, nothing is moved into place.
      if (!(await reposDb.getRepoById(db, id))) throw new AppError('validation', 'Migration failed: the repository was deleted meanwhile.');
      await deps.catFile.close(final);
      await rm(final, { recursive: true, force: true });
      await rename(tmp, final);
      const changes: reposDb.RepoFields = { objectFormatName: format };
      if (head) changes.defaultBranch = head;
      await reposDb.updateRepo(db, id, changes);
      const repo = (await reposDb.getRepoById(db, id))!;
      await repos.refreshAfterGitChange(repo);
      const now = unixNow(deps);
      if (repo.isMirror) {
        await mirrorsDb.recordMirrorSync(db, id, now, '');
        await reposDb.updateRepo(db, id, { settings: { ...repo.settings, mirrorUpdatedUnix: now } });
      }
      // Ready, and (as Gitea's migrate notifier does) a `repository created` event with the default hooks copied in.
      await db.transaction().execute(async (trx) => {
        await reposDb.updateRepo(trx, id, { status: 0 });
        await repositoryCreated(deps, trx, id, owner, doer);
      });
      deps.events.wake();
      await repos.ensureCreatorAdmin(owner, id, doer).catch((e: unknown) => log.warn('making the migrator an admin collaborator failed', { repoId: id, err: String(e) }));
    } catch (e) {
      await removeFailed(id, owner.id, tmp);
      throw e instanceof AppError ? e : gitFailure(e, creds, target);
    } finally {
      clearInterval(heartbeat);
    }
  }

  function cloneRemoteAbortable(target: RemoteTarget, dst: string): Promise<void> {
    if (aborter.signal.aborted) return Promise.reject(new AppError('unavailable', 'Migration failed: the server is shutting down.'));
    return cloneRemote({ ...target, signal: aborter.signal }, dst);
  }

  async function removeFailed(id: number, ownerId: number, tmp?: string): Promise<void> {
    if (tmp) await rm(tmp, { recursive: true, force: true }).catch(() => {});
    await db
      .transaction()
      .execute(async (trx) => {
        await reposDb.deleteRepoRow(trx, id);
        await reposDb.refreshOwnerRepoCount(trx, ownerId);
      })
      .catch((e: unknown) => log.warn('removing a failed migration failed', { repoId: id, err: String(e) }));
    await deps.catFile.close(repos.repoPath(id)).catch(() => {});
    await rm(repos.repoPath(id), { recursive: true, force: true }).catch(() => {});
  }

  /**
   * Removes migrations whose process died (no heartbeat for two minutes), row and directory; with `all`, every
   * migration not running in this process (at start on SQLite, where this is the only process).
   */
  async function sweepInterrupted(all = false): Promise<number> {
    const now = unixNow(deps);
    const stale = (await mirrorsDb.listStaleMigrations(db, all ? now + 1 : now - MIGRATION_STALE_SECONDS)).filter((r) => !running.has(r.id));
    for (const r of stale) {
      log.warn('removing an interrupted migration', { repoId: r.id });
      await removeFailed(r.id, r.ownerId);
    }
    return stale.length;
  }

  /** POST /repos/{o}/{r}/mirror-sync: queues a sync (durably) and wakes the scheduler; Gitea answers at once. */
  async function requestSync(access: RepoAccess): Promise<void> {
    // Gitea's reqRepoWriter(code) on this route.
    if (access.mode < AccessMode.write) throw new AppError('forbidden', 'user should have a permission to write to a repo');
    const m = access.repo.isMirror ? await mirrorsDb.getMirrorByRepoId(db, access.repo.id) : undefined;
    if (!m) throw new AppError('bad_request', 'Repository is not a mirror');
    await mirrorsDb.requestMirrorSync(db, access.repo.id);
    poke();
  }

  /** One sync of a mirror: re-checks the host policy, fetches with prune, refreshes what the API shows. */
  async function syncMirror(m: mirrorsDb.Mirror): Promise<void> {
    const repo = await reposDb.getRepoById(db, m.repoId);
    if (!repo || !repo.isMirror || repo.status !== 0) return;
    const key = deps.config.security.secretKey;
    const creds: Credentials = { username: m.authUsername, password: openSecret(key, m.authPassword), token: openSecret(key, m.authToken) };
    let target: Shown | undefined;
    try {
      target = await remoteTarget(new URL(m.remoteAddress), creds);
      await fetchRemote(repos.repoPath(repo.id), { ...target, signal: aborter.signal }, { prune: m.enablePrune });
      await repos.refreshAfterGitChange(repo);
      const now = unixNow(deps);
      await mirrorsDb.recordMirrorSync(db, repo.id, now, '');
      const fresh = await reposDb.getRepoById(db, repo.id);
      if (fresh) await reposDb.updateRepo(db, repo.id, { settings: { ...fresh.settings, mirrorUpdatedUnix: now } });
    } catch (e) {
      const err = target ? gitFailure(e, creds, target) : e instanceof AppError ? e : new AppError('internal', String(e));
      await mirrorsDb.recordMirrorSync(db, repo.id, unixNow(deps), err.message).catch(() => {});
      log.warn('mirror sync failed', { repoId: repo.id, err: err.message });
    }
  }

  /** Runs the requested and due syncs, one at a time (a fetch can be heavy; two cores). */
  async function runDue(): Promise<number> {
    let done = 0;
    for (;;) {
      if (stopped) return done;
      const now = unixNow(deps);
      const due = await mirrorsDb.listDueMirrors(db, now, 10);
      if (due.length === 0) return done;
      let claimed = 0;
      for (const m of due) {
        if (stopped) return done;
        const next = m.intervalSeconds > 0 ? now + m.intervalSeconds : 0;
        if (!(await mirrorsDb.claimMirror(db, m, next))) continue;
        claimed++;
        await track(syncMirror(m));
        done++;
      }
      if (claimed === 0) return done;
    }
  }

  async function tick(first = false): Promise<void> {
    try {
      // SQLite has one server process, so at start nothing can still be migrating; PostgreSQL deployments may run
      // several, so there only the heartbeat tells.
      await sweepInterrupted(first && deps.dialect === 'sqlite');
      await runDue();
    } catch (e) {
      if (!stopped) log.warn('mirror scheduler tick failed', { err: String(e) });
    }
  }

  /** Runs a tick now, or right after the one in progress. Resolves when the scheduler is idle. */
  function poke(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (ticking) {
      tickAgain = true;
      return ticking;
    }
    const first = !started;
    started = true;
    ticking = (async () => {
      let isFirst = first;
      do {
        tickAgain = false;
        await tick(isFirst);
        isFirst = false;
      } while (tickAgain && !stopped);
    })().finally(() => {
      ticking = undefined;
    });
    return ticking;
  }

  /** Starts the periodic scheduler (with a first sweep of interrupted migrations). */
  function start(): void {
    if (timer || stopped) return;
    timer = setInterval(() => void poke(), SCHEDULER_TICK_MS);
    timer.unref();
    void poke();
  }

  /** Stops the scheduler, aborts running git processes and waits until every job has cleaned up. */
  async function stop(): Promise<void> {
    stopped = true;
    if (timer) clearInterval(timer);
    timer = undefined;
    aborter.abort();
    await Promise.allSettled([...(ticking ? [ticking] : []), ...jobs]);
  }

  /** PATCH /repos/{o}/{r} with mirror_interval on a mirror (Gitea: 422 for bad text or below the minimum). */
  async function setInterval_(repoId: number, text: string): Promise<string> {
    let seconds: number;
    try {
      seconds = parseMirrorInterval(text);
    } catch (e) {
      if (e instanceof DurationError) throw new AppError('validation', e.message);
      throw e;
    }
    await mirrorsDb.updateMirrorSchedule(db, repoId, seconds, seconds > 0 ? unixNow(deps) + seconds : 0);
    return formatGoDuration(seconds * 1000);
  }

  return { migrate, requestSync, runDue, poke, start, stop, sweepInterrupted, setMirrorInterval: setInterval_ };
}

export type MigrationService = ReturnType<typeof createMigrationService>;
