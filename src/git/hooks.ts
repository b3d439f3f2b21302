/**
 * Our own server-side hooks for receive-pack. The hook scripts are written once into a directory of
 * ours (never into a repository) and enabled per push with `-c core.hooksPath=<dir>`; what a hook must
 * enforce arrives in an environment variable computed by the caller before the push starts, so the
 * hook needs no database.
 */
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compileGlob } from '../domain/glob.js';
import { FILE_GLOB_SEPARATORS } from '../domain/protection.js';

/** The environment variable carrying the branch rules (JSON array of {@link BranchRefRule}) to the pre-receive hook. */
export const BRANCH_RULES_ENV = 'ANVIL_BRANCH_RULES';

/**
 * One rule as the pre-receive hook applies it to `refs/heads/<branch>`: the first rule that matches the branch
 * name applies (`glob`: a gobwas glob with `/` as separator; null: `name` compared without regard to case).
 * A matching branch is never deleted nor rewound (non-fast-forward), and is updated only when `push` is true.
 */
export interface BranchRefRule {
  readonly name: string;
  readonly glob: string | null;
  readonly push: boolean;
  /** Globs (`.` and `/` separators) matched against lower-cased changed paths: changing one refuses the push, whoever pushes. */
  readonly protectedFiles: readonly string[];
  /** When `push` is false, a push that changes only paths matching these is still accepted. */
  readonly unprotectedFiles: readonly string[];
}

/**
 * The pre-receive hook (an ES module run by node). It reads `<old> <new> <ref>` lines from stdin and
 * uses `git merge-base --is-ancestor` in the environment receive-pack gave it (GIT_DIR and the
 * quarantine variables, so objects of the push are visible); any refusal makes it exit 1 with the
 * reasons on stderr, which git shows the pusher as `remote:` lines before "pre-receive hook declined".
 */
export const PRE_RECEIVE_SCRIPT = `// Written by Anvil; do not edit.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

// The linear-time glob matcher of domain/glob.ts (its source text): rule patterns are chosen by repository
// administrators, so no regular expression is built from them.
${compileGlob.toString()}

let rules;
try {
  rules = JSON.parse(process.env.${BRANCH_RULES_ENV} ?? '[]').map((r) => {
    const g = r.glob === null ? null : compileGlob(r.glob, '/');
    const files = (list) => (list ?? []).map((x) => compileGlob(x, '${FILE_GLOB_SEPARATORS}')).filter((x) => x !== null);
    return {
      ...r,
      rx: g ?? { test: (b) => b.toLowerCase() === r.name.toLowerCase() },
      protectedRx: files(r.protectedFiles),
      unprotectedRx: files(r.unprotectedFiles),
    };
  });
} catch {
  process.stderr.write('branch protection rules are unreadable\\n');
  process.exit(1);
}
const zero = /^0+$/;
const errors = [];
/** Paths changed between two commits (Gitea's GetAffectedFiles), or null when git cannot tell. */
function changedFiles(oldSha, newSha) {
  const r = spawnSync('git', ['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', oldSha, newSha, '--'], { maxBuffer: 1 << 28 });
  if (r.status !== 0) return null;
  return r.stdout.toString('utf8').split('\\0').filter((p) => p !== '');
}
for (const line of readFileSync(0, 'utf8').split('\\n')) {
  const [oldSha, newSha, ref] = line.trim().split(' ');
  if (!ref || !ref.startsWith('refs/heads/')) continue;
  const branch = ref.slice('refs/heads/'.length);
  const rule = rules.find((r) => r.rx.test(branch));
  if (!rule) continue;
  if (zero.test(newSha)) {
    errors.push(\`branch \${branch} is protected from deletion (rule "\${rule.name}")\`);
    continue;
  }
  if (!zero.test(oldSha)) {
    const r = spawnSync('git', ['merge-base', '--is-ancestor', oldSha, newSha], { stdio: 'ignore' });
    if (r.status === 1) {
      errors.push(\`branch \${branch} is protected from force push (rule "\${rule.name}")\`);
      continue;
    }
    if (r.status !== 0) {
      errors.push(\`could not check the update of protected branch \${branch}\`);
      continue;
    }
  }
  // Protected files bind everyone; unprotected files let those who may not push change only them (Gitea's
  // pre-receive steps 4 and 6). A new branch has no old commit to compare with, so only the push right counts.
  const needFiles = !zero.test(oldSha) && (rule.protectedRx.length > 0 || (!rule.push && rule.unprotectedRx.length > 0));
  const changed = needFiles ? changedFiles(oldSha, newSha) : [];
  if (changed === null) {
    errors.push(\`could not check the files changed on protected branch \${branch}\`);
    continue;
  }
  const touched = changed.find((p) => rule.protectedRx.some((rx) => rx.test(p.toLowerCase())));
  if (touched !== undefined) {
    errors.push(\`branch \${branch} is protected from changing file \${touched}\`);
    continue;
  }
  if (rule.push) continue;
  if (changed.length > 0 && rule.unprotectedRx.length > 0 && changed.every((p) => rule.unprotectedRx.some((rx) => rx.test(p.toLowerCase())))) continue;
  errors.push(\`Not allowed to push to protected branch \${branch} (rule "\${rule.name}")\`);
}
if (errors.length) {
  for (const e of errors) process.stderr.write(\`\${e}\\n\`);
  process.exit(1);
}
`;

const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

async function writeAtomic(path: string, text: string, mode: number): Promise<void> {
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, text, { mode });
  await chmod(tmp, mode);
  await rename(tmp, path);
}

/**
 * Writes the hooks directory `dir` (created if missing): `pre-receive`, a `/bin/sh` script that execs
 * `nodePath` on `pre-receive.mjs` ({@link PRE_RECEIVE_SCRIPT}). Atomic per file, so concurrent
 * writers and running pushes never see a half-written hook. Returns `dir`.
 */
export async function writeHooks(dir: string, nodePath: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const script = join(dir, 'pre-receive.mjs');
  await writeAtomic(script, PRE_RECEIVE_SCRIPT, 0o644);
  await writeAtomic(join(dir, 'pre-receive'), `#!/bin/sh\nexec ${shQuote(nodePath)} ${shQuote(script)}\n`, 0o755);
  return dir;
}
