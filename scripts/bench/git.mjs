// The git part of `npm run bench`: a repository of 5,000 commits and 5,000 files built with
// `git fast-import`, pushed to the running Anvil over HTTP, then clone, archive, commits and contents
// each against a git CLI baseline measured in the same run (scripts/bench/gitbaseline.mjs serves the
// baselines that need HTTP). Returns the lines to print.
import { spawn, fork, execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const COMMITS = 5000;
const FILES = 5000;
const PER_DIR = 100;
const filePath = (i) => `d${String(Math.floor(i / PER_DIR)).padStart(2, '0')}/f${String(i).padStart(4, '0')}.txt`;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** A fast-import stream: commit 1 adds FILES files, commit k (k >= 2) rewrites file (k - 2) % FILES. */
function fastImportStream() {
  const words = ['anvil', 'forge', 'hammer', 'ingot', 'temper', 'quench', 'bellows', 'tongs', 'smith', 'spark', 'iron', 'steel', 'weld', 'rivet', 'chisel', 'file'];
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
  const content = (i, version) => {
    let s = `// ${filePath(i)} version ${version}\n`;
    for (let l = 0; l < 8; l++) {
      const line = [];
      for (let w = 0; w < 9; w++) line.push(words[rand() % words.length]);
      s += `${line.join(' ')} ${rand() % 1000}\n`;
    }
    return s;
  };
  const data = (s) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  const parts = [];
  const t0 = 1_700_000_000;
  for (let k = 1; k <= COMMITS; k++) {
    const when = `${t0 + k * 60} +0000`;
    parts.push(`commit refs/heads/main\nmark :${k}\nauthor Bench Author <author@example.com> ${when}\ncommitter Bench Committer <committer@example.com> ${when}\n`);
    parts.push(data(k === 1 ? 'Initial import of the benchmark tree\n' : `Update ${filePath((k - 2) % FILES)}\n\nCommit ${k} of the benchmark history.\n`));
    if (k > 1) parts.push(`from :${k - 1}\n`);
    if (k === 1) for (let i = 0; i < FILES; i++) parts.push(`M 100644 inline ${filePath(i)}\n${data(content(i, 1))}`);
    else parts.push(`M 100644 inline ${filePath((k - 2) % FILES)}\n${data(content((k - 2) % FILES, k))}`);
    parts.push('\n');
  }
  parts.push('done\n');
  return Buffer.from(parts.join(''));
}

export async function benchGit({ rootUrl, token, dir, seconds, load, freePort }) {
  const out = [];
  const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' };
  const git = (args, opts = {}) => execFileSync('git', args, { env: gitEnv, encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
  /** Runs git to completion, draining stdout; resolves with [ms, bytes of stdout]. */
  const timedGit = (args) =>
    new Promise((resolve, reject) => {
      const t = performance.now();
      const child = spawn('git', args, { env: gitEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      let bytes = 0;
      let stderr = '';
      child.stdout.on('data', (c) => (bytes += c.length));
      child.stderr.on('data', (c) => (stderr += c));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve([performance.now() - t, bytes]) : reject(new Error(`git ${args.join(' ')}: exit ${code}: ${stderr}`))));
    });
  /** A shell pipeline run to completion, stdout drained; resolves with its wall time in ms. */
  const timedShell = (command) =>
    new Promise((resolve, reject) => {
      const t = performance.now();
      const child = spawn('bash', ['-c', `set -eo pipefail; ${command}`], { env: gitEnv, stdio: ['ignore', 'pipe', 'inherit'] });
      child.stdout.resume();
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(performance.now() - t) : reject(new Error(`${command}: exit ${code}`))));
    });
  const timedFetch = async (url, init) => {
    const t = performance.now();
    const r = await fetch(url, init);
    const body = Buffer.from(await r.arrayBuffer());
    return { ms: performance.now() - t, status: r.status, body, headers: r.headers };
  };
  const api = (p, init = {}) => fetch(`${rootUrl}api/v1${p}`, { ...init, headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json', ...(init.headers ?? {}) } });

  // 1. Build the repository and push it to Anvil.
  const src = join(dir, 'src.git');
  let t = performance.now();
  git(['init', '-q', '--bare', '-b', 'main', src]);
  git(['--git-dir', src, 'fast-import', '--quiet', '--done'], { input: fastImportStream() });
  const buildMs = performance.now() - t;
  const created = await api('/user/repos', { method: 'POST', body: JSON.stringify({ name: 'big', auto_init: false, default_branch: 'main', description: 'benchmark history' }) });
  if (created.status !== 201) throw new Error(`creating the big repository failed: ${created.status} ${await created.text()}`);
  const { id } = await created.json();
  const cloneUrl = `${rootUrl}bench/big.git`;
  t = performance.now();
  git(['--git-dir', src, '-c', `http.extraHeader=Authorization: token ${token}`, 'push', '-q', cloneUrl, 'main:refs/heads/main']);
  const pushMs = performance.now() - t;
  const reposRoot = join(dir, 'repositories');
  const stored = join(reposRoot, `${id}.git`);
  if (!existsSync(stored)) throw new Error(`the pushed repository is not at ${stored}`);
  const packs = git(['--git-dir', stored, 'count-objects', '-v']);
  const packCount = /^packs: (\d+)/m.exec(packs)?.[1];
  const packSize = Number(/^size-pack: (\d+)/m.exec(packs)?.[1] ?? 0) / 1024;
  out.push(`\ngit (repository of ${COMMITS} commits, ${FILES} files in ${FILES / PER_DIR} directories; built with fast-import in ${buildMs.toFixed(0)} ms,`);
  out.push(`  pushed to Anvil over HTTP in ${pushMs.toFixed(0)} ms; server copy as stored after the push: ${packCount} pack(s), ${packSize.toFixed(1)} MB)`);

  const bport = await freePort();
  const baseline = fork(join(here, 'gitbaseline.mjs'), [reposRoot, `${id}.git`, String(bport)], { stdio: 'ignore' });
  await new Promise((r) => baseline.once('message', r));
  const base = `http://127.0.0.1:${bport}`;
  try {
    // 2. Clone: Anvil over HTTP, git from file://, git http-backend behind a node CGI bridge; interleaved rounds.
    const sources = [
      ['anvil (HTTP)', cloneUrl],
      ['git file://', `file://${stored}`],
      ['git http-backend', `${base}/git/${id}.git`],
    ];
    const clones = Object.fromEntries(sources.map(([n]) => [n, []]));
    for (let round = 0; round < 3; round++)
      for (const [name, url] of sources) {
        const dest = join(dir, `clone-${round}-${name.replace(/\W+/g, '')}.git`);
        const [ms] = await timedGit(['clone', '-q', '--bare', url, dest]);
        clones[name].push(ms);
        if (round === 0) {
          const n = Number(git(['--git-dir', dest, 'rev-list', '--count', 'main']).trim());
          if (n !== COMMITS) throw new Error(`clone from ${name} has ${n} commits, not ${COMMITS}`);
        }
        rmSync(dest, { recursive: true, force: true });
      }
    out.push(`\nclone (git clone --bare, 3 runs each, interleaved; median)`);
    for (const [name] of sources) out.push(`  ${name.padEnd(20)} ${clones[name].map((x) => x.toFixed(0)).join(', ').padEnd(20)} median ${median(clones[name]).toFixed(0)} ms`);
    const anvilClone = median(clones['anvil (HTTP)']);
    out.push(`  ratio anvil / file://          ${(anvilClone / median(clones['git file://'])).toFixed(2)} (target <= 1.1)`);
    out.push(`  ratio anvil / http-backend     ${(anvilClone / median(clones['git http-backend'])).toFixed(2)} (target <= 1.1)`);

    // 3. Archive of the 5,000-file tree: Anvil cold (first requests) and warm (repeated requests) against git archive.
    out.push(`\narchive main.tar.gz (${FILES} files)`);
    await timedGit(['--git-dir', stored, 'archive', '--format=tar.gz', 'main']); // page cache, same for both
    const archiveUrl = `${rootUrl}api/v1/repos/bench/big/archive/main.tar.gz`;
    const cold = await timedFetch(archiveUrl);
    if (cold.status === 404) out.push('  skipped: archive endpoint not available');
    else {
      if (cold.status !== 200 || cold.body[0] !== 0x1f || cold.body[1] !== 0x8b) throw new Error(`archive: ${cold.status} ${cold.body.subarray(0, 200).toString()}`);
      const warmRuns = [];
      for (let i = 0; i < 5; i++) {
        const warm = await timedFetch(archiveUrl);
        if (warm.status !== 200 || !warm.body.equals(cold.body)) throw new Error(`archive (warm): ${warm.status}`);
        warmRuns.push(warm.ms);
      }
      const warmMs = median(warmRuns);
      // Cold builds of other commits (each a first request for its archive), interleaved with the two git
      // baselines: git's built-in gzip, and the issue's `git archive | gzip` (a shell pipeline, as typed).
      const builtin = [];
      const piped = [];
      const colds = [cold.ms];
      let gitBytes = 0;
      const pipeline = `git --git-dir '${stored}' archive --format=tar main | gzip -n`;
      for (let i = 1; i <= 8; i++) {
        const [ms, bytes] = await timedGit(['--git-dir', stored, 'archive', '--format=tar.gz', 'main']);
        builtin.push(ms);
        gitBytes = bytes;
        piped.push(await timedShell(pipeline));
        const sha = git(['--git-dir', stored, 'rev-parse', `main~${i}`]).trim();
        const r = await timedFetch(`${rootUrl}api/v1/repos/bench/big/archive/${sha}.tar.gz`);
        if (r.status !== 200 || r.body[0] !== 0x1f || r.body[1] !== 0x8b) throw new Error(`archive (main~${i}): ${r.status}`);
        colds.push(r.ms);
      }
      const c = median(colds);
      const g = median(builtin);
      const p = median(piped);
      const list = (xs) => xs.map((x) => x.toFixed(0)).join(', ').padEnd(26);
      out.push(`  git archive --format=tar.gz    ${list(builtin)} median ${g.toFixed(1)} ms (${(gitBytes / 1024).toFixed(0)} KB)`);
      out.push(`  git archive | gzip -n          ${list(piped)} median ${p.toFixed(1)} ms`);
      out.push(`  anvil cold (first requests)    ${list(colds)} median ${c.toFixed(1)} ms (${(cold.body.length / 1024).toFixed(0)} KB)`);
      out.push(`  anvil warm (cached)            ${list(warmRuns)} median ${warmMs.toFixed(1)} ms`);
      out.push(`  ratio cold / git archive | gzip  ${(c / p).toFixed(2)} median (target <= 1.2); / --format=tar.gz ${(c / g).toFixed(2)}; very first request ${(cold.ms / p).toFixed(2)}`);
      out.push(`  speed-up warm vs cold          ${(c / warmMs).toFixed(1)}x medians (target >= 10)`);
    }

    // 4. Commits: GET /commits?limit=50 against git log -n 50 (served by the baseline; also spawned here).
    const seq = async (url, n, check) => {
      const first = await timedFetch(url);
      check(first);
      for (let i = 0; i < 3; i++) check(await timedFetch(url));
      const xs = [];
      for (let i = 0; i < n; i++) {
        const r = await timedFetch(url);
        check(r);
        xs.push(r.ms);
      }
      return { first: first.ms, median: median(xs) };
    };
    const fifty = (what) => (r) => {
      if (r.status !== 200) throw new Error(`${what}: ${r.status} ${r.body.subarray(0, 200).toString()}`);
      const n = JSON.parse(r.body.toString()).length;
      if (n !== 50) throw new Error(`${what}: ${n} commits, not 50`);
    };
    const commitsUrl = `${rootUrl}api/v1/repos/bench/big/commits?limit=50`;
    const aCommits = await seq(commitsUrl, 20, fifty('anvil commits'));
    const aCommitsLean = await seq(`${commitsUrl}&stat=false&verification=false&files=false`, 20, fifty('anvil commits (lean)'));
    const bCommits = await seq(`${base}/log?n=50`, 20, fifty('baseline log'));
    const spawnLog = [];
    for (let i = 0; i < 23; i++) {
      const [ms] = await timedGit(['--git-dir', stored, 'log', '-n', '50', '--format=%H%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%P%x00%B%x1e', 'main']);
      if (i >= 3) spawnLog.push(ms);
    }
    out.push(`\ncommits (limit=50; first request, then median of 20 after 3 warm-up requests)`);
    const row = (label, r) => `  ${label.padEnd(52)} first ${r.first.toFixed(1).padStart(6)} ms   median ${r.median.toFixed(1).padStart(6)} ms`;
    out.push(row('anvil GET /commits?limit=50', aCommits));
    out.push(row('anvil ...&stat=false&verification=false&files=false', aCommitsLean));
    out.push(row('baseline HTTP, git log -n 50 spawned per request', bCommits));
    out.push(`  ${'git log -n 50 spawned from node (no HTTP)'.padEnd(52)}                median ${median(spawnLog).toFixed(1).padStart(6)} ms`);
    out.push(`  ratio anvil / baseline HTTP (median)  ${(aCommits.median / bCommits.median).toFixed(2)} (target <= 1.5); lean ${(aCommitsLean.median / bCommits.median).toFixed(2)}; cold (first requests) ${(aCommits.first / bCommits.first).toFixed(2)}`);
    out.push(`  ratio anvil / git log spawn (median)  ${(aCommits.median / median(spawnLog)).toFixed(2)} (target <= 1.5)`);

    // 5. Contents of one file against a git cat-file -p <sha> per request.
    const fileIdx = 2450;
    const path = filePath(fileIdx);
    const blob = git(['--git-dir', stored, 'rev-parse', `main:${path}`]).trim();
    const expected = git(['--git-dir', stored, 'cat-file', '-p', blob]);
    const sameContent = (what) => (r) => {
      if (r.status !== 200) throw new Error(`${what}: ${r.status} ${r.body.subarray(0, 200).toString()}`);
      const j = JSON.parse(r.body.toString());
      if (Buffer.from(j.content, 'base64').toString() !== expected) throw new Error(`${what}: wrong content`);
    };
    const contentsUrl = `${rootUrl}api/v1/repos/bench/big/contents/${path}`;
    const catUrl = `${base}/cat/${blob}?path=${encodeURIComponent(path)}`;
    const aContents = await seq(contentsUrl, 200, sameContent('anvil contents'));
    const bContents = await seq(catUrl, 200, sameContent('baseline cat-file'));
    const aLoad = await load(contentsUrl, 8);
    const bLoad = await load(catUrl, 8);
    out.push(`\ncontents of ${path} (${expected.length} bytes; sequential: median of 200 after 3 warm-up; then ${seconds}s at 8 connections)`);
    out.push(`  anvil GET /contents/{file}                 first ${aContents.first.toFixed(2).padStart(7)} ms   median ${aContents.median.toFixed(2).padStart(6)} ms   8 conns ${aLoad.rps.toFixed(0).padStart(6)} req/s (p50 ${aLoad.p50} ms, p99 ${aLoad.p99} ms)`);
    out.push(`  baseline HTTP, git cat-file -p per request first ${bContents.first.toFixed(2).padStart(7)} ms   median ${bContents.median.toFixed(2).padStart(6)} ms   8 conns ${bLoad.rps.toFixed(0).padStart(6)} req/s (p50 ${bLoad.p50} ms, p99 ${bLoad.p99} ms)`);
    out.push(`  speed-up sequential (baseline / anvil median) ${(bContents.median / aContents.median).toFixed(1)}x, at 8 conns (anvil / baseline req/s) ${(aLoad.rps / bLoad.rps).toFixed(1)}x (target >= 3)`);
  } finally {
    baseline.kill();
  }
  return out;
}
