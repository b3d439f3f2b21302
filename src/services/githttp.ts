import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../domain/errors.js';
import { AccessMode } from '../domain/repo.js';
import { missingScopes } from '../domain/scopes.js';
import type { Actor } from '../domain/user.js';
import { join } from 'node:path';
import { BRANCH_RULES_ENV, writeHooks } from '../git/hooks.js';
import { advertiseRefs, serviceRpc, type GitService } from '../git/smarthttp.js';
import { PACK_CACHE_ENV, sweepPackCache, writePackObjectsHook } from '../git/packcache.js';
import type { ServiceDeps } from './context.js';
import type { RefUpdate } from '../git/pushinfo.js';
import { hasActiveHooks, refEvents, watchRefs, type RefEmitter } from './refevents.js';
import type { ProtectionService } from './protections.js';
import type { RepoAccess, RepoService } from './repos.js';

/** git clone/fetch/push over smart HTTP: who may do what, and what a push changes in the database. */
export function createGitHttpService(deps: ServiceDeps, repos: RepoService, protections: ProtectionService) {
  // Our hooks live under the app data path, written once per process (on first need) and shared by every push.
  let hooks: Promise<string> | undefined;
  const hooksDir = (): Promise<string> => {
    hooks ??= writeHooks(join(deps.config.server.appDataPath, 'hooks'), process.execPath).catch((e: unknown) => {
      hooks = undefined;
      throw e;
    });
    return hooks;
  };

  // The pack-objects cache hook (git/packcache.ts), written once per process like the hooks above.
  let packHook: Promise<string> | undefined;
  const packObjectsHook = (): Promise<string> => {
    packHook ??= writePackObjectsHook(join(deps.config.server.appDataPath, 'hooks')).catch((e: unknown) => {
      packHook = undefined;
      throw e;
    });
    return packHook;
  };
  const sweeping = new Set<number>();
  /** After a clone or fetch: keeps the repository's pack cache within its bounds (one sweep at a time). */
  function sweepPacks(repoId: number): void {
    if (sweeping.has(repoId)) return;
    sweeping.add(repoId);
    sweepPackCache(repos.packCacheDir(repoId), { maxEntries: 16, maxBytes: deps.config.repository.packCacheMaxBytes })
      .catch((e: unknown) => deps.log.warn('pack cache sweep failed', { repoId, err: String(e) }))
      .finally(() => sweeping.delete(repoId));
  }

  /**
   * Resolves the repository for a git client and checks the right to run `service`. Anonymous callers
   * who may not proceed get 401 (git then asks for credentials); signed-in callers get 404 for what they
   * cannot see, so a private repository and a missing one look the same.
   */
  async function authorize(owner: string, repo: string, service: GitService, actor: Actor): Promise<RepoAccess> {
    const write = service === 'git-receive-pack';
    let access: RepoAccess;
    try {
      // git clients are served a renamed repository under its old name (no redirect to follow).
      access = await repos.resolve(owner, repo, actor, { followRedirect: true });
    } catch (e) {
      if (!actor.user && e instanceof AppError && e.kind === 'not_found') throw new AppError('unauthorized', 'authentication required');
      throw e;
    }
    if (actor.scopes) {
      const missing = missingScopes(actor.scopes, ['repository'], write ? 'write' : 'read');
      if (missing.length) throw new AppError('forbidden', `token does not have at least one of required scope(s): [${missing.join(', ')}]`);
    }
    // A migration in progress has no git directory yet (the clone is moved into place when it completes).
    if (access.repo.status === 1) throw new AppError('forbidden', 'repository is being migrated');
    if (write) {
      if (!actor.user) throw new AppError('unauthorized', 'authentication required');
      if (access.mode < AccessMode.write) throw new AppError('forbidden', 'User permission denied');
      if (access.repo.isArchived) throw new AppError('forbidden', 'repo is archived');
      if (access.repo.isMirror) throw new AppError('forbidden', 'mirror repository is read-only');
    }
    return access;
  }

  const advertise = (access: RepoAccess, service: GitService, protocol: string | undefined, res: ServerResponse) =>
    advertiseRefs(repos.repoPath(access.repo.id), service, protocol, res);

  async function rpc(access: RepoAccess, service: GitService, protocol: string | undefined, actor: Actor, req: IncomingMessage, res: ServerResponse) {
    // Webhooks: the refs before the push, compared with those after it (only when a hook could want the events).
    const watch =
      service === 'git-receive-pack' && actor.user && (await hasActiveHooks(deps, access))
        ? await watchRefs(repos.repoPath(access.repo.id)).catch((e: unknown) => {
            deps.log.warn('reading refs before a push failed; its webhooks are skipped', { repoId: access.repo.id, err: String(e) });
            return null;
          })
        : null;
    // The post-push update runs before the response ends, so that once `git push` returns the API shows it.
    const beforeEnd =
      service === 'git-receive-pack'
        ? async (code: number | null) => {
            if (code !== 0) return;
            await afterPush(access, actor, watch).catch((e: unknown) => deps.log.error('post-push update failed', { repoId: access.repo.id, err: String(e) }));
          }
        : undefined;
    // Branch protection: the pre-receive hook applies the rules computed here for this pusher; without
    // rules no hook runs at all.
    const rules = service === 'git-receive-pack' ? await protections.hookRules(access, actor) : [];
    const env: Record<string, string> = { ANVIL_PUSHER_ID: String(actor.user?.id ?? 0), ANVIL_REPO_ID: String(access.repo.id) };
    let config: Record<string, string> | undefined;
    if (rules.length) {
      env[BRANCH_RULES_ENV] = JSON.stringify(rules);
      config = { 'core.hooksPath': await hooksDir() };
    }
    if (service === 'git-upload-pack' && deps.config.repository.packCacheMaxBytes > 0) {
      config = { ...config, 'uploadpack.packObjectsHook': await packObjectsHook() };
      env[PACK_CACHE_ENV] = repos.packCacheDir(access.repo.id);
      const result = await serviceRpc(repos.repoPath(access.repo.id), service, req, res, protocol, env, { config });
      sweepPacks(access.repo.id);
      return result;
    }
    return serviceRpc(repos.repoPath(access.repo.id), service, req, res, protocol, env, { beforeEnd, ...(config ? { config } : {}) });
  }

  /** After a push: the repository row follows what is on disk now (see RepoService.refreshAfterGitChange). */
  async function afterPush(access: RepoAccess, actor: Actor, watch: (() => Promise<RefUpdate[]>) | null): Promise<void> {
    if (!watch || !actor.user) return repos.refreshAfterGitChange(access.repo);
    // The push's events are written in the transaction that records the push (the outbox).
    let emit: RefEmitter | undefined;
    try {
      emit = await refEvents(deps, repos.repoPath(access.repo.id), access, actor.user, await watch());
    } catch (e) {
      // The push happened; the repository row must follow it even when its events cannot be built.
      deps.log.warn('building push webhooks failed', { repoId: access.repo.id, err: String(e) });
    }
    return repos.refreshAfterGitChange(access.repo, emit);
  }

  return { authorize, advertise, rpc };
}

export type GitHttpService = ReturnType<typeof createGitHttpService>;
