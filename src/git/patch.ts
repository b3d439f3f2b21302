/**
 * Server-side `git apply`: a unified diff applied to a commit's tree on a temporary index (never a working
 * tree, hooks disabled), committed with plumbing and the branch moved with a compare-and-swap.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants as zlibConstants, inflateSync } from 'node:zlib';
import { branchRef } from './refs.js';
import { checkTreePath, InvalidPathError, updateRef, type Signature } from './repo.js';
import { GitError, runGit } from './run.js';

/** The patch could not be applied (git apply's own reason in `detail`). */
export class PatchApplyError extends Error {
  readonly detail: string;
  constructor(detail: string) {
    super(`patch does not apply: ${detail}`);
    this.name = 'PatchApplyError';
    this.detail = detail;
  }
}

export interface ApplyPatchOptions {
  /** The commit the patch is applied to (full id). */
  readonly parent: string;
  /** Short name of the branch to move to the new commit. */
  readonly branch: string;
  /** Value the branch must have (sha), or null: it must not exist yet. */
  readonly expectedOld: string | null;
  readonly patch: string | Buffer;
  readonly message: string;
  readonly author: Signature;
  readonly committer: Signature;
}

function gitDate(s: Signature): string {
  const tz = s.timezone ?? '+0000';
  if (!/^[+-]\d{4}$/u.test(tz)) throw new Error(`invalid timezone offset: ${tz}`);
  return `@${Math.floor(s.when.getTime() / 1000)} ${tz}`;
}

const out = (b: Buffer): string => b.toString('utf8').trim();

/**
 * What the binary hunks of one patch may expand to, in total. A `GIT binary patch` hunk is deflated: a 1 MiB request
 * body can declare hundreds of megabytes (`literal N`), and a `delta` hunk of a few kilobytes can copy an existing
 * blob over and over into a result of any size, which git apply builds in memory. Checked before git runs.
 */
export const MAX_BINARY_PATCH_BYTES = 64 * 1024 * 1024;

const B85 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~';
const B85_VALUE = new Map([...B85].map((c, i) => [c, i] as const));

/** Git's base85 hunk lines (a length letter, then groups of five characters); null when malformed. */
function decodeBase85Lines(lines: readonly string[]): Buffer | null {
  const parts: Buffer[] = [];
  for (const line of lines) {
    const c = line.charCodeAt(0);
    const len = c >= 65 && c <= 90 ? c - 64 : c >= 97 && c <= 122 ? c - 96 + 26 : 0;
    const body = line.slice(1);
    if (len === 0 || body.length !== Math.ceil(len / 4) * 5) return null;
    const buf = Buffer.alloc(Math.ceil(len / 4) * 4);
    for (let g = 0; g < body.length; g += 5) {
      let acc = 0;
      for (let k = 0; k < 5; k++) {
        const v = B85_VALUE.get(body[g + k]!);
        if (v === undefined) return null;
        acc = acc * 85 + v;
      }
      if (acc > 0xffffffff) return null;
      buf.writeUInt32BE(acc, (g / 5) * 4);
    }
    parts.push(buf.subarray(0, len));
  }
  return Buffer.concat(parts);
}

