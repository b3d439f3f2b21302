import { AppError, notFound } from '../domain/errors.js';
import { isFullSha } from '../git/refs.js';
import { listRefs, listTreeRecursive, parseTree, type GitRef, type TreeEntry } from '../git/objects.js';
import { parseTagObject, type TagObject } from '../git/tags.js';
import type { ServiceDeps } from './context.js';
import type { RepoAccess, RepoService } from './repos.js';

/** Gitea's [api] DEFAULT_GIT_TREES_PER_PAGE and DEFAULT_MAX_BLOB_SIZE. */
export const GIT_TREES_PER_PAGE = 1000;
export const MAX_BLOB_SIZE = 10 * 1024 * 1024;

/** Gitea's git.ErrNotExist text. */
const notExist = (id: string) => new AppError('bad_request', `object does not exist [id: ${id}, rel_path: ]`);
/** Gitea's git.NewIDFromString error for anything that is not a full object id. */
function requireFullId(sha: string): void {
  if (!isFullSha(sha)) throw new AppError('bad_request', `length ${[...sha].length} has no matched object format: ${sha}`);
}

export interface TreePage {
  readonly sha: string;
  readonly entries: readonly TreeEntry[];
  readonly total: number;
  readonly page: number;
  readonly truncated: boolean;
}

export function createGitDataService(deps: ServiceDeps, repos: RepoService) {
  const { catFile } = deps;

  /**
   * Refs whose full name starts with `refs/<prefix>` (every ref when prefix is undefined): one
   * for-each-ref, filtered as plain text like Gitea's GetRefsFiltered. None is 404.
   */
  async function refs(access: RepoAccess, prefix?: string): Promise<GitRef[]> {
    const filter = prefix ? `refs/${prefix}` : '';
    const all = access.repo.isEmpty ? [] : await listRefs(repos.repoPath(access.repo.id));
    const found = all.filter((r) => r.name.startsWith(filter));
    if (found.length === 0) throw notFound();
    return found;
  }

  /**
   * One page of a tree named by a tree, commit or tag id or a ref name. Non-recursive listings are read
   * through the cat-file readers (sizes pipelined on the batch-check process); recursive ones with one
   * `git ls-tree`. Unknown names are 400 `sha not found [x]`, as Gitea answers.
   */
  async function tree(access: RepoAccess, sha: string, opts: { recursive: boolean; page?: number | undefined; perPage?: number | undefined }): Promise<TreePage> {
    const path = repos.repoPath(access.repo.id);
    // No option-like values, and none of git's history searches (`:/text`, `rev^{/text}`).
    const plausible = sha.length > 0 && sha.length <= 1024 && !sha.startsWith('-') && !sha.includes(':/') && !sha.includes('{/');
    const info = plausible ? await catFile.info(path, `${sha}^{tree}`) : null;
    if (!info || info.type !== 'tree') throw new AppError('bad_request', `sha not found [${sha}]`);
    let entries: TreeEntry[];
    if (opts.recursive) {
      entries = await listTreeRecursive(path, info.sha);
    } else {
      const obj = await catFile.read(path, info.sha);
      if (!obj) throw new AppError('bad_request', `sha not found [${sha}]`);
      const parsed = parseTree(obj.content, info.sha.length / 2);
      const sizes = await Promise.all(parsed.map((e) => (e.type === 'blob' ? catFile.info(path, e.sha) : Promise.resolve(null))));
      entries = parsed.map((e, i) => ({ ...e, size: sizes[i]?.size ?? 0 }));
    }
    const perPage = opts.perPage && opts.perPage > 0 && opts.perPage <= GIT_TREES_PER_PAGE ? opts.perPage : GIT_TREES_PER_PAGE;
    const page = opts.page && opts.page > 0 ? opts.page : 1;
    const start = perPage * (page - 1);
    const slice = start >= entries.length ? [] : entries.slice(start, start + perPage);
    return { sha: info.sha, entries: slice, total: entries.length, page, truncated: start + perPage < entries.length };
  }

  /** A blob by full id, with its content unless it is larger than the API blob size limit. */
  async function blob(access: RepoAccess, sha: string): Promise<{ sha: string; size: number; content: Buffer | null }> {
    requireFullId(sha);
    const path = repos.repoPath(access.repo.id);
    const info = await catFile.info(path, sha.toLowerCase());
    if (!info || info.type !== 'blob') throw notExist(sha);
    if (info.size > MAX_BLOB_SIZE) return { sha: info.sha, size: info.size, content: null };
    const obj = await catFile.read(path, info.sha);
    if (!obj) throw notExist(sha);
    return { sha: obj.sha, size: obj.size, content: obj.content };
  }

  /** An annotated tag object by full id, with the commit it finally points at. */
  async function annotatedTag(access: RepoAccess, sha: string): Promise<{ sha: string; tag: TagObject; commit: string }> {
    requireFullId(sha);
    const path = repos.repoPath(access.repo.id);
    const obj = await catFile.read(path, sha.toLowerCase());
    // A lightweight tag's id is a commit's: not a tag object.
    if (!obj || obj.type !== 'tag') throw notExist(sha);
    const commit = await catFile.info(path, `${obj.sha}^{commit}`);
    if (!commit) throw notExist(sha);
    return { sha: obj.sha, tag: parseTagObject(obj.content), commit: commit.sha };
  }

  return { refs, tree, blob, annotatedTag };
}

export type GitDataService = ReturnType<typeof createGitDataService>;
