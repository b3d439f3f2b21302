#!/usr/bin/env node
// npm run bench: Anvil against two baselines answering the same lookups with the same JSON, measured in
// one run on this machine; then routing+validation cost with 500 extra operations; then start-up time and
// memory; then git over HTTP, archives, commits and contents against the git CLI (git.mjs); then markdown
// rendering against plain marked (markdown.mjs). Prints ratios.
// Needs `npm run build` (npm ci does it).
import { spawn, fork, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import autocannon from 'autocannon';
import { measureRouting } from './routing.mjs';
import { benchGit } from './git.mjs';
import { benchWebhooks } from './webhooks.mjs';
import { benchMarkdown } from './markdown.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(root, 'dist', 'src', 'cli', 'bin.js');
if (!existsSync(bin)) {
  console.error('dist/ is missing: run npm run build first');
  process.exit(1);
}
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
// BENCH_ONLY=git,markdown (sections: http, routing, git, webhooks, markdown) runs part of it; start-up always runs.
const SECTIONS = ['http', 'routing', 'git', 'webhooks', 'markdown'];
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((x) => x.trim()).filter(Boolean)) : null;
for (const name of only ?? []) {
  if (!SECTIONS.includes(name)) {
    console.error(`BENCH_ONLY: unknown section ${name} (sections: ${SECTIONS.join(', ')})`);
    process.exit(2);
  }
}
const want = (section) => !only || only.has(section);
const dir = mkdtempSync(join(tmpdir(), 'anvil-bench-'));
const children = new Set();
process.on('exit', () => {
  for (const c of children) c.kill();
  rmSync(dir, { recursive: true, force: true });
});
const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });

const port = await freePort();
const rootUrl = `http://127.0.0.1:${port}/`;
const ini = join(dir, 'app.ini');
// Throughput is measured from one address far above the abuse limits, which the baselines do not have either.
writeFileSync(ini, `[server]\nAPP_DATA_PATH = ${dir}\nHTTP_ADDR = 127.0.0.1\nHTTP_PORT = ${port}\nROOT_URL = ${rootUrl}\n[log]\nLEVEL = info\n[rate_limit]\nENABLED = false\n`);
const cli = (...args) => execFileSync(process.execPath, [bin, ...args, '--config', ini], { encoding: 'utf8' }).trim();
cli('admin', 'user', 'create', '--username', 'bench', '--password', 'bench-password', '--email', 'bench@example.com', '--admin');
const token = cli('admin', 'user', 'generate-access-token', '--username', 'bench', '--token-name', 'bench', '--scopes', 'all', '--raw');
let repoCreated = false;

async function waitHealthy(url, deadlineMs = 10_000) {
  const start = performance.now();
  while (performance.now() - start < deadlineMs) {
    try {
      const r = await fetch(url);
      if (r.status === 200) return performance.now() - start;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`${url} not healthy in time`);
}
const rssMb = (pid) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

// Start-up: from spawn to a healthy /api/healthz (median of 3), and memory after start.
const startups = [];
let anvil;
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  anvil = spawn(process.execPath, [bin, 'web', '--config', ini], { stdio: ['ignore', 'ignore', 'inherit'] });
  children.add(anvil);
  await waitHealthy(`${rootUrl}api/healthz`);
  startups.push(performance.now() - t0);
  if (i < 2) {
    const exited = new Promise((r) => anvil.once('exit', r));
    anvil.kill('SIGTERM');
    await exited;
  }
}
const rssAfterStart = rssMb(anvil.pid);
{
  const r = await fetch(`${rootUrl}api/v1/user/repos`, {
    method: 'POST',
    headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'demo', auto_init: true, description: 'benchmark repository' }),
  });
  repoCreated = r.status === 201;
  if (!repoCreated) throw new Error(`creating the benchmark repository failed: ${r.status} ${await r.text()}`);
}

