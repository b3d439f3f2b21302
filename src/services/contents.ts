import { AppError, notFound } from '../domain/errors.js';
import { AccessMode } from '../domain/repo.js';
import type { User } from '../domain/user.js';
import {
  cachedReader,
  findEntry,
  findEntryAt,
  parseCommit,
  parseGitmodules,
  readTree,
  resolveCommitish,
  resolveRefInPath,
  ObjectCache,
  type CommitObject,
  type ContentEntry,
  type ContentItem,
  type ObjectReader,
  type ResolvedCommit,
} from '../git/contents.js';
import { isValidBranchName } from '../git/refs.js';
import {
  checkTreePath,
  commitFiles,
  InvalidPathError,
  PathConflictError,
  RefConflictError,
  UnknownRevisionError,
  type CommitFile,
  type Signature,
} from '../git/repo.js';
import { InvalidRefNameError } from '../git/refs.js';
import { lastCommitsOf } from '../git/lastcommit.js';
import { directRefResolver } from '../git/refstore.js';
import type { ServiceDeps } from './context.js';
import type { RepoAccess, RepoService } from './repos.js';
import type { ProtectionService } from './protections.js';
import { applyPatch, PatchApplyError } from '../git/patch.js';
import type { Actor } from '../domain/user.js';
import { refEvents } from './refevents.js';

/** Gitea's [api] DEFAULT_MAX_BLOB_SIZE: larger files are listed with an empty content. */
const MAX_BLOB_CONTENT = 10 * 1024 * 1024;

/** Entries read at one commit. */
export interface ContentsAt {
  readonly ref: ResolvedCommit;
  /** The branch, tag or full commit id the URLs name (what the caller asked for, expanded). */
  readonly items: readonly ContentItem[];
}

/** The result of reading a path: one entry, or a directory's entries. */
export type ContentsResult = { readonly kind: 'entry'; readonly at: ContentsAt } | { readonly kind: 'list'; readonly at: ContentsAt | null };

/** A raw blob to serve. */
export interface RawBlob {
  readonly sha: string;
  readonly kind: 'file' | 'symlink';
  readonly path: string;
  readonly content: Buffer;
}

/** One change of {@link ContentService.change}. */
export interface FileChange {
  readonly operation: 'create' | 'update' | 'delete';
  readonly path: string;
  readonly fromPath?: string | undefined;
  /** Base64 text as received. */
  readonly content?: string | undefined;
  readonly sha?: string | undefined;
}

export interface IdentityInput {
  readonly name?: string | undefined;
  readonly email?: string | undefined;
}

export interface ChangeInput {
  readonly branch?: string | undefined;
  readonly newBranch?: string | undefined;
  readonly message?: string | undefined;
  readonly author?: IdentityInput | undefined;
  readonly committer?: IdentityInput | undefined;
  readonly dates?: { readonly author?: string | undefined; readonly committer?: string | undefined } | undefined;
  readonly signoff?: boolean | undefined;
  readonly files: readonly FileChange[];
}

/** The body of POST /repos/{o}/{r}/diffpatch. */
export interface PatchInput extends Omit<ChangeInput, 'files'> {
  /** The unified diff. */
  readonly content: string;
}

/** A diff as sent; clients that followed the field's "base64" description get theirs decoded. */
function patchText(content: string): string {
  const looksLikeDiff = (t: string) => /^(diff --git |--- |\+\+\+ |@@ )/mu.test(t);
  if (looksLikeDiff(content)) return content;
  const compact = content.replace(/\s+/gu, '');
  if (compact.length > 0 && compact.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/u.test(compact)) {
    const decoded = Buffer.from(compact, 'base64').toString('utf8');
    if (looksLikeDiff(decoded)) return decoded;
  }
  return content;
}

/** Which operation asks: Gitea's single-file delete answers some errors with 400/404 where the others say 422. */
export type ChangeKind = 'create' | 'update' | 'delete' | 'change';

/** What a change produced. */
export interface ChangeResult {
  readonly commit: CommitObject;
  /** Parents with their committer dates. */
  readonly parents: readonly CommitObject[];
  /** One per requested file, in order; null for a deleted file. */
  readonly files: readonly (ContentItem | null)[];
  readonly ref: ResolvedCommit;
}

