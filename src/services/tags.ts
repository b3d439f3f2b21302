import { AppError, notFound } from '../domain/errors.js';
import { AccessMode } from '../domain/repo.js';
import type { User } from '../domain/user.js';
import * as reposDb from '../db/repos.js';
import { isValidTagName, tagRef } from '../git/refs.js';
import { deleteRef, RefConflictError, resolveRefish } from '../git/repo.js';
import { createTag, getTag, listTags, type GitTag } from '../git/tags.js';
import { unixNow, type ServiceDeps } from './context.js';
import type { Paging } from './paging.js';
import type { RepoAccess, RepoService } from './repos.js';
import { refEvents } from './refevents.js';
import type { RefUpdate } from '../git/pushinfo.js';

export function createTagService(deps: ServiceDeps, repos: RepoService) {
  /** All tags from one `git for-each-ref`, in Gitea's order, paged in memory. */
  async function list(access: RepoAccess, paging: Paging): Promise<{ tags: GitTag[]; total: number }> {
    if (access.repo.isEmpty) return { tags: [], total: 0 };
    const all = await listTags(repos.repoPath(access.repo.id));
    return { tags: all.slice(paging.offset, paging.offset + paging.limit), total: all.length };
  }

  async function get(access: RepoAccess, name: string): Promise<GitTag> {
    const tag = await getTag(repos.repoPath(access.repo.id), name);
    // Gitea's ctx.NotFound(tagName) puts the name in the message.
    if (!tag) throw new AppError('not_found', name);
    return tag;
  }

  function requireWritable(access: RepoAccess): void {
    if (access.mode < AccessMode.write) throw new AppError('forbidden', 'user should have a permission to write to a repo');
    if (access.repo.isArchived) throw new AppError('locked', `<Repository ${access.repo.id}:${access.owner.name}/${access.repo.name}> is archived`);
  }

  /**
   * Creates a tag at `target` (branch, tag or commit; default: the default branch); annotated and tagged by
   * `doer` when `message` is not empty. Gitea's order: unknown target 404, existing tag 409, bad name 422.
   */
  async function create(access: RepoAccess, doer: User, name: string, target: string | undefined, message: string | undefined): Promise<GitTag> {
    requireWritable(access);
    const path = repos.repoPath(access.repo.id);
    const start = target || access.repo.defaultBranch;
    const resolved = access.repo.isEmpty ? null : await resolveRefish(path, start);
    if (!resolved) throw new AppError('not_found', `target not found: object does not exist [id: ${start}, rel_path: ]`);
    if (isValidTagName(name) && (await getTag(path, name))) throw new AppError('conflict', `tag already exists [name: ${name}]`);
    if (!isValidTagName(name)) throw new AppError('validation', `release tag name is not valid [tag_name: ${name}]`);
    try {
      await createTag(path, {
        name,
        commit: resolved.sha,
        message,
        tagger: { name: doer.fullName || doer.name, email: doer.email, when: new Date(deps.clock()) },
      });
    } catch (e) {
      if (e instanceof RefConflictError) throw new AppError('conflict', `tag already exists [name: ${name}]`);
      throw e;
    }
    const tag = (await getTag(path, name))!;
    await recordRefChange(access, doer, [{ ref: tagRef(name), before: '', after: tag.id }], true);
    return tag;
  }

  /** The row update of a ref change and its webhook events (create/delete/push), in one transaction. */
  async function recordRefChange(access: RepoAccess, doer: User | undefined, updates: RefUpdate[], touch: boolean): Promise<void> {
    const emit = doer ? await refEvents(deps, repos.repoPath(access.repo.id), access, doer, updates) : null;
    await deps.db.transaction().execute(async (trx) => {
      if (touch) await reposDb.updateRepo(trx, access.repo.id, { updatedUnix: unixNow(deps) });
      if (emit) await emit(trx, access.repo);
    });
    deps.events.wake();
  }

  async function remove(access: RepoAccess, name: string, doer?: User): Promise<void> {
    requireWritable(access);
    const path = repos.repoPath(access.repo.id);
    const tag = await getTag(path, name);
    if (!tag) throw notFound();
    try {
      await deleteRef(path, tagRef(name), tag.id);
    } catch (e) {
      // Deleted (or moved) by someone else meanwhile.
      if (e instanceof RefConflictError) throw notFound();
      throw e;
    }
    await recordRefChange(access, doer, [{ ref: tagRef(name), before: tag.id, after: '' }], false);
  }

  return { list, get, create, remove };
}

export type TagService = ReturnType<typeof createTagService>;