async function load(url, connections, headers = {}) {
  // warm-up, then measure
  await autocannon({ url, connections, duration: 1, headers });
  const r = await autocannon({ url, connections, duration: seconds, headers });
  if (r.non2xx > 0) throw new Error(`${url}: ${r.non2xx} non-2xx answers`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}
const scenarios = [
  { name: 'GET /api/v1/user (token)', path: '/api/v1/user', headers: { Authorization: `token ${token}` } },
  { name: 'GET /api/v1/users/{name}', path: '/api/v1/users/bench', headers: {} },
  { name: 'GET /api/v1/repos/{owner}/{repo}', path: '/api/v1/repos/bench/demo', headers: {} },
];

const results = {};
if (want('http')) for (const s of scenarios) for (const c of [1, 32]) results[`${s.name}|${c}|anvil`] = await load(`${rootUrl}${s.path.slice(1)}`, c, s.headers);
const rssAfterLoad = rssMb(anvil.pid);
const gitLines = want('git') ? await benchGit({ rootUrl, token, dir, seconds, load, freePort }) : [];
{
  const exited = new Promise((r) => anvil.once('exit', r));
  anvil.kill('SIGTERM');
  await exited;
}
for (const kind of want('http') ? ['bare', 'express'] : []) {
  const bport = await freePort();
  const child = fork(join(root, 'scripts', 'bench', 'baseline.mjs'), [kind, join(dir, 'anvil.db'), String(bport), rootUrl], { stdio: 'ignore' });
  children.add(child);
  await new Promise((r) => child.once('message', r));
  for (const s of scenarios) for (const c of [1, 32]) results[`${s.name}|${c}|${kind}`] = await load(`http://127.0.0.1:${bport}${s.path}`, c, s.headers);
  child.kill();
}

const fmt = (n, d = 0) => n.toFixed(d).padStart(8);
function printHttp() {
  console.log(`\nHTTP (${seconds}s per run after 1s warm-up; autocannon in this process, servers in child processes)`);
  console.log('scenario                              conns   server     req/s   p50 ms   p99 ms');
  for (const s of scenarios)
    for (const c of [1, 32])
      for (const k of ['anvil', 'express', 'bare']) {
        const r = results[`${s.name}|${c}|${k}`];
        console.log(`${s.name.padEnd(38)}${String(c).padStart(5)}   ${k.padEnd(8)}${fmt(r.rps)}${fmt(r.p50, 1)}${fmt(r.p99, 1)}`);
      }
  console.log('\nratios (anvil req/s / baseline req/s); target >= 0.8 against express');
  for (const s of scenarios)
    for (const c of [1, 32]) {
      const a = results[`${s.name}|${c}|anvil`].rps;
      console.log(
        `${s.name.padEnd(38)}${String(c).padStart(5)}   vs express ${(a / results[`${s.name}|${c}|express`].rps).toFixed(2)}   vs bare ${(a / results[`${s.name}|${c}|bare`].rps).toFixed(2)}`,
      );
    }
}
function printRouting() {
  const routing = measureRouting();
  console.log(`\nrouting + validation per request (find-my-way + compiled validators, mixed requests)`);
  console.log(`  ${routing.operations} operations: ${routing.perRequestUs.toFixed(2)} µs; table built in ${routing.buildSmallMs.toFixed(1)} ms`);
  console.log(`  ${routing.withSynthetic} operations: ${routing.perRequestLargeUs.toFixed(2)} µs; table built in ${routing.buildLargeMs.toFixed(1)} ms`);
  console.log(`  ratio ${(routing.perRequestLargeUs / routing.perRequestUs).toFixed(2)} (target <= 1.1)`);
}
if (want('http')) printHttp();
if (want('routing')) printRouting();
startups.sort((a, b) => a - b);
console.log(`\nstart-up: spawn to healthy /api/healthz ${startups.map((t) => t.toFixed(0)).join(', ')} ms (median ${startups[1].toFixed(0)} ms; target < 1000)`);
console.log(`resident memory: ${rssAfterStart.toFixed(1)} MB after start (target < 100), ${rssAfterLoad.toFixed(1)} MB after the load runs`);
for (const line of gitLines) console.log(line);
if (want('webhooks')) for (const line of await benchWebhooks()) console.log(line);
if (want('markdown')) for (const line of await benchMarkdown()) console.log(line);
