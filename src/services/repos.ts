import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, notFound } from '../domain/errors.js';
import { AccessMode, DEFAULT_REPO_SETTINGS, repoNameProblem, type RepoSettings, type RepoWithOwner, type Repository } from '../domain/repo.js';
import { canSeeUser, type Actor, type User } from '../domain/user.js';
import { isUniqueViolation, type Db } from '../db/index.js';
import * as reposDb from '../db/repos.js';
import * as usersDb from '../db/users.js';
import * as transfersDb from '../db/transfers.js';
import * as mirrorsDb from '../db/mirrors.js';
import { DurationError, formatGoDuration, parseMirrorInterval } from '../domain/duration.js';
import * as orgsDb from '../db/orgs.js';
import * as socialDb from '../db/social.js';
import { canSeeOrg, type Team } from '../domain/org.js';
import { branchRef, isValidBranchName } from '../git/refs.js';
import { commitFiles, countCommits, initBare, repoSizeBytes, resolveFullRef, setHead, supportsSha256, writeCommitGraph } from '../git/repo.js';
import { listBranches } from '../git/branches.js';
import { getGitignore, getLabelTemplate, getLicense } from '../templates/index.js';
import { unixNow, type ServiceDeps } from './context.js';
import type { Paging } from './paging.js';
import { repositoryCreated } from './refevents.js';

export interface CreateRepoInput {
  readonly name: string;
  readonly description?: string | undefined;
  readonly private?: boolean | undefined;
  readonly autoInit?: boolean | undefined;
  readonly gitignores?: string | undefined;
  readonly license?: string | undefined;
  readonly readme?: string | undefined;
  readonly issueLabels?: string | undefined;
  readonly defaultBranch?: string | undefined;
  readonly template?: boolean | undefined;
  readonly trustModel?: string | undefined;
  readonly objectFormatName?: string | undefined;
}

export interface EditRepoInput {
  readonly name?: string | undefined;
  readonly description?: string | undefined;
  readonly website?: string | undefined;
  readonly private?: boolean | undefined;
  readonly template?: boolean | undefined;
  readonly archived?: boolean | undefined;
  readonly defaultBranch?: string | undefined;
  readonly settings?: Partial<RepoSettings>;
  /** Mirrors only: remove branches and tags gone from the remote at each sync. */
  readonly enablePrune?: boolean | undefined;
}

/** A repository the caller may see, with the caller's access mode on it. */
export interface RepoAccess extends RepoWithOwner {
  readonly mode: number;
  /** The pending transfer while the repository has one (Gitea's repo_transfer in the Repository JSON). */
  readonly transfer?: { readonly doer: User; readonly recipient: User; readonly teams?: readonly Team[] } | undefined;
}

/** The query of GET /repos/search, as clients send it. */
export interface RepoSearchQuery {
  readonly q?: string | undefined;
  readonly topic?: boolean | undefined;
  readonly includeDesc?: boolean | undefined;
  readonly uid?: number | undefined;
  readonly priorityOwnerId?: number | undefined;
  readonly starredBy?: number | undefined;
  readonly private?: boolean | undefined;
  readonly isPrivate?: boolean | undefined;
  readonly template?: boolean | undefined;
  readonly archived?: boolean | undefined;
  readonly mode?: string | undefined;
  readonly exclusive?: boolean | undefined;
  readonly sort?: string | undefined;
  readonly order?: string | undefined;
}

const SEARCH_SORTS = {
  alpha: 'alpha',
  created: 'created',
  updated: 'updated',
  size: 'size',
  git_size: 'size',
  lfs_size: 'size',
  id: 'id',
  stars: 'stars',
  forks: 'forks',
} as const;
const SEARCH_MODES = ['', 'fork', 'source', 'mirror', 'collaborative'];

const TRUST_MODELS = ['default', 'collaborator', 'committer', 'collaboratorcommitter'];

