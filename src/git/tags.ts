/**
 * Tags: listed and read with one `git for-each-ref` per call whatever their number; created with
 * plumbing only (`git mktag` for annotated tags, `git update-ref` for the ref), never a working tree.
 */
import { isFullSha, tagRef } from './refs.js';
import { updateRef } from './repo.js';
import { runGit } from './run.js';

/** A tag as Gitea's git.Tag presents it. */
export interface GitTag {
  /** Short name (without refs/tags/). */
  readonly name: string;
  /** The tag object's id for an annotated tag, the commit's id for a lightweight tag. */
  readonly id: string;
  /** What the tag points at: the commit of a lightweight tag, the `object` header of an annotated one. */
  readonly object: string;
  readonly annotated: boolean;
  /** The tagger's date (the committer's date for a lightweight tag), ISO 8601 with the recorded offset. */
  readonly date: string;
  /** The tag message (the commit message for a lightweight tag), without a PGP signature. */
  readonly message: string;
}

const FIELDS = ['%(refname)', '%(objecttype)', '%(objectname)', '%(object)', '%(creatordate:iso-strict)', '%(contents)', '%(contents:signature)'];
// NUL between fields and NUL RS NUL after each record: git refuses NUL in messages, so records cannot run together.
const END = '\0\x1e\0';
const FORMAT = `--format=${FIELDS.join('%00')}%00%1e%00`;
const BEGIN_PGP = '-----BEGIN PGP SIGNATURE-----';

function parse(stdout: Buffer): GitTag[] {
  const out: GitTag[] = [];
  for (let record of stdout.toString('utf8').split(END)) {
    if (record.startsWith('\n')) record = record.slice(1);
    if (record.length === 0) continue;
    const parts = record.split('\0');
    if (parts.length < FIELDS.length) continue;
    const [ref, type, id, object, date, contents, signature] = parts as [string, string, string, string, string, string, string];
    if (!ref.startsWith('refs/tags/')) continue;
    let message = signature && contents.endsWith(signature) ? contents.slice(0, contents.length - signature.length) : contents;
    const pgp = message.indexOf(BEGIN_PGP);
    if (pgp >= 0) message = message.slice(0, pgp);
    const annotated = type === 'tag';
    out.push({ name: ref.slice('refs/tags/'.length), id, object: annotated ? object : id, annotated, date, message });
  }
  return out;
}

/**
 * Every tag, in Gitea's order (`--sort=-*creatordate`): annotated tags by the date of the object they
 * tag, newest first, then lightweight tags by name. One git process.
 */
export async function listTags(repoPath: string): Promise<GitTag[]> {
  const { stdout } = await runGit(['for-each-ref', '--sort=-*creatordate', FORMAT, '--', 'refs/tags/'], { gitDir: repoPath });
  return parse(stdout);
}

/** One tag by short name; null when it does not exist or the name is not a valid tag name. */
export async function getTag(repoPath: string, name: string): Promise<GitTag | null> {
  let ref: string;
  try {
    ref = tagRef(name);
  } catch {
    return null;
  }
  // for-each-ref matches by prefix up to a slash, so refs/tags/a also lists refs/tags/a/b.
  const { stdout } = await runGit(['for-each-ref', FORMAT, '--', ref], { gitDir: repoPath });
  return parse(stdout).find((t) => t.name === name) ?? null;
}

/** The tagger of an annotated tag. */
export interface Tagger {
  readonly name: string;
  readonly email: string;
  readonly when: Date;
}

/** Options of {@link createTag}. */
export interface CreateTagOptions {
  readonly name: string;
  /** Full id of the commit to tag. */
  readonly commit: string;
  /** With a message (and a tagger) the tag is annotated; empty or absent makes a lightweight tag. */
  readonly message?: string | undefined;
  readonly tagger?: Tagger | undefined;
}

/** git's "whitespace" message cleanup: no trailing spaces, no leading/trailing or repeated blank lines, final newline. */
function cleanMessage(message: string): string {
  const lines = message.replace(/\r\n/gu, '\n').split('\n').map((l) => l.replace(/[ \t]+$/u, ''));
  const kept: string[] = [];
  for (const l of lines) {
    if (l === '' && (kept.length === 0 || kept[kept.length - 1] === '')) continue;
    kept.push(l);
  }
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  return kept.length === 0 ? '' : `${kept.join('\n')}\n`;
}

/** Names and e-mails go into a header line: no angle brackets or line breaks (git strips them too). */
const identity = (s: string) => s.replace(/[<>\n\r\0]/gu, '').trim();

/**
 * Creates `refs/tags/<name>` at `commit`, annotated when a message is given. Throws
 * InvalidRefNameError for a bad name and RefConflictError when the tag exists (also when another
 * request creates it concurrently).
 */
export async function createTag(repoPath: string, opts: CreateTagOptions): Promise<void> {
  const ref = tagRef(opts.name);
  if (!isFullSha(opts.commit)) throw new Error(`not a full object id: ${opts.commit}`);
  const message = cleanMessage(opts.message ?? '');
  if (message === '' || !opts.tagger) {
    await updateRef(repoPath, ref, opts.commit, null);
    return;
  }
  const t = opts.tagger;
  const seconds = Math.floor(t.when.getTime() / 1000);
  const body = `object ${opts.commit}\ntype commit\ntag ${opts.name}\ntagger ${identity(t.name)} <${identity(t.email)}> ${seconds} +0000\n\n${message}`;
  const { stdout } = await runGit(['mktag'], { gitDir: repoPath, input: body });
  await updateRef(repoPath, ref, stdout.toString('utf8').trim(), null);
}

/** A person and date as recorded in a commit or tag header. */
export interface GitSignature {
  readonly name: string;
  readonly email: string;
  /** ISO 8601 in UTC. */
  readonly date: string;
}

/** The fields of an annotated tag object. */
export interface TagObject {
  readonly object: string;
  readonly type: string;
  readonly tag: string;
  readonly tagger: GitSignature | null;
  /** The message as stored, without a PGP signature. */
  readonly message: string;
}

/** Parses a `name <email> seconds +hhmm` header value. */
export function parseSignature(value: string): GitSignature {
  const m = /^(.*?) ?<([^>]*)> (\d+) ([+-]\d{4})$/u.exec(value);
  if (!m) return { name: value, email: '', date: new Date(0).toISOString().replace(/\.\d{3}Z$/u, 'Z') };
  return { name: m[1]!, email: m[2]!, date: new Date(Number(m[3]) * 1000).toISOString().replace(/\.\d{3}Z$/u, 'Z') };
}

/** Parses the content of a tag object (as `cat-file` gives it). */
export function parseTagObject(content: Buffer): TagObject {
  const text = content.toString('utf8');
  const split = text.indexOf('\n\n');
  const header = split >= 0 ? text.slice(0, split) : text;
  let message = split >= 0 ? text.slice(split + 2) : '';
  const fields: Record<string, string> = {};
  for (const line of header.split('\n')) {
    const sp = line.indexOf(' ');
    if (sp > 0 && !(line.slice(0, sp) in fields)) fields[line.slice(0, sp)] = line.slice(sp + 1);
  }
  const pgp = message.lastIndexOf(BEGIN_PGP);
  if (pgp > 0) message = message.slice(0, pgp);
  return {
    object: fields.object ?? '',
    type: fields.type ?? '',
    tag: fields.tag ?? '',
    tagger: fields.tagger === undefined ? null : parseSignature(fields.tagger),
    message,
  };
}
