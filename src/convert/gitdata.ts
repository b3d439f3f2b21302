import type { Complete, Schemas } from '../handlers/kit.js';
import type { Config } from '../config/index.js';
import type { GitRef, TagObject, TreeEntry } from '../git/index.js';

/** One page of a tree listing. */
interface TreePage {
  readonly sha: string;
  readonly entries: readonly TreeEntry[];
  readonly total: number;
  readonly page: number;
  readonly truncated: boolean;
}

const apiBase = (fullName: string, config: Config) => `${config.server.rootUrl}api/v1/repos/${fullName}`;
const escapeSegments = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** Gitea's Reference JSON: the ref's own URL and the object's, by its type. */
export function toApiReference(r: GitRef, fullName: string, config: Config): Complete<Schemas['Reference']> {
  const base = apiBase(fullName, config);
  return {
    ref: r.name,
    url: `${base}/git/${escapeSegments(r.name)}`,
    object: { sha: r.sha, type: r.type, url: `${base}/git/${encodeURIComponent(r.type)}s/${r.sha}` },
  };
}

/** Gitea's GitTreeResponse; submodules have no URL. */
export function toApiTree(t: TreePage, fullName: string, config: Config): Complete<Schemas['GitTreeResponse']> {
  const base = apiBase(fullName, config);
  return {
    sha: t.sha,
    url: `${base}/git/trees/${t.sha}`,
    tree: t.entries.map((e) => ({
      path: e.path,
      mode: e.mode,
      type: e.type,
      size: e.size ?? 0,
      sha: e.sha,
      url: e.type === 'tree' ? `${base}/git/trees/${e.sha}` : e.type === 'commit' ? '' : `${base}/git/blobs/${e.sha}`,
    })),
    truncated: t.truncated,
    page: t.page,
    total_count: t.total,
  };
}

export function toApiBlob(b: { sha: string; size: number; content: Buffer | null }, fullName: string, config: Config): Complete<Schemas['GitBlobResponse']> {
  return {
    sha: b.sha,
    url: `${apiBase(fullName, config)}/git/blobs/${b.sha}`,
    size: b.size,
    encoding: 'base64',
    content: b.content ? b.content.toString('base64') : '',
  };
}

/** Gitea's AnnotatedTag: the object is the commit the tag finally points at; verification is the commit's. */
export function toApiAnnotatedTag(a: { sha: string; tag: TagObject; commit: string }, fullName: string, config: Config): Schemas['AnnotatedTag'] {
  const base = apiBase(fullName, config);
  const tagger = a.tag.tagger ?? { name: '', email: '', date: '0001-01-01T00:00:00Z' };
  return {
    tag: a.tag.tag,
    sha: a.sha,
    object: { sha: a.commit, type: 'commit', url: `${base}/git/commits/${a.commit}` },
    message: a.tag.message,
    url: `${base}/git/tags/${a.sha}`,
    tagger: { name: tagger.name, email: tagger.email, date: tagger.date },
    verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' },
  };
}