export function createRepoService(deps: ServiceDeps) {
  const { db, config } = deps;
  const root = config.repository.root;

  /** Repositories live on disk by id, so renames of owners and repositories never move directories. */
  const repoPath = (id: number) => join(root, `${id}.git`);
  /** Cached clone/fetch packs of a repository (git/packcache.ts), outside the repository itself. */
  const packCacheDir = (id: number) => join(config.server.appDataPath, 'pack-cache', String(id));

  /**
   * The caller's access mode (Gitea's perm.AccessMode): owner and site admins 4, collaborators their mode,
   * on organization repositories the best of the caller's teams that have the repository, public 1.
   */
  async function accessMode(repo: Repository, owner: User, user: User | null): Promise<number> {
    if (!user || user.id === owner.id || user.isAdmin) return modeFrom(repo, owner, user, 0);
    const collab = await reposDb.getCollaboratorMode(db, repo.id, user.id);
    if (!owner.isOrganization) return modeFrom(repo, owner, user, collab);
    const [member, teams] = await Promise.all([
      orgsDb.isOrgMember(db, owner.id, user.id),
      orgsDb.teamsCoveringRepos(db, user.id, [{ id: repo.id, ownerId: owner.id }]),
    ]);
    return modeFrom(repo, owner, user, collab, { member, team: teamMode(teams.get(repo.id)) });
  }

  /**
   * What a user's teams give on one repository (Gitea 1.22): a team with admin or owner mode makes the
   * member repository owner; otherwise the team's mode on the code unit (our single access mode follows
   * the code unit, which is what `permissions.push/pull` report).
   */
  function teamMode(teams: readonly { mode: number; units: Record<string, number> }[] | undefined): number {
    let best: number = AccessMode.none;
    for (const t of teams ?? []) {
      if (t.mode >= AccessMode.admin) return AccessMode.owner;
      // A code unit at admin in a team below admin is write: repository admin comes only from the team mode
      // (Gitea's Permission.IsAdmin looks at the team's access mode, not at unit modes).
      best = Math.max(best, Math.min(t.units['repo.code'] ?? AccessMode.none, AccessMode.write));
    }
    return best;
  }

  /**
   * The access rule itself, given the caller's collaborator mode (0 when none) and, for organization
   * repositories, whether the caller is a member and what their teams give.
   */
  function modeFrom(repo: Repository, owner: User, user: User | null, collab: number, org?: { member: boolean; team: number }): number {
    if (user && (user.id === owner.id || user.isAdmin)) return AccessMode.owner;
    const ownerVisible = owner.isOrganization ? canSeeOrg(owner, user, org?.member ?? false) : canSeeUser(owner, user);
    // Gitea: an owner the caller may not see hides its repositories, unless the caller collaborates on them.
    if (owner.isOrganization && !ownerVisible && collab === 0) return AccessMode.none;
    const team = org?.team ?? AccessMode.none;
    if (team >= AccessMode.owner) return AccessMode.owner;
    const granted = Math.max(collab, team);
    if (granted > 0) return granted;
    // Restricted users get nothing from publicness (Gitea's access model, BEHAVIOUR 6.3 step 5).
    if (!repo.isPrivate && ownerVisible && !user?.isRestricted) return AccessMode.read;
    return AccessMode.none;
  }

  /**
   * Looks up owner/repo for the caller. Invisible repositories are 404 (never 403), whatever the reason;
   * a public-only token never reaches a private repository.
   */
  async function resolve(ownerName: string, repoName: string, actor: Actor, opts: { followRedirect?: boolean } = {}): Promise<RepoAccess> {
    const owner = await usersDb.getUserByName(db, ownerName);
    if (!owner) return resolveRenamedOwner(ownerName, repoName, actor, opts);
    const repo = await reposDb.getRepoByName(db, owner.id, repoName);
    if (repo) return checkAccess(repo, owner, actor);
    const redirectId = await reposDb.getRepoRedirect(db, owner.id, repoName.toLowerCase());
    const target = redirectId === undefined ? undefined : await reposDb.getRepoById(db, redirectId);
    const targetOwner = target && (target.ownerId === owner.id ? owner : await usersDb.getUserById(db, target.ownerId));
    if (!target || !targetOwner) throw notFound();
    // Unlike Gitea, the new name is revealed only to those who may see the repository.
    const access = await checkAccess(target, targetOwner, actor);
    if (opts.followRedirect) return access;
    // Gitea's API answers 307 to the same request under the new name (RedirectToRepo).
    throw new AppError('moved', 'moved permanently', {
      redirectRepo: { from: `${ownerName}/${repoName}`, to: `${targetOwner.name}/${target.name}` },
    });
  }

  /**
   * `/repos/{old owner name}/...` after the owner was renamed: Gitea's API answers 307 to the same request under
   * the owner's new name (RedirectToUser). Only when the caller may see the repository, else the usual 404.
   */
  async function resolveRenamedOwner(ownerName: string, repoName: string, actor: Actor, opts: { followRedirect?: boolean }): Promise<RepoAccess> {
    const redirectTo = await usersDb.getRedirect(db, ownerName.toLowerCase());
    const newOwner = redirectTo === undefined ? undefined : await usersDb.getUserById(db, redirectTo);
    if (!newOwner) throw notFound();
    const access = await resolve(newOwner.name, repoName, actor, { followRedirect: true });
    if (opts.followRedirect) return access;
    throw new AppError('moved', 'moved permanently', {
      redirectRepo: { from: `${ownerName}/${repoName}`, to: `${access.owner.name}/${access.repo.name}` },
    });
  }

  async function checkAccess(repo: Repository, owner: User, actor: Actor): Promise<RepoAccess> {
    const mode = await accessMode(repo, owner, actor.user);
    if (mode === AccessMode.none) throw notFound();
    if (actor.scopes?.publicOnly && (repo.isPrivate || owner.visibility !== 'public')) {
      throw new AppError('forbidden', 'token scope is limited to public repos');
    }
    return { repo, owner, mode, transfer: await pendingTransferOf(repo) };
  }

  /** Only repositories in status 2 (pending transfer) cost a lookup. */
  async function pendingTransferOf(repo: Repository): Promise<RepoAccess['transfer']> {
    if (repo.status !== 2) return undefined;
    const t = await transfersDb.getPendingTransfer(db, repo.id);
    if (!t) return undefined;
    const [doer, recipient, teams] = await Promise.all([
      usersDb.getUserById(db, t.doerId),
      usersDb.getUserById(db, t.recipientId),
      orgsDb.getTeamsByIds(db, t.teamIds),
    ]);
    return doer && recipient ? { doer, recipient, teams } : undefined;
  }

  async function resolveById(id: number, actor: Actor): Promise<RepoAccess> {
    const repo = await reposDb.getRepoById(db, id);
    if (!repo) throw notFound();
    const owner = await usersDb.getUserById(db, repo.ownerId);
    if (!owner) throw notFound();
    return checkAccess(repo, owner, actor);
  }

  function initialFiles(input: CreateRepoInput, repoName: string, owner: User): { path: string; content: string }[] {
    const files: { path: string; content: string }[] = [];
    files.push({ path: 'README.md', content: `# ${repoName}\n\n${input.description ?? ''}\n` });
    if (input.gitignores) {
      const parts = input.gitignores.split(',').map((g) => g.trim()).filter((g) => g !== '');
      const texts = parts.map((g) => `# ---> ${g}\n${getGitignore(g)!}\n`);
      if (texts.length) files.push({ path: '.gitignore', content: texts.join('\n') });
    }
    if (input.license) {
      const year = String(new Date(deps.clock()).getUTCFullYear());
      const holder = owner.fullName || owner.name;
      const text = getLicense(input.license)!
        .replaceAll('<year>', year)
        .replaceAll('[year]', year)
        .replaceAll('<copyright holders>', holder)
        .replaceAll('[fullname]', holder)
        .replaceAll('<owner>', holder);
      files.push({ path: 'LICENSE', content: text });
    }
    return files;
  }

  /** Checks a create request completely before anything touches the disk or the database. */
  async function validateCreate(input: CreateRepoInput): Promise<{ defaultBranch: string; objectFormat: 'sha1' | 'sha256' }> {
    const problem = repoNameProblem(input.name);
    if (problem) throw new AppError('validation', problem);
    if ([...(input.description ?? '')].length > 2048) throw new AppError('validation', '[description]: MaxSize');
    if (input.autoInit && input.readme && input.readme !== 'Default') {
      throw new AppError('bad_request', 'readme template does not exist, available templates: [Default]');
    }
    for (const g of (input.gitignores ?? '').split(',').map((x) => x.trim()).filter((x) => x !== '')) {
      if (getGitignore(g) === undefined) throw new AppError('validation', `gitignore template does not exist: ${g}`);
    }
    if (input.license && getLicense(input.license) === undefined) throw new AppError('validation', `license template does not exist: ${input.license}`);
    if (input.issueLabels && getLabelTemplate(input.issueLabels) === undefined) {
      throw new AppError('validation', `label template does not exist: ${input.issueLabels}`);
    }
    const defaultBranch = input.defaultBranch?.trim() || config.repository.defaultBranch;
    if (!isValidBranchName(defaultBranch)) throw new AppError('validation', `invalid default branch name: ${defaultBranch}`);
    if (input.trustModel && !TRUST_MODELS.includes(input.trustModel)) throw new AppError('validation', `invalid trust model: ${input.trustModel}`);
    const fmt = input.objectFormatName || 'sha1';
    if (fmt !== 'sha1' && fmt !== 'sha256') throw new AppError('validation', `unsupported object format: ${fmt}`);
    if (fmt === 'sha256' && !(await supportsSha256())) throw new AppError('validation', 'the git on this server cannot create sha256 repositories');
    return { defaultBranch, objectFormat: fmt };
  }

  /**
   * Removes temporary repository directories left by a crash mid-create. Only old ones: with several
   * server processes on one repository root, a young one may be another process's create in flight.
   */
  async function sweepAbandoned(maxAgeMs = 60 * 60 * 1000): Promise<number> {
    const dir = join(root, '.tmp');
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const p = join(dir, name);
      const st = await stat(p).catch(() => null);
      if (st && deps.clock() - st.mtimeMs > maxAgeMs) {
        await rm(p, { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
  }

  /**
   * The one way a repository comes into being (create, fork, generate). Order keeps failures clean: the git
   * directory is prepared under a temporary name, the row is inserted (the unique index decides concurrent
   * creates; `conflict` is the caller's 409), and only then is the directory moved to its final, id-based
   * place. A failure at any step removes what was made: no row without a directory, no stray directory.
   */
  async function materialize(
    owner: User,
    name: string,
    steps: {
      /** Builds the git directory at `tmpPath`. */
      prepare: (tmpPath: string) => Promise<void>;
      /** Inserts the repository row (and rows that belong to it) inside the transaction; returns its id. */
      insert: (trx: Db, now: number) => Promise<number>;
      conflict: () => AppError;
    },
  ): Promise<RepoAccess> {
    const tmp = join(root, '.tmp', `${randomUUID()}.git`);
    await mkdir(join(root, '.tmp'), { recursive: true });
    let id: number | undefined;
    try {
      await steps.prepare(tmp);
      try {
        id = await db.transaction().execute(async (trx) => {
          const newId = await steps.insert(trx, unixNow(deps));
          // A new repository takes over a name that an earlier rename left behind.
          await reposDb.deleteRepoRedirect(trx, owner.id, name.toLowerCase());
          await reposDb.refreshOwnerRepoCount(trx, owner.id);
          return newId;
        });
      } catch (e) {
        if (isUniqueViolation(e)) throw steps.conflict();
        throw e;
      }
      await rename(tmp, repoPath(id));
      const size = await repoSizeBytes(repoPath(id)).catch(() => 0);
      if (size) await reposDb.updateRepo(db, id, { size });
    } catch (e) {
      await rm(tmp, { recursive: true, force: true }).catch(() => {});
      if (id !== undefined) {
        const failed = id;
        await rm(repoPath(failed), { recursive: true, force: true }).catch(() => {});
        await db
          .transaction()
          .execute(async (trx) => {
            // deleteRepoRow also recounts a fork parent's forks.
            await reposDb.deleteRepoRow(trx, failed);
            await reposDb.refreshOwnerRepoCount(trx, owner.id);
          })
          .catch(() => {});
      }
      throw e;
    }
    return { repo: (await reposDb.getRepoById(db, id))!, owner, mode: AccessMode.owner };
  }

  /**
   * Creates a repository for `owner`. Order keeps failures clean: the git directory is prepared under a
   * temporary name, the row is inserted (the unique index decides concurrent creates), and only then is
   * the directory moved to its final, id-based place. A failure at any step removes what was made.
   */
  async function create(doer: User, owner: User, input: CreateRepoInput): Promise<RepoAccess> {
    const { defaultBranch, objectFormat } = await validateCreate(input);
    const conflict = () => new AppError('conflict', 'The repository with the same name already exists.');
    if (await reposDb.getRepoByName(db, owner.id, input.name)) throw conflict();
    const created = await materialize(owner, input.name, {
      conflict,
      async prepare(tmp) {
        await initBare(tmp, { defaultBranch, objectFormat });
        if (!input.autoInit) return;
        await commitFiles(tmp, {
          branch: defaultBranch,
          parent: null,
          files: initialFiles(input, input.name, owner),
          message: 'Initial commit',
          author: { name: doer.fullName || doer.name, email: doer.email, when: new Date(deps.clock()) },
        });
      },
      async insert(trx, now) {
        const id = await reposDb.insertRepo(
          trx,
          owner.id,
          {
            name: input.name,
            description: input.description ?? '',
            defaultBranch,
            objectFormatName: objectFormat,
            trustModel: input.trustModel || 'default',
            isPrivate: input.private ?? false,
            isTemplate: input.template ?? false,
            isEmpty: !input.autoInit,
            numCommits: input.autoInit ? 1 : 0,
            settings: { ...DEFAULT_REPO_SETTINGS, issueLabels: input.issueLabels ?? '' },
          },
          now,
        );
        // Webhooks: default hooks copied in, `repository created` recorded with the row.
        await repositoryCreated(deps, trx, id, owner, doer);
        return id;
      },
    });
    deps.events.wake();
    await ensureCreatorAdmin(owner, created.repo.id, doer);
    return created;
  }

  /**
   * Gitea's CreateRepositoryByExample: in an organization, a creator whose teams do not make them
   * repository admin becomes an admin collaborator (create, fork and generate alike).
   */
  async function ensureCreatorAdmin(owner: User, repoId: number, doer: User): Promise<void> {
    if (!owner.isOrganization || doer.isAdmin || doer.id === owner.id) return;
    const teams = await orgsDb.teamsCoveringRepos(db, doer.id, [{ id: repoId, ownerId: owner.id }]);
    if (teamMode(teams.get(repoId)) >= AccessMode.admin) return;
    await socialDb.upsertCollaborator(db, repoId, doer.id, AccessMode.admin, unixNow(deps));
  }

  /** Deletes the row first (the repository disappears at once), then its directory. */
  async function remove(access: RepoAccess, doer?: User): Promise<void> {
    // Gitea's reqOwner guard: admin collaborators may not delete either.
    if (access.mode < AccessMode.owner) throw new AppError('forbidden', 'user should be the owner of the repo');
    await db.transaction().execute(async (trx) => {
      await reposDb.deleteRepoRow(trx, access.repo.id);
      await reposDb.refreshOwnerRepoCount(trx, access.owner.id);
      // The repository's own hooks went with its row; its owner's and the system hooks hear of it.
      if (doer) await deps.events.emit(trx, { type: 'repository', action: 'deleted', repo: { repo: access.repo, owner: access.owner }, sender: doer });
    });
    deps.events.wake();
    await deps.catFile.close(repoPath(access.repo.id));
    // A commit-graph write still running would put files back into the directory being removed.
    maintenanceAgain.delete(access.repo.id);
    await maintenanceRunning.get(access.repo.id);
    await rm(repoPath(access.repo.id), { recursive: true, force: true });
    await rm(packCacheDir(access.repo.id), { recursive: true, force: true });
  }

  async function edit(access: RepoAccess, input: EditRepoInput): Promise<RepoAccess> {
    if (access.mode < AccessMode.admin) {
      throw new AppError('forbidden', 'user should be an owner or a collaborator with admin write of a repository');
    }
    const { repo, owner } = access;
    const changes: reposDb.RepoFields = { updatedUnix: unixNow(deps) };
    let renamedFrom: string | undefined;
    if (input.name !== undefined && input.name !== repo.name) {
      const problem = repoNameProblem(input.name);
      if (problem) throw new AppError('validation', problem);
      // Gitea answers with the error's own text (ErrRepoAlreadyExist), not its "repo name is already taken" title.
      const existing = await reposDb.getRepoByName(db, owner.id, input.name);
      if (existing && existing.id !== repo.id) throw new AppError('validation', `repository already exists [uname: ${owner.name}, name: ${input.name}]`);
      changes.name = input.name;
      if (input.name.toLowerCase() !== repo.lowerName) renamedFrom = repo.lowerName;
    }
    if (input.description !== undefined) {
      if ([...input.description].length > 2048) throw new AppError('validation', '[description]: MaxSize');
      changes.description = input.description;
    }
    if (input.website !== undefined) changes.website = input.website;
    if (input.private !== undefined) changes.isPrivate = input.private;
    if (input.template !== undefined) changes.isTemplate = input.template;
    if (input.archived !== undefined && input.archived !== repo.isArchived) {
      if (repo.isMirror && input.archived) throw new AppError('validation', 'repo is a mirror, cannot archive/un-archive');
      changes.isArchived = input.archived;
      changes.archivedUnix = input.archived ? unixNow(deps) : 0;
    }
    if (input.defaultBranch !== undefined && input.defaultBranch !== repo.defaultBranch) {
      if (!isValidBranchName(input.defaultBranch)) throw new AppError('validation', `invalid default branch name: ${input.defaultBranch}`);
      // Gitea applies it only when the repository is empty or the branch exists; otherwise it is silently ignored.
      if (repo.isEmpty || (await resolveFullRef(repoPath(repo.id), branchRef(input.defaultBranch))) !== null) {
        changes.defaultBranch = input.defaultBranch;
      }
    }
    let mirrorSeconds: number | undefined;
    if (input.settings) {
      const settings = { ...input.settings };
      // Gitea applies mirror_interval to mirrors only (ignored otherwise): Go duration text, 0 = on request only,
      // else at least [mirror] MIN_INTERVAL; errors are 422.
      if (settings.mirrorInterval !== undefined) {
        if (!repo.isMirror) delete settings.mirrorInterval;
        else {
          try {
            mirrorSeconds = parseMirrorInterval(settings.mirrorInterval);
          } catch (e) {
            if (e instanceof DurationError) throw new AppError('validation', e.message);
            throw e;
          }
          settings.mirrorInterval = formatGoDuration(mirrorSeconds * 1000);
        }
      }
      changes.settings = { ...repo.settings, ...settings };
    }
    try {
      await db.transaction().execute(async (trx) => {
        await reposDb.updateRepo(trx, repo.id, changes);
        if (mirrorSeconds !== undefined) {
          await mirrorsDb.updateMirrorSchedule(trx, repo.id, mirrorSeconds, mirrorSeconds > 0 ? unixNow(deps) + mirrorSeconds : 0);
        }
        if (repo.isMirror && input.enablePrune !== undefined) await mirrorsDb.setMirrorPrune(trx, repo.id, input.enablePrune);
        if (renamedFrom) {
          await reposDb.deleteRepoRedirect(trx, owner.id, input.name!.toLowerCase());
          await reposDb.setRepoRedirect(trx, owner.id, renamedFrom, repo.id);
        }
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError('validation', `repository already exists [uname: ${owner.name}, name: ${input.name ?? ''}]`);
      throw e;
    }
    if (changes.defaultBranch !== undefined) await setHead(repoPath(repo.id), changes.defaultBranch);
    return { ...access, repo: (await reposDb.getRepoById(db, repo.id))! };
  }

  /** The caller's access mode on each repository, for listings (one query per distinct owner at most). */
  async function withAccess(repos: readonly Repository[], actor: Actor): Promise<RepoAccess[]> {
    const ownerIds = [...new Set(repos.map((r) => r.ownerId))];
    const owners = new Map((await usersDb.getUsersByIds(db, ownerIds)).map((u) => [u.id, u]));
    // Collaborations of the caller for the whole page in one query, not one per repository.
    const user = actor.user;
    const collabs = user ? await reposDb.getCollaboratorModes(db, repos.map((r) => r.id), user.id) : new Map<number, number>();
    // Organization memberships and team grants of the caller for the whole page, too.
    const orgRepos = repos.filter((r) => owners.get(r.ownerId)?.isOrganization);
    const [memberOf, teams] =
      user && !user.isAdmin && orgRepos.length
        ? await Promise.all([
            orgsDb.memberOrgIds(db, user.id, [...new Set(orgRepos.map((r) => r.ownerId))]),
            orgsDb.teamsCoveringRepos(db, user.id, orgRepos),
          ])
        : [new Set<number>(), new Map<number, { mode: number; units: Record<string, number> }[]>()];
    const out: RepoAccess[] = [];
    for (const repo of repos) {
      const owner = owners.get(repo.ownerId);
      if (!owner) continue;
      const org = owner.isOrganization ? { member: memberOf.has(owner.id), team: teamMode(teams.get(repo.id)) } : undefined;
      out.push({ repo, owner, mode: modeFrom(repo, owner, user, collabs.get(repo.id) ?? 0, org), transfer: await pendingTransferOf(repo) });
    }
    return out;
  }

  /**
   * Adds `parent` to the forks among `list`: one lookup for all parents, each with the caller's own access
   * mode on it. Unlike Gitea (which shows the parent with the fork's permissions whatever the caller may see),
   * a parent the caller may not see is left out.
   */
  async function withParents<T extends RepoAccess>(list: readonly T[], actor: Actor): Promise<(T & { parent?: RepoAccess })[]> {
    const ids = [...new Set(list.filter((a) => a.repo.isFork && a.repo.forkId > 0).map((a) => a.repo.forkId))];
    if (ids.length === 0) return [...list];
    const parents = await withAccess(await reposDb.getReposByIds(db, ids), actor);
    const visible = parents.filter((p) => p.mode > AccessMode.none && !(actor.scopes?.publicOnly && (p.repo.isPrivate || p.owner.visibility !== 'public')));
    const byId = new Map(visible.map((p) => [p.repo.id, p]));
    return list.map((a) => {
      const parent = a.repo.isFork ? byId.get(a.repo.forkId) : undefined;
      return parent ? { ...a, parent } : a;
    });
  }

  function viewerFilter(actor: Actor): reposDb.RepoSearch['viewer'] {
    const user = actor.user;
    if (user?.isAdmin && !actor.scopes?.publicOnly) return null;
    if (!user) return { id: null, seeLimitedOwners: false, seePublic: true };
    // A public-only token sees public repositories of public owners only (as resolve() enforces).
    if (actor.scopes?.publicOnly) return { id: null, seeLimitedOwners: false, seePublic: !user.isRestricted };
    return { id: user.id, seeLimitedOwners: !user.isRestricted, seePublic: !user.isRestricted };
  }

  /**
   * GET /repos/search with Gitea's query semantics: `mode` fork|source|mirror|collaborative, `sort` with
   * `order` (asc by default; unknown values are 422), `private=false` leaves private repositories out,
   * `topic` makes `q` an exact topic match, `uid` lists what that user owns or collaborates on
   * (`exclusive`: owns).
   */
  async function searchByQuery(actor: Actor, q: RepoSearchQuery, paging: Paging) {
    const mode = q.mode ?? '';
    if (!SEARCH_MODES.includes(mode)) throw new AppError('validation', `Invalid search mode: "${mode}"`);
    let sort: reposDb.RepoSearch['orderBy']['column'] = 'alpha';
    let desc = false;
    if (q.sort) {
      const order = q.order || 'asc';
      if (order !== 'asc' && order !== 'desc') throw new AppError('validation', `Invalid sort order: "${order}"`);
      if (!Object.hasOwn(SEARCH_SORTS, q.sort)) throw new AppError('validation', `Invalid sort mode: "${q.sort}"`);
      sort = SEARCH_SORTS[q.sort as keyof typeof SEARCH_SORTS];
      desc = order === 'desc';
    }
    const includePrivate = q.private !== false;
    if (!includePrivate && q.isPrivate === true) return { repos: [], total: 0 };
    const uid = q.uid && q.uid > 0 ? q.uid : undefined;
    return search(
      actor,
      {
        keyword: q.topic ? undefined : q.q,
        topic: q.topic ? q.q : undefined,
        includeDescription: q.includeDesc ?? false,
        ownerId: uid,
        ownership: uid === undefined ? undefined : mode === 'collaborative' ? 'collaborative' : q.exclusive ? 'owned' : 'both',
        starredBy: q.starredBy && q.starredBy > 0 ? q.starredBy : undefined,
        isPrivate: includePrivate ? q.isPrivate : false,
        isTemplate: q.template,
        isArchived: q.archived,
        isFork: mode === 'fork' ? true : mode === 'source' ? false : undefined,
        isMirror: mode === 'mirror' ? true : mode === 'source' || mode === 'collaborative' ? false : undefined,
        priorityOwnerId: q.priorityOwnerId && q.priorityOwnerId > 0 ? q.priorityOwnerId : undefined,
        orderBy: { column: sort, desc },
      },
      paging,
    );
  }

  async function search(actor: Actor, q: Omit<reposDb.RepoSearch, 'viewer' | 'offset' | 'limit'>, paging: Paging) {
    const found = await reposDb.searchRepos(db, { ...q, viewer: viewerFilter(actor), offset: paging.offset, limit: paging.limit });
    return { repos: await withParents(await withAccess(found.repos, actor), actor), total: found.total };
  }

  /** Deletes every repository `owner` owns (admin purge of a user). */
  async function removeAllOwnedBy(owner: User): Promise<void> {
    for (const id of await reposDb.repoIdsOfOwner(db, owner.id)) {
      await reposDb.deleteRepoRow(db, id);
      await deps.catFile.close(repoPath(id));
      maintenanceAgain.delete(id);
      await maintenanceRunning.get(id);
      await rm(repoPath(id), { recursive: true, force: true });
      await rm(packCacheDir(id), { recursive: true, force: true });
    }
    await reposDb.refreshOwnerRepoCount(db, owner.id);
  }

  /** A collaborator's own mode on a repository (0 when not a collaborator). */
  const accessModeOf = (repoId: number, userId: number) => reposDb.getCollaboratorMode(db, repoId, userId);

  /**
   * After refs changed on disk (a push, a commit made through the API): the repository is no longer empty,
   * an empty repository's default branch follows what was created when its configured one was not, and
   * size and commit count are stored so that reads need no git.
   */
  async function refreshAfterGitChange(repo: Repository, emit?: (trx: Db, updated: Repository) => Promise<unknown>): Promise<void> {
    const path = repoPath(repo.id);
    const branches = await listBranches(path);
    let defaultBranch = repo.defaultBranch;
    if (branches.length > 0 && !branches.some((b) => b.name === defaultBranch)) {
      defaultBranch = branches[0]!.name;
      await setHead(path, defaultBranch);
    }
    const [size, numCommits] = await Promise.all([repoSizeBytes(path), branches.length ? countCommits(path, `refs/heads/${defaultBranch}`) : Promise.resolve(0)]);
    const fields = { isEmpty: branches.length === 0, defaultBranch, size, numCommits, updatedUnix: unixNow(deps) };
    if (emit) {
      // Webhook deliveries of the change commit with the row update that records it (the outbox).
      await db.transaction().execute(async (trx) => {
        await reposDb.updateRepo(trx, repo.id, fields);
        await emit(trx, (await reposDb.getRepoById(trx, repo.id)) ?? repo);
      });
      deps.events.wake();
    } else {
      await reposDb.updateRepo(db, repo.id, fields);
    }
    if (branches.length > 0) scheduleMaintenance(repo.id);
  }

  // Background upkeep after git changes: one run per repository at a time, a change during a run queues one more.
  const maintenanceRunning = new Map<number, Promise<void>>();
  const maintenanceAgain = new Set<number>();
  function scheduleMaintenance(id: number): void {
    if (maintenanceRunning.has(id)) {
      maintenanceAgain.add(id);
      return;
    }
    const run = writeCommitGraph(repoPath(id))
      .catch((e: unknown) => deps.log.warn('commit-graph write failed', { repoId: id, err: String(e) }))
      .finally(() => {
        maintenanceRunning.delete(id);
        if (maintenanceAgain.delete(id)) scheduleMaintenance(id);
      });
    maintenanceRunning.set(id, run);
  }
  /** Waits for background upkeep (app close: nothing writes into a repository after it). */
  async function settleMaintenance(): Promise<void> {
    while (maintenanceRunning.size > 0) await Promise.all(maintenanceRunning.values());
  }

  return { ensureCreatorAdmin, sweepAbandoned, materialize, searchByQuery, repoPath, packCacheDir, removeAllOwnedBy, resolve, resolveById, create, remove, edit, search, withAccess, withParents, accessMode, accessModeOf, refreshAfterGitChange, settleMaintenance };
}

export type RepoService = ReturnType<typeof createRepoService>;