/** The result size a git delta declares (its second varint), from the first bytes of the inflated hunk. */
function deltaResultSize(deflated: Buffer): number | null {
  let head: Buffer;
  try {
    // A bounded prefix is enough for the header; it cannot inflate to more than about a megabyte.
    head = inflateSync(deflated.subarray(0, 1024), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
  } catch {
    return null;
  }
  let pos = 0;
  const varint = (): number | null => {
    let value = 0;
    for (let shift = 0; pos < head.length && shift < 64; shift += 7) {
      const b = head[pos++]!;
      value += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return value;
    }
    return null;
  };
  return varint() === null ? null : varint();
}

/**
 * The bytes git apply would build for the patch's binary hunks (declared literal sizes, inflated delta sizes and
 * the sizes deltas produce); throws PatchApplyError above {@link MAX_BINARY_PATCH_BYTES} or for a delta hunk whose
 * header cannot be read.
 */
export function checkBinaryHunks(patch: string | Buffer, limit = MAX_BINARY_PATCH_BYTES): void {
  const text = typeof patch === 'string' ? patch : patch.toString('latin1');
  if (!text.includes('GIT binary patch')) return;
  const lines = text.split('\n').map((l) => l.replace(/\r$/u, ''));
  let total = 0;
  const tooBig = () => new PatchApplyError(`binary changes larger than ${limit} bytes are not accepted`);
  let binary = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // Only inside a file's binary section; the same words elsewhere (a mail's text) are not hunks.
    if (line === 'GIT binary patch') binary = true;
    else if (line.startsWith('diff --git ')) binary = false;
    const m = binary ? /^(literal|delta) (\d+)$/u.exec(line) : null;
    if (!m) continue;
    const size = Number(m[2]);
    if (!Number.isSafeInteger(size) || (total += size) > limit) throw tooBig();
    if (m[1] === 'literal') continue;
    const data: string[] = [];
    for (let j = i + 1; j < lines.length && lines[j] !== ''; j++) data.push(lines[j]!);
    const deflated = decodeBase85Lines(data);
    const result = deflated ? deltaResultSize(deflated) : null;
    if (result === null) throw new PatchApplyError('corrupt binary patch');
    if (!Number.isSafeInteger(result) || (total += result) > limit) throw tooBig();
  }
}

/**
 * Applies `patch` on top of `parent` and moves `refs/heads/<branch>` to the resulting commit. Options as Gitea's
 * ApplyDiffPatch passes them (`--recount --ignore-whitespace --whitespace=fix --binary -3`), `--cached` so only
 * the temporary index changes. Every path the patch changed is checked afterwards like any server-side edit
 * (no `.git` component, no `..`, not absolute): git refuses most of them itself, this makes sure.
 *
 * Throws {@link PatchApplyError} (bad or non-applying patch), {@link InvalidPathError}, RefConflictError
 * (the branch moved meanwhile) or GitError.
 */
export async function applyPatch(repoPath: string, opts: ApplyPatchOptions): Promise<string> {
  const ref = branchRef(opts.branch);
  checkBinaryHunks(opts.patch);
  const tmp = await mkdtemp(join(tmpdir(), 'anvil-patch-'));
  try {
    const env = { GIT_INDEX_FILE: join(tmp, 'index') };
    await runGit(['read-tree', opts.parent], { gitDir: repoPath, env });
    try {
      await runGit(['apply', '--cached', '--recount', '--ignore-whitespace', '--whitespace=fix', '--binary', '-3'], {
        gitDir: repoPath,
        env,
        input: opts.patch,
        timeoutMs: 120_000,
      });
    } catch (e) {
      if (e instanceof GitError && e.reason === 'exit') {
        const lines = e.stderr
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l.startsWith('error:') || l.startsWith('fatal:'))
          .map((l) => l.replace(/^(error|fatal): /u, ''));
        throw new PatchApplyError(lines.slice(0, 5).join('; ') || 'git apply failed');
      }
      throw e;
    }
    const tree = out((await runGit(['write-tree'], { gitDir: repoPath, env })).stdout);
    const { stdout } = await runGit(['diff-tree', '-r', '--no-renames', '--name-only', '-z', opts.parent, tree], { gitDir: repoPath });
    for (const p of stdout.toString('utf8').split('\0')) {
      if (p !== '') checkTreePath(p);
    }
    const message = opts.message.endsWith('\n') ? opts.message : `${opts.message}\n`;
    const commit = out(
      (
        await runGit(['commit-tree', tree, '-p', opts.parent], {
          gitDir: repoPath,
          env: {
            GIT_AUTHOR_NAME: opts.author.name,
            GIT_AUTHOR_EMAIL: opts.author.email,
            GIT_AUTHOR_DATE: gitDate(opts.author),
            GIT_COMMITTER_NAME: opts.committer.name,
            GIT_COMMITTER_EMAIL: opts.committer.email,
            GIT_COMMITTER_DATE: gitDate(opts.committer),
          },
          input: message,
        })
      ).stdout,
    );
    await updateRef(repoPath, ref, commit, opts.expectedOld);
    return commit;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

export { InvalidPathError };
