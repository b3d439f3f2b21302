import type { Complete, Schemas } from '../handlers/kit.js';
import type { Config } from '../config/index.js';
import type { GitTag } from '../git/tags.js';

/** git's iso-strict dates end in +00:00 for UTC; Go's RFC 3339 (what Gitea sends) writes Z. */
const rfc3339 = (d: string) => d.replace(/\+00:00$/u, 'Z');

/** Gitea's convert.ToTag. The commit URL carries the tag's own id, as Gitea builds it. */
export function toApiTag(t: GitTag, fullName: string, config: Config): Complete<Schemas['Tag']> {
  const root = config.server.rootUrl;
  return {
    name: t.name,
    message: t.message.trim(),
    id: t.id,
    commit: { sha: t.object, url: `${root}api/v1/repos/${fullName}/git/commits/${t.id}`, created: rfc3339(t.date) },
    zipball_url: `${root}${fullName}/archive/${t.name}.zip`,
    tarball_url: `${root}${fullName}/archive/${t.name}.tar.gz`,
  };
}