/** Go's base64.StdEncoding: padding required, CR and LF ignored; the error names the first bad byte. */
function decodeBase64(text: string): Buffer {
  const clean = text.replace(/[\r\n]/gu, '');
  const bad = (i: number) => new AppError('validation', `illegal base64 data at input byte ${i}`);
  const m = /^[A-Za-z0-9+/]*/u.exec(clean)!;
  let i = m[0].length;
  if (i < clean.length) {
    const rest = clean.slice(i);
    if (!/^={1,2}$/u.test(rest) || clean.length % 4 !== 0) throw bad(i);
  } else if (clean.length % 4 !== 0) {
    i = clean.length - (clean.length % 4);
    throw bad(i);
  }
  return Buffer.from(clean, 'base64');
}

/** Gitea's User.GitName: newlines and angle brackets removed; `fallback` when nothing is left. */
function gitSafe(s: string): string {
  return s.replace(/[\n<>]/gu, '').trim();
}

/** `+02:00` / `Z` at the end of an RFC 3339 date -> git's `+0200`. */
function offsetOf(iso: string): string {
  const m = /([+-])(\d\d):?(\d\d)$/u.exec(iso);
  return m ? `${m[1]}${m[2]}${m[3]}` : '+0000';
}

export function createContentService(deps: ServiceDeps, repos: RepoService, protections?: ProtectionService) {
  // Trees and small blobs are immutable: kept per application so hot files cost no object read.
  const cache = new ObjectCache();
  const reader = (access: RepoAccess): ObjectReader => {
    const path = repos.repoPath(access.repo.id);
    return cachedReader(deps.catFile.get(path), cache, String(access.repo.id), directRefResolver(path));
  };
  const fullIdLength = (access: RepoAccess) => (access.repo.objectFormatName === 'sha256' ? 64 : 40);
  // Last commits per (repository, commit, path) never change: a bounded LRU spares the path-limited git log.
  const lastCommits = new Map<string, string>();
  const LAST_COMMITS_MAX = 50_000;

  /** Gitea's last_commit_sha for entries of `dir` at `commitSha`: cached, else one git log for all the misses. */
  async function withLastCommits(access: RepoAccess, commitSha: string, dir: string, items: ContentItem[]): Promise<ContentItem[]> {
    const key = (name: string) => `${access.repo.id}\0${commitSha}\0${dir}\0${name}`;
    const misses = items.filter((i) => !lastCommits.has(key(i.name))).map((i) => i.name);
    if (misses.length > 0) {
      const found = await lastCommitsOf(repos.repoPath(access.repo.id), commitSha, dir, misses);
      for (const [name, sha] of found) lastCommits.set(key(name), sha);
      for (const k of lastCommits.keys()) {
        if (lastCommits.size <= LAST_COMMITS_MAX) break;
        lastCommits.delete(k);
      }
    }
    return items.map((i) => {
      const sha = lastCommits.get(key(i.name));
      return sha === undefined ? i : { ...i, lastCommitSha: sha };
    });
  }

  /** Gitea's "object does not exist" 404 from the contents API: message GetContentsOrList plus the error text. */
  const contentsNotFound = (id: string, relPath: string) =>
    new AppError('not_found', 'GetContentsOrList', { extra: { errors: [`object does not exist [id: ${id}, rel_path: ${relPath}]`] } });

  async function readCommit(r: ObjectReader, sha: string): Promise<CommitObject> {
    const obj = await r.read(sha);
    if (!obj || obj.type !== 'commit') throw new Error(`commit ${sha} cannot be read`);
    return parseCommit(obj.sha, obj.content);
  }

  /** Submodule URLs of a commit's .gitmodules, read once per request when needed. */
  function submodulesOf(r: ObjectReader, commitSha: string): () => Promise<Map<string, string>> {
    let cached: Promise<Map<string, string>> | undefined;
    return () =>
      (cached ??= r.read(`${commitSha}:.gitmodules`).then((o) => (o?.type === 'blob' ? parseGitmodules(o.content.toString('utf8')) : new Map())));
  }

  async function toItem(
    r: ObjectReader,
    e: ContentEntry,
    path: string,
    withContent: boolean,
    submodules: () => Promise<Map<string, string>>,
    knownSize?: number,
  ): Promise<ContentItem> {
    const base = { name: e.name, path, sha: e.sha, kind: e.kind, content: null, target: null, submoduleUrl: null };
    switch (e.kind) {
      case 'dir':
      case 'submodule':
        return { ...base, size: 0, submoduleUrl: e.kind === 'submodule' ? ((await submodules()).get(path) ?? null) : null };
      case 'symlink': {
        const blob = await r.read(e.sha);
        const bytes = blob?.content ?? Buffer.alloc(0);
        return { ...base, size: bytes.length, target: bytes.subarray(0, 1024).toString('utf8') };
      }
      case 'file': {
        const size = knownSize ?? (await r.info(e.sha))?.size ?? 0;
        if (!withContent) return { ...base, size };
        if (size > MAX_BLOB_CONTENT) return { ...base, size, content: Buffer.alloc(0) };
        const blob = await r.read(e.sha);
        return { ...base, size, content: blob?.content ?? Buffer.alloc(0) };
      }
    }
  }

  /** A read path: leading and trailing slashes and `.` components dropped; `..` and `.git` components refused. */
  function cleanReadPath(path: string): string | null {
    const parts = path.split('/').filter((p) => p !== '' && p !== '.');
    if (parts.some((p) => p === '..' || p.toLowerCase() === '.git')) return null;
    return parts.join('/');
  }

  async function resolveRef(access: RepoAccess, ref: string | undefined): Promise<ResolvedCommit> {
    const name = ref?.trim() || access.repo.defaultBranch;
    const resolved = await resolveCommitish(reader(access), name);
    if (!resolved) throw contentsNotFound(name, '');
    return resolved;
  }

  /** Reads `path` at `ref`: one entry (a file with its content), or a directory's entries. */
  async function getContents(access: RepoAccess, path: string, ref: string | undefined): Promise<ContentsResult> {
    // Gitea answers an empty repository with an empty list, whatever the path.
    if (access.repo.isEmpty) return { kind: 'list', at: null };
    const clean = cleanReadPath(path);
    if (clean === null) throw contentsNotFound('', path);
    const r = reader(access);
    const resolved = await resolveRef(access, ref);
    const entry = await findEntryAt(r, resolved.sha, clean);
    if (!entry) throw contentsNotFound('', clean);
    const submodules = submodulesOf(r, resolved.sha);
    if (entry.kind !== 'dir') {
      const slash = clean.lastIndexOf('/');
      const item = await toItem(r, entry, clean, true, submodules, entry.size);
      const items = await withLastCommits(access, resolved.sha, slash < 0 ? '' : clean.slice(0, slash), [item]);
      return { kind: 'entry', at: { ref: resolved, items } };
    }
    const entries = await readTree(r, entry.sha);
    // Requests are pipelined on the one cat-file process of this repository.
    const items = await Promise.all(entries.map((e) => toItem(r, e, clean ? `${clean}/${e.name}` : e.name, false, submodules)));
    return { kind: 'list', at: { ref: resolved, items: await withLastCommits(access, resolved.sha, clean, items) } };
  }

  /**
   * The blob a raw request names: `?ref=` when given, else Gitea's ref-in-path selection. Missing paths,
   * directories and submodules are 404, as is an empty repository.
   */
  async function getRaw(access: RepoAccess, path: string, ref: string | undefined): Promise<RawBlob> {
    if (access.repo.isEmpty) throw notFound();
    const r = reader(access);
    let commitSha: string;
    let treePath = path;
    if (ref?.trim()) {
      const resolved = await resolveCommitish(r, ref.trim());
      if (!resolved) throw notFound();
      commitSha = resolved.sha;
    } else {
      const inPath = await resolveRefInPath(r, path, fullIdLength(access));
      if (inPath) {
        commitSha = inPath.ref.sha;
        treePath = inPath.treePath;
      } else {
        const resolved = await resolveCommitish(r, access.repo.defaultBranch);
        if (!resolved) throw notFound();
        commitSha = resolved.sha;
      }
    }
    const clean = cleanReadPath(treePath);
    if (clean === null || clean === '') throw notFound();
    const entry = await findEntryAt(r, commitSha, clean);
    if (!entry || (entry.kind !== 'file' && entry.kind !== 'symlink')) throw notFound();
    const blob = await r.read(entry.sha);
    if (!blob) throw notFound();
    return { sha: entry.sha, kind: entry.kind, path: clean, content: blob.content };
  }

  /** Gitea's reqRepoBranchWriter and mustNotBeArchived, in that order. */
  function requireWritable(access: RepoAccess): void {
    if (access.mode < AccessMode.write) throw new AppError('forbidden', 'user should have a permission to write to this branch');
    if (access.repo.isArchived) throw new AppError('locked', `<Repository ${access.repo.id}:${access.owner.name}/${access.repo.name}> is archived`);
    if (access.repo.isMirror) throw new AppError('forbidden', 'Git Repository is a mirror.');
  }

  /** Gitea's GetAuthorAndCommitterUsers: an identity matching the doer's e-mail is the doer; one given is used for both. */
  function signatures(doer: User, input: ChangeInput): { author: Signature; committer: Signature } {
    const doerSig = { name: gitSafe(doer.fullName) || gitSafe(doer.name) || `user-${doer.id}`, email: doer.keepEmailPrivate ? `${doer.lowerName}@${deps.config.service.noReplyAddress}` : doer.email };
    const identity = (i: IdentityInput | undefined): { name: string; email: string } | null => {
      if (!i?.email) return null;
      if (i.email.toLowerCase() === doer.email.toLowerCase()) return { name: gitSafe(i.name ?? '') || doerSig.name, email: doer.email };
      return { name: gitSafe(i.name ?? '') || 'user-0', email: gitSafe(i.email) };
    };
    const c = identity(input.committer);
    const a = identity(input.author) ?? c ?? doerSig;
    const now = new Date(deps.clock());
    const date = (iso: string | undefined) => (iso ? { when: new Date(iso), timezone: offsetOf(iso) } : { when: now });
    return { author: { ...a, ...date(input.dates?.author) }, committer: { ...(c ?? a), ...date(input.dates?.committer) } };
  }

  /** Gitea's changeFilesCommitMessage: "Add a, b", "Update c", "Delete d" on separate lines. */
  function defaultMessage(files: readonly FileChange[]): string {
    const of = (op: FileChange['operation']) => files.filter((f) => f.operation === op).map((f) => f.path);
    const lines: string[] = [];
    if (of('create').length) lines.push(`Add ${of('create').join(', ')}`);
    if (of('update').length) lines.push(`Update ${of('update').join(', ')}`);
    if (of('delete').length) lines.push(`Delete ${of('delete').join(', ')}`);
    return lines.join('\n');
  }

  function checkBranchName(name: string, field: string): void {
    if (!isValidBranchName(name)) throw new AppError('validation', `[${field}]: GitRefName`);
    if ([...name].length > 100) throw new AppError('validation', `[${field}]: MaxSize`);
  }

  function checkPath(path: string): void {
    try {
      checkTreePath(path);
    } catch (e) {
      if (e instanceof InvalidPathError) throw new AppError('validation', `path contains a malformed path component [path: ${path}]`);
      throw e;
    }
  }

  /**
   * Creates, updates and deletes files in one commit on `branch` (or on `newBranch` started from it),
   * following Gitea's ChangeRepoFiles checks. The commit is built with plumbing on a temporary index
   * and the branch moved with a compare-and-swap: a concurrent change gives 409, never a lost update.
   */
  async function change(access: RepoAccess, doer: User, kind: ChangeKind, input: ChangeInput): Promise<ChangeResult> {
    requireWritable(access);
    const branch = input.branch?.trim() || access.repo.defaultBranch;
    if (input.branch?.trim()) checkBranchName(branch, 'BranchName');
    const newBranch = input.newBranch?.trim() || branch;
    if (input.newBranch?.trim()) checkBranchName(newBranch, 'NewBranchName');
    if (kind === 'update' && access.repo.isEmpty) throw new AppError('validation', 'repo is empty');

    const contents = input.files.map((f) => (f.operation === 'delete' ? null : decodeBase64(f.content ?? '')));
    for (const f of input.files) {
      checkPath(f.path);
      if (f.fromPath) checkPath(f.fromPath);
    }

    const r = reader(access);
    const path = repos.repoPath(access.repo.id);
    const oldSha = (await r.info(`refs/heads/${branch}^{commit}`))?.sha ?? null;
    if (oldSha === null && (!access.repo.isEmpty || input.files.some((f) => f.operation !== 'create'))) {
      throw new AppError('not_found', `branch does not exist [name: ${branch}]`);
    }
    if (newBranch !== branch && (await r.info(`refs/heads/${newBranch}`))) {
      throw new AppError('validation', `branch already exists [name: ${newBranch}]`);
    }

    const deletes: string[] = [];
    const files: CommitFile[] = [];
    if (oldSha !== null) {
      const parent = await readCommit(r, oldSha);
      for (const f of input.files) {
        if (f.operation === 'delete') {
          const e = await findEntry(r, parent.tree, f.path);
          if (!e || e.kind === 'dir') throw new AppError('not_found', `repository file does not exist [path: ${f.path}]`);
        }
      }
      for (const [i, f] of input.files.entries()) {
        let mode: CommitFile['mode'] = '100644';
        if (f.operation !== 'create') {
          const from = f.operation === 'update' && f.fromPath ? f.fromPath : f.path;
          const e = await findEntry(r, parent.tree, from);
          if (!e || e.kind === 'dir') throw new AppError('not_found', `repository file does not exist [path: ${from}]`);
          if (!f.sha) {
            throw new AppError(kind === 'delete' ? 'bad_request' : 'validation', 'a SHA or commit ID must be proved when updating a file');
          }
          if (f.sha !== e.sha) {
            throw new AppError(kind === 'delete' ? 'bad_request' : 'validation', `sha does not match [given: ${f.sha}, expected: ${e.sha}]`);
          }
          if (e.mode === '100755') mode = '100755';
          if (from !== f.path) deletes.push(from);
        }
        if (f.operation === 'delete') {
          deletes.push(f.path);
          continue;
        }
        await checkWritePath(r, parent.tree, f, kind);
        files.push({ path: f.path, content: contents[i]!, mode });
      }
    } else {
      for (const [i, f] of input.files.entries()) files.push({ path: f.path, content: contents[i]! });
    }

    const { author, committer } = signatures(doer, input);
    let message = input.message?.trim() || defaultMessage(input.files);
    if (input.signoff) message += `\n\nSigned-off-by: ${committer.name} <${committer.email}>`;

    let sha: string;
    try {
      sha = await commitFiles(path, {
        branch: newBranch,
        parent: oldSha,
        expectedOld: newBranch !== branch ? null : oldSha,
        files,
        deletes,
        message,
        author,
        committer,
      });
    } catch (e) {
      if (e instanceof RefConflictError) {
        throw new AppError('conflict', `branch ${newBranch} was changed by another request meanwhile; reload and retry`);
      }
      if (e instanceof PathConflictError) throw new AppError('validation', e.message);
      if (e instanceof InvalidPathError) throw new AppError('validation', `path contains a malformed path component [path: ${e.path}]`);
      if (e instanceof InvalidRefNameError) throw new AppError('validation', '[NewBranchName]: GitRefName');
      if (e instanceof UnknownRevisionError) throw new AppError('not_found', `branch does not exist [name: ${branch}]`);
      throw e;
    }
    // Gitea fires push (and create, for a new branch) for commits made through the API too.
    await repos.refreshAfterGitChange(
      access.repo,
      await refEvents(deps, repos.repoPath(access.repo.id), access, doer, [{ ref: `refs/heads/${newBranch}`, before: newBranch !== branch ? '' : (oldSha ?? ''), after: sha }]),
    );

    const commit = await readCommit(r, sha);
    const parents = await Promise.all(commit.parents.map((p) => readCommit(r, p)));
    const ref: ResolvedCommit = { kind: 'branch', name: newBranch, sha };
    const submodules = submodulesOf(r, sha);
    const out = await Promise.all(
      input.files.map(async (f) => {
        if (f.operation === 'delete') return null;
        const e = await findEntry(r, commit.tree, f.path);
        return e ? toItem(r, e, f.path, true, submodules) : null;
      }),
    );
    return { commit, parents, files: out, ref };
  }

  /** Gitea's handleCheckErrors for a written path: no file or link on the way, nothing at the path unless updated in place. */
  async function checkWritePath(r: ObjectReader, rootTree: string, f: FileChange, kind: ChangeKind): Promise<void> {
    const parts = f.path.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const sub = parts.slice(0, i).join('/');
      const e = await findEntry(r, rootTree, sub);
      if (!e) return;
      const bad = (msg: string) => new AppError(kind === 'delete' ? 'bad_request' : 'validation', msg);
      if (i < parts.length) {
        if (e.kind !== 'dir') throw bad(`a file exists where you’re trying to create a subdirectory [path: ${sub}]`);
      } else if (e.kind === 'symlink') {
        throw bad(`a symbolic link exists where you’re trying to create a subdirectory [path: ${sub}]`);
      } else if (e.kind === 'dir') {
        throw bad(`a directory exists where you’re trying to create a file [path: ${sub}]`);
      } else if (f.operation === 'create' || (f.fromPath && f.fromPath !== f.path)) {
        throw bad(`repository file already exists [path: ${f.path}]`);
      }
    }
  }

  /**
   * POST /repos/{o}/{r}/diffpatch (Gitea's ApplyDiffPatch): applies a unified diff to `branch` (default branch when
   * absent) and commits it there or on `newBranch` started from it. Like Gitea 1.22 the patch text is taken as sent
   * (not base64, whatever the field's description says; base64 that decodes to a diff is accepted too) and `sha` is
   * not compared. A patch that does not apply is 422 (Gitea: 500); a branch that moved meanwhile is 409.
   */
  async function applyDiffPatch(access: RepoAccess, actor: Actor, doer: User, input: PatchInput): Promise<ChangeResult> {
    // The route's guard is reqRepoWriter(code), not the contents API's branch writer check.
    if (access.mode < AccessMode.write) throw new AppError('forbidden', 'user should have a permission to write to a repo');
    requireWritable(access);
    const branch = input.branch?.trim() || access.repo.defaultBranch;
    if (input.branch?.trim()) checkBranchName(branch, 'BranchName');
    const newBranch = input.newBranch?.trim() || branch;
    if (input.newBranch?.trim()) checkBranchName(newBranch, 'NewBranchName');
    const r = reader(access);
    const oldSha = access.repo.isEmpty ? null : ((await r.info(`refs/heads/${branch}^{commit}`))?.sha ?? null);
    if (oldSha === null) throw new AppError('not_found', `branch does not exist [name: ${branch}]`);
    if (newBranch !== branch) {
      if (await r.info(`refs/heads/${newBranch}`)) throw new AppError('validation', `branch already exists [name: ${newBranch}]`);
    } else if (protections) {
      // Gitea's Validate: committing onto an existing branch needs push rights under its protection rule.
      const info = (await protections.forBranches(access, actor))(branch);
      if (info && !info.userCanPush) throw new AppError('forbidden', `user cannot commit to repo [user: ${doer.lowerName}]`);
    }
    const { author, committer } = signatures(doer, { ...input, files: [] });
    let message = input.message?.trim() || 'apply-patch';
    if (input.signoff) message += `\n\nSigned-off-by: ${committer.name} <${committer.email}>`;
    let sha: string;
    try {
      sha = await applyPatch(repos.repoPath(access.repo.id), {
        parent: oldSha,
        branch: newBranch,
        expectedOld: newBranch !== branch ? null : oldSha,
        patch: patchText(input.content),
        message,
        author,
        committer,
      });
    } catch (e) {
      if (e instanceof PatchApplyError) throw new AppError('validation', e.message);
      if (e instanceof InvalidPathError) throw new AppError('validation', `path contains a malformed path component [path: ${e.path}]`);
      if (e instanceof RefConflictError) {
        throw new AppError('conflict', `branch ${newBranch} was changed by another request meanwhile; reload and retry`);
      }
      if (e instanceof InvalidRefNameError) throw new AppError('validation', '[NewBranchName]: GitRefName');
      throw e;
    }
    // Gitea fires push (and create, for a new branch) for commits made through the API too.
    await repos.refreshAfterGitChange(
      access.repo,
      await refEvents(deps, repos.repoPath(access.repo.id), access, doer, [{ ref: `refs/heads/${newBranch}`, before: newBranch !== branch ? '' : (oldSha ?? ''), after: sha }]),
    );
    const commit = await readCommit(r, sha);
    const parents = await Promise.all(commit.parents.map((p) => readCommit(r, p)));
    return { commit, parents, files: [], ref: { kind: 'branch', name: newBranch, sha } };
  }

  return { getContents, getRaw, change, applyDiffPatch };
}

export type ContentService = ReturnType<typeof createContentService>;
