import { AppError, notFound } from '../domain/errors.js';
import { editorConfigFor, parseEditorConfig } from '../domain/editorconfig.js';
import { languageOf } from '../domain/languages.js';
import { isBatchSafeRev, logCommits } from '../git/commits.js';
import { mergeBase } from '../git/compare.js';
import { listTreeRecursive } from '../git/objects.js';
import type { CommitDetail, CommitService, CommitView } from './commits.js';
import type { ServiceDeps } from './context.js';
import type { RepoAccess, RepoService } from './repos.js';

/** Gitea's [ui] MAX_DISPLAY_FILE_SIZE: a larger .editorconfig is not read. */
const MAX_EDITORCONFIG_BYTES = 8 * 1024 * 1024;
const LANGUAGE_CACHE_SIZE = 1000;
/** Compare answers hold at most this many commits (Gitea has no limit; a bound keeps one request cheap). */
const MAX_COMPARE_COMMITS = 10_000;

/**
 * Read-only views of a repository's code: EditorConfig properties, language statistics, comparisons
 * and git notes. Objects are read through the shared cat-file readers; at most one git process per request.
 */
export function createCodeInfoService(deps: ServiceDeps, repos: RepoService, commits: CommitService) {
  // Language statistics by commit: a commit's tree never changes, so an entry stays right for ever.
  const languageCache = new Map<string, Record<string, number>>();

  /**
   * Gitea's GetEditorconfig: the properties of `.editorconfig` at the root of `ref` (default: the default
   * branch) that apply to `path`. 404 when the ref or the file is missing, or no property applies.
   */
  async function editorConfig(access: RepoAccess, path: string, ref: string | undefined): Promise<Record<string, string>> {
    const repoPath = repos.repoPath(access.repo.id);
    const sha = access.repo.isEmpty ? null : await commits.resolveCommit(repoPath, ref || `refs/heads/${access.repo.defaultBranch}`);
    if (!sha) throw notFound();
    const info = await deps.catFile.info(repoPath, `${sha}:.editorconfig`);
    if (!info || info.type !== 'blob' || info.size > MAX_EDITORCONFIG_BYTES) throw notFound();
    const blob = await deps.catFile.read(repoPath, info.sha);
    if (!blob) throw notFound();
    const props = editorConfigFor(parseEditorConfig(blob.content.toString('utf8')), path);
    if (Object.keys(props).length === 0) throw notFound();
    return props;
  }

  /**
   * Bytes of code by language in the default branch (one `git ls-tree -r -l` per commit, then cached).
   * An empty repository or a missing default branch gives an empty map.
   */
  async function languages(access: RepoAccess): Promise<Record<string, number>> {
    const repoPath = repos.repoPath(access.repo.id);
    const sha = access.repo.isEmpty ? null : await commits.resolveCommit(repoPath, `refs/heads/${access.repo.defaultBranch}`);
    if (!sha) return {};
    const key = `${access.repo.id}\0${sha}`;
    const hit = languageCache.get(key);
    if (hit) {
      languageCache.delete(key);
      languageCache.set(key, hit);
      return hit;
    }
    const totals: Record<string, number> = {};
    for (const e of await listTreeRecursive(repoPath, sha)) {
      // Regular files only: symlinks (120000), trees and submodules are not code.
      if (e.type !== 'blob' || e.mode === '120000' || !e.size) continue;
      const lang = languageOf(e.path);
      if (lang) totals[lang] = (totals[lang] ?? 0) + e.size;
    }
    languageCache.set(key, totals);
    if (languageCache.size > LANGUAGE_CACHE_SIZE) languageCache.delete(languageCache.keys().next().value!);
    return totals;
  }

  /** A branch or tag of the repository (Gitea's compare takes no other names), as a commit id. */
  async function branchOrTag(repoPath: string, name: string): Promise<string | null> {
    if (!isBatchSafeRev(name)) return null;
    return (await commits.resolveCommit(repoPath, `refs/heads/${name}`)) ?? (await commits.resolveCommit(repoPath, `refs/tags/${name}`));
  }

  /**
   * Gitea's CompareDiff: `base...head` (or `base..head`; a single name is compared with the default
   * branch). The commits reachable from head and not from the merge base, newest first; none without a
   * merge base. 404 "BaseNotExist" for an unknown base, 404 for an unknown head.
   */
  async function compare(access: RepoAccess, basehead: string, detail: CommitDetail): Promise<CommitView[]> {
    // Gitea splits once at the first `...`, else at the first `..`.
    const sep = basehead.includes('...') ? '...' : basehead.includes('..') ? '..' : null;
    const at = sep === null ? -1 : basehead.indexOf(sep);
    const [base, head] = sep === null ? [access.repo.defaultBranch, basehead] : [basehead.slice(0, at), basehead.slice(at + sep.length)];
    const repoPath = repos.repoPath(access.repo.id);
    if (head.includes(':')) throw notFound(); // another repository's branch (owner:branch) is not supported
    const baseSha = access.repo.isEmpty ? null : await branchOrTag(repoPath, base);
    if (!baseSha) throw notFound('BaseNotExist');
    const headSha = await branchOrTag(repoPath, head);
    if (!headSha) throw notFound();
    const mb = await mergeBase(repoPath, baseSha, headSha);
    if (!mb) return [];
    const list = await logCommits(repoPath, { rev: headSha, not: mb, skip: 0, maxCount: MAX_COMPARE_COMMITS, files: detail.files, stats: detail.stat });
    return commits.withUsers(list);
  }

  /**
   * Gitea's GetNote: the note of the commit `identifier` names in `refs/notes/commits` (with git's fan-out
   * directories), and, as Gitea answers, the notes commit that last changed it. 422 for a name that
   * cannot be a ref; 404 when it names no commit (Gitea's generic message) or there is no note (the name as message).
   */
  async function note(access: RepoAccess, identifier: string, detail: CommitDetail): Promise<{ message: string; commit: CommitView }> {
    // Validates the name (422); an unknown commit is Gitea's plain 404 (NotFound(err) in getNote).
    const target = await commits.get(access, identifier, { stat: false, files: false, verification: false }).catch((e: unknown) => {
      throw e instanceof AppError && e.kind === 'not_found' ? notFound() : e;
    });
    const sha = target.commit.sha;
    const repoPath = repos.repoPath(access.repo.id);
    const notesRef = await commits.resolveCommit(repoPath, 'refs/notes/commits');
    if (!notesRef) throw notFound(identifier);
    const candidates = [sha, `${sha.slice(0, 2)}/${sha.slice(2)}`, `${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha.slice(4)}`];
    for (const path of candidates) {
      const blob = await deps.catFile.read(repoPath, `${notesRef}:${path}`);
      if (!blob || blob.type !== 'blob') continue;
      const [last] = await logCommits(repoPath, { rev: notesRef, path, skip: 0, maxCount: 1, files: false, stats: false });
      if (!last) throw new AppError('internal', 'note without history');
      const commit = await commits.get(access, last.sha, detail);
      return { message: blob.content.toString('utf8'), commit };
    }
    throw notFound(identifier);
  }

  return { editorConfig, languages, compare, note };
}

export type CodeInfoService = ReturnType<typeof createCodeInfoService>;
