import { describe, it, expect, afterAll, beforeAll } from '@jest/globals';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { advertiseRefs, FLUSH_PKT, isGitService, pktLine, sanitizeGitProtocol, serviceRpc, type SmartHttpResult } from '../../src/git/smarthttp.js';
import { commitFiles, initBare, resolveRevision, countCommits } from '../../src/git/repo.js';
import { listBranches } from '../../src/git/branches.js';
import { cleanupTmp, clientEnv, eventually, git, gitOk, processesMatching, tmp } from './helpers.js';

afterAll(cleanupTmp);

const author = { name: 'Server', email: 'server@example.com', when: new Date('2024-03-01T00:00:00Z') };

interface Seen {
  method: string;
  path: string;
  protocol: string | undefined;
}

/** A tiny smart-HTTP server for the repositories in `repos` (URL name -> path). */
async function startGitServer(repos: Record<string, string>, hooks?: { dir: string; env: Record<string, string> }) {
  const seen: Seen[] = [];
  const results: SmartHttpResult[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const m = /^\/([^/]+?)(?:\.git)?\/(info\/refs|git-upload-pack|git-receive-pack)$/.exec(url.pathname);
    const repo = m ? repos[m[1]!] : undefined;
    const protocol = req.headers['git-protocol'] as string | undefined;
    seen.push({ method: req.method ?? '', path: url.pathname + url.search, protocol });
    if (!m || !repo) {
      res.writeHead(404).end('not found');
      return;
    }
    const config = hooks ? { 'core.hooksPath': hooks.dir } : undefined;
    if (req.method === 'GET' && m[2] === 'info/refs') {
      const service = url.searchParams.get('service');
      if (!isGitService(service)) {
        res.writeHead(403).end('dumb protocol not supported');
        return;
      }
      void advertiseRefs(repo, service, protocol, res, { config }).then((r) => results.push(r));
      return;
    }
    if (req.method === 'POST' && isGitService(m[2])) {
      void serviceRpc(repo, m[2], req, res, protocol, hooks?.env, { config }).then((r) => results.push(r));
      return;
    }
    res.writeHead(405).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    seen,
    results,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('pkt-line helpers', () => {
  it('encodes pkt-lines and sanitizes Git-Protocol', () => {
    expect(pktLine('# service=git-upload-pack\n').toString()).toBe('001e# service=git-upload-pack\n');
    expect(FLUSH_PKT.toString()).toBe('0000');
    expect(sanitizeGitProtocol('version=2')).toBe('version=2');
    expect(sanitizeGitProtocol('version=2:object-format=sha256')).toBe('version=2:object-format=sha256');
    expect(sanitizeGitProtocol(['version=2'])).toBe('version=2');
    expect(sanitizeGitProtocol('version=2\nGIT_DIR=/')).toBeUndefined();
    expect(sanitizeGitProtocol('version=2 x')).toBeUndefined();
    expect(sanitizeGitProtocol('version=2:')).toBeUndefined();
    expect(sanitizeGitProtocol('=2')).toBeUndefined();
    expect(sanitizeGitProtocol('')).toBeUndefined();
    expect(sanitizeGitProtocol(undefined)).toBeUndefined();
    expect(isGitService('git-upload-pack')).toBe(true);
    expect(isGitService('git-upload-archive')).toBe(false);
  });
});

describe('smart HTTP', () => {
  let repo: string;
  let srv: Awaited<ReturnType<typeof startGitServer>>;
  let marker: string;
  let initial: string;

  beforeAll(async () => {
    repo = join(await tmp(), 'srv', 'repo.git');
    await initBare(repo, { defaultBranch: 'main' });
    initial = await commitFiles(repo, { branch: 'main', files: [{ path: 'README.md', content: '# repo\n' }, { path: 'src/a.txt', content: 'a\n' }], message: 'init', author });
    // A pre-receive hook, enabled through the `config` option, sees the caller's env and can refuse.
    const hooks = join(await tmp(), 'hooks');
    await mkdir(hooks);
    marker = join(hooks, 'pushed-by');
    await writeFile(
      join(hooks, 'pre-receive'),
      `#!/bin/sh\nprintf '%s\\n' "$ANVIL_PUSHER" >> '${marker}'\nwhile read old new ref; do\n  if [ "$ref" = refs/heads/blocked ]; then echo "pushes to blocked are refused"; exit 1; fi\ndone\n`,
    );
    await chmod(join(hooks, 'pre-receive'), 0o755);
    srv = await startGitServer({ repo }, { dir: hooks, env: { ANVIL_PUSHER: 'alice' } });
  });
  afterAll(() => srv.close());

  it('advertises refs for v0 with the "# service" header and for v2 without it, like git http-backend', async () => {
    const v0 = await fetch(`${srv.base}/repo.git/info/refs?service=git-upload-pack`);
    expect(v0.status).toBe(200);
    expect(v0.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
    expect(v0.headers.get('cache-control')).toBe('no-cache, max-age=0, must-revalidate');
    expect(v0.headers.get('expires')).toBe('Fri, 01 Jan 1980 00:00:00 GMT');
    const body0 = await v0.text();
    expect(body0.startsWith('001e# service=git-upload-pack\n0000')).toBe(true);
    expect(body0).toContain(`${initial} HEAD\0`);
    expect(body0).toContain(`${initial} refs/heads/main\n`);
    expect(body0.endsWith('0000')).toBe(true);

    const v2 = await fetch(`${srv.base}/repo.git/info/refs?service=git-upload-pack`, { headers: { 'Git-Protocol': 'version=2' } });
    expect(v2.status).toBe(200);
    const body2 = await v2.text();
    expect(body2.startsWith('000eversion 2\n')).toBe(true);
    expect(body2).toContain('ls-refs');
    expect(body2).toContain('fetch=');
    expect(body2).not.toContain('# service=');

    // receive-pack has no v2: the header stays.
    const rp = await fetch(`${srv.base}/repo.git/info/refs?service=git-receive-pack`, { headers: { 'Git-Protocol': 'version=2' } });
    expect(rp.headers.get('content-type')).toBe('application/x-git-receive-pack-advertisement');
    const bodyRp = await rp.text();
    expect(bodyRp.startsWith('001f# service=git-receive-pack\n0000')).toBe(true);
    expect(bodyRp).toContain(`${initial} refs/heads/main\0`);
    expect(bodyRp).toContain('report-status');
  });

  it('answers a v2 ls-refs request, plain and gzipped', async () => {
    const body = Buffer.concat([pktLine('command=ls-refs\n'), Buffer.from('0001'), pktLine('symrefs\n'), FLUSH_PKT]);
    for (const gz of [false, true]) {
      const res = await fetch(`${srv.base}/repo.git/git-upload-pack`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-git-upload-pack-request',
          'Git-Protocol': 'version=2',
          ...(gz ? { 'Content-Encoding': 'gzip' } : {}),
        },
        body: gz ? gzipSync(body) : body,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/x-git-upload-pack-result');
      const text = await res.text();
      expect(text).toContain(`${initial} HEAD symref-target:refs/heads/main\n`);
      expect(text).toContain(`${initial} refs/heads/main\n`);
      expect(text.endsWith('0000')).toBe(true);
    }
  });

  it('refuses unknown encodings with 415 and corrupt gzip with 400', async () => {
    const r415 = await fetch(`${srv.base}/repo.git/git-upload-pack`, { method: 'POST', headers: { 'Content-Encoding': 'br' }, body: 'x' });
    expect(r415.status).toBe(415);
    expect(await r415.text()).toBe('Unsupported Content-Encoding\n');
    const r400 = await fetch(`${srv.base}/repo.git/git-upload-pack`, {
      method: 'POST',
      headers: { 'Content-Encoding': 'gzip', 'Git-Protocol': 'version=2' },
      body: Buffer.from('definitely not gzip'),
    });
    expect(r400.status).toBe(400);
    expect(await r400.text()).toBe('Bad request body\n');
  });

  it.each(['0', '2'])('clone, commit, push and fetch with the stock git client (protocol.version=%s)', async (version) => {
    const env = await clientEnv();
    const work = await tmp();
    const url = `${srv.base}/repo.git`;
    const before = srv.seen.length;
    const c = ['-c', `protocol.version=${version}`];
    await gitOk([...c, 'clone', '--quiet', url, 'one'], { cwd: work, env });
    await gitOk([...c, 'clone', '--quiet', url.replace(/\.git$/, ''), 'two'], { cwd: work, env });
    const one = join(work, 'one');
    const two = join(work, 'two');
    expect(await readFile(join(one, 'src', 'a.txt'), 'utf8')).toBe('a\n');

    await writeFile(join(one, `v${version}.txt`), `pushed over v${version}\n`);
    await gitOk(['add', '.'], { cwd: one, env });
    await gitOk(['commit', '--quiet', '-m', `push v${version}`], { cwd: one, env });
    const head = await gitOk(['rev-parse', 'HEAD'], { cwd: one, env });
    const push = await git([...c, 'push', 'origin', 'main', `main:refs/heads/side-${version}`], { cwd: one, env });
    expect(push.code).toBe(0);
    expect(await resolveRevision(repo, 'main')).toBe(head);
    expect(await resolveRevision(repo, `side-${version}`)).toBe(head);
    expect((await listBranches(repo)).map((b) => b.name)).toContain(`side-${version}`);

    await gitOk([...c, 'fetch', '--quiet', 'origin'], { cwd: two, env });
    expect(await gitOk(['rev-parse', 'origin/main'], { cwd: two, env })).toBe(head);
    expect(await gitOk(['show', `origin/main:v${version}.txt`], { cwd: two, env })).toBe(`pushed over v${version}`);

    // Force push (non-fast-forward allowed) and branch deletion.
    await gitOk(['reset', '--quiet', '--hard', 'HEAD~1'], { cwd: one, env });
    await gitOk([...c, 'push', '--quiet', '--force', 'origin', `HEAD:refs/heads/side-${version}`], { cwd: one, env });
    expect(await resolveRevision(repo, `side-${version}`)).toBe(await gitOk(['rev-parse', 'HEAD'], { cwd: one, env }));
    await gitOk([...c, 'push', '--quiet', 'origin', `:refs/heads/side-${version}`], { cwd: one, env });
    expect(await resolveRevision(repo, `side-${version}`)).toBeNull();

    // Partial clone: uploadpack.allowFilter is on.
    await gitOk([...c, 'clone', '--quiet', '--filter=blob:none', '--no-checkout', url, 'partial'], { cwd: work, env });
    expect(await gitOk(['rev-parse', 'origin/main'], { cwd: join(work, 'partial'), env })).toBe(head);

    const upload = srv.seen.slice(before).filter((s) => s.path.endsWith('git-upload-pack'));
    expect(upload.length).toBeGreaterThan(0);
    for (const s of upload) expect(s.protocol).toBe(version === '2' ? 'version=2' : undefined);
    // git exited 0 for every exchange of this round.
    expect(srv.results.every((r) => r.code === 0 || r.code === null)).toBe(true);
  });

  it('passes env to receive-pack hooks, whose refusal reaches the client', async () => {
    const env = await clientEnv();
    const work = await tmp();
    await gitOk(['clone', '--quiet', `${srv.base}/repo.git`, 'w'], { cwd: work, env });
    const w = join(work, 'w');
    await writeFile(join(w, 'blocked.txt'), 'x');
    await gitOk(['add', '.'], { cwd: w, env });
    await gitOk(['commit', '--quiet', '-m', 'blocked'], { cwd: w, env });
    const commits = await countCommits(repo, 'main');
    const refused = await git(['push', 'origin', 'HEAD:refs/heads/blocked'], { cwd: w, env });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('remote: pushes to blocked are refused');
    expect(refused.stderr).toContain('pre-receive hook declined');
    expect(await resolveRevision(repo, 'blocked')).toBeNull();
    const ok = await git(['push', 'origin', 'HEAD:refs/heads/allowed'], { cwd: w, env });
    expect(ok.code).toBe(0);
    expect(await countCommits(repo, 'allowed')).toBe(commits + 1);
    const pushers = (await readFile(marker, 'utf8')).trim().split('\n');
    expect(pushers.length).toBeGreaterThanOrEqual(2);
    expect(new Set(pushers)).toEqual(new Set(['alice']));
  });

  it('kills git when the client disconnects mid-request', async () => {
    const resultsBefore = srv.results.length;
    const req = request(`${srv.base}/repo.git/git-upload-pack`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-git-upload-pack-request', 'Transfer-Encoding': 'chunked' },
    });
    req.on('error', () => undefined);
    req.write(pktLine(`want ${initial} multi_ack_detailed side-band-64k\n`));
    // upload-pack waits for the rest of the request, which never comes.
    expect(await eventually(async () => (await processesMatching(repo)).length > 0)).toBe(true);
    req.destroy();
    expect(await eventually(async () => (await processesMatching(repo)).length === 0)).toBe(true);
    expect(await eventually(async () => srv.results.length > resultsBefore)).toBe(true);
    const last = srv.results[srv.results.length - 1]!;
    expect(last.clientGone).toBe(true);
    expect(last.code).toBeNull();
  });
});
