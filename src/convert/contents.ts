import type { Complete, Schemas } from '../handlers/kit.js';
import type { Config } from '../config/index.js';
import type { CommitObject, ContentItem, ResolvedCommit } from '../git/contents.js';
import type { GitPerson } from '../git/branches.js';

/** Go's url.PathEscape: unreserved characters and `$&+:=@` stay, everything else is %-encoded. */
function pathEscape(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/gu, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%(24|26|2B|3A|3D|40)/gu, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}
/** Gitea's util.PathEscapeSegments. */
const escapeSegments = (p: string) => p.split('/').map(pathEscape).join('/');
/** Go's url.QueryEscape. */
const queryEscape = (s: string) =>
  encodeURIComponent(s)
    .replace(/[!'()*]/gu, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/gu, '+');

/** Where the entries were read: the repository and the ref as asked for (`origRef`) and as resolved. */
export interface ContentsContext {
  readonly fullName: string;
  readonly origRef: string;
  readonly ref: ResolvedCommit;
  readonly config: Config;
}

/** Gitea's ContentsResponse: fields that do not apply to the entry's type are null. */
export function toContentsResponse(item: ContentItem, at: ContentsContext): Complete<Schemas['ContentsResponse']> {
  const root = at.config.server.rootUrl;
  const api = `${root}api/v1/repos/${at.fullName}`;
  const self = `${api}/contents/${escapeSegments(item.path)}?ref=${queryEscape(at.origRef)}`;
  const refPart = `${at.ref.kind}/${escapeSegments(at.ref.name)}/${escapeSegments(item.path)}`;
  const submodule = item.kind === 'submodule';
  const html = submodule ? null : `${root}${at.fullName}/src/${refPart}`;
  const git = submodule ? null : `${api}/git/${item.kind === 'dir' ? 'trees' : 'blobs'}/${item.sha}`;
  return {
    name: item.name,
    path: item.path,
    sha: item.sha,
    last_commit_sha: item.lastCommitSha ?? at.ref.sha,
    type: item.kind,
    size: item.size,
    encoding: item.content ? 'base64' : null,
    content: item.content ? item.content.toString('base64') : null,
    target: item.target,
    url: self,
    html_url: html,
    git_url: git,
    download_url: submodule ? null : `${root}${at.fullName}/raw/${refPart}`,
    submodule_git_url: item.submoduleUrl,
    _links: { self, git, html },
  };
}

/** Git's `+02:00` dates -> Gitea's UTC `2006-01-02T15:04:05Z`. */
const utc = (iso: string) => new Date(iso).toISOString().replace(/\.\d{3}Z$/u, 'Z');
const commitUser = (p: GitPerson): Complete<Schemas['CommitUser']> => ({ name: p.name, email: p.email, date: utc(p.date) });

/** Gitea's FileCommitResponse; `created` holds the committer date (Gitea leaves it at the zero time). */
export function toFileCommitResponse(commit: CommitObject, parents: readonly CommitObject[], fullName: string, config: Config): Complete<Schemas['FileCommitResponse']> {
  const api = `${config.server.rootUrl}api/v1/repos/${fullName}`;
  const created = utc(commit.committer.date);
  return {
    sha: commit.sha,
    url: `${api}/git/commits/${commit.sha}`,
    html_url: `${config.server.rootUrl}${fullName}/commit/${commit.sha}`,
    created,
    author: commitUser(commit.author),
    committer: commitUser(commit.committer),
    message: commit.message,
    tree: { sha: commit.tree, url: `${api}/git/trees/${commit.tree}`, created },
    parents: parents.map((p) => ({ sha: p.sha, url: `${api}/git/commits/${p.sha}`, created: utc(p.committer.date) })),
  };
}

/** Commits made through the API are never signed. */
export const UNSIGNED: Schemas['PayloadCommitVerification'] = { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' };

/** Gitea's FilesResponse (a deleted file's entry is null). */
export function toFilesResponse(
  result: { readonly commit: CommitObject; readonly parents: readonly CommitObject[]; readonly files: readonly (ContentItem | null)[]; readonly ref: ResolvedCommit },
  fullName: string,
  config: Config,
): Complete<Schemas['FilesResponse']> {
  const at: ContentsContext = { fullName, origRef: result.ref.name, ref: result.ref, config };
  return {
    files: result.files.map((f) => (f ? toContentsResponse(f, at) : (null as unknown as Schemas['ContentsResponse']))),
    commit: toFileCommitResponse(result.commit, result.parents, fullName, config),
    verification: UNSIGNED,
  };
}
