// repoApplyDiffPatch: a unified diff applied on a temporary index and committed with a compare-and-swap.
import { it, expect, beforeAll, afterAll } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describeDb, startServer, uniqueName, type TestServer, type TestUser } from '../../helpers/server.js';

const PATCH = ['diff --git a/README.md b/README.md', '--- a/README.md', '+++ b/README.md', '@@ -1,3 +1,3 @@', ' # NAME', ' ', '-', '+patched line', ''].join('\n');
const NEW_FILE = ['diff --git a/docs/new.txt b/docs/new.txt', 'new file mode 100644', '--- /dev/null', '+++ b/docs/new.txt', '@@ -0,0 +1,2 @@', '+one', '+two', ''].join('\n');
const newFile = (path: string) =>
  [`diff --git a/${path} b/${path}`, 'new file mode 100644', '--- /dev/null', `+++ b/${path}`, '@@ -0,0 +1 @@', '+x', ''].join('\n');

/** Git's base85 hunk lines: a length letter (A-Z 1..26, a-z 27..52), then the bytes in groups of four as five characters. */
const B85 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~';
function base85Lines(data: Buffer): string[] {
  const lines: string[] = [];
  for (let off = 0; off < data.length; off += 52) {
    const chunk = data.subarray(off, off + 52);
    const padded = Buffer.concat([chunk, Buffer.alloc((4 - (chunk.length % 4)) % 4)]);
    let line = chunk.length <= 26 ? String.fromCharCode(64 + chunk.length) : String.fromCharCode(96 + chunk.length - 26);
    for (let g = 0; g < padded.length; g += 4) {
      let v = padded.readUInt32BE(g);
      const group: string[] = [];
      for (let k = 0; k < 5; k++) {
        group.unshift(B85[v % 85]!);
        v = Math.floor(v / 85);
      }
      line += group.join('');
    }
    lines.push(line);
  }
  return lines;
}
/** A `GIT binary patch` hunk as git writes it. */
const binaryHunk = (kind: 'literal' | 'delta', inflatedSize: number, deflated: Buffer) => [`${kind} ${inflatedSize}`, ...base85Lines(deflated), ''];
/** A git delta header: base size and result size as little-endian base-128 varints. */
function varint(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

interface FileResp {
  content: null;
  commit: { sha: string; message: string; author: { name: string; email: string }; parents: { sha: string }[] };
  verification: { verified: boolean };
}

describeDb('repoApplyDiffPatch', () => {
  let s: TestServer;
  let owner: TestUser;
  let reader: TestUser;
  let repo: string;
  const err = (message: string) => ({ message, url: `${s.url}/api/swagger` });
  const readme = async (ref: string) => {
    const r = await s.client.get<{ content: string }>(`/repos/${owner.name}/${repo}/contents/README.md?ref=${ref}`, { token: owner.token });
    return Buffer.from(r.body.content, 'base64').toString('utf8');
  };
  const patch = (body: Record<string, unknown>, token = owner.token, name = repo) =>
    s.client.post<FileResp>(`/repos/${owner.name}/${name}/diffpatch`, { sha: 'ignored', ...body }, { token });

  beforeAll(async () => {
    s = await startServer();
    owner = await s.createUser();
    reader = await s.createUser();
    repo = uniqueName('dp');
    expect((await s.client.post('/user/repos', { name: repo, auto_init: true }, { token: owner.token })).status).toBe(201);
  });
  afterAll(async () => s?.close());

  it('applies a diff to the default branch and answers 201 with the commit', async () => {
    const before = await readme('main');
    expect(before).toBe(`# ${repo}\n\n\n`);
    const r = await patch({ content: PATCH.replace('NAME', repo), message: 'Patch it' });
    expect(r.status).toBe(201);
    expect(r.body.content).toBeNull();
    expect(r.body.commit.message).toBe('Patch it\n');
    expect(r.body.commit.author.name).toBe(owner.name);
    expect(r.body.verification.verified).toBe(false);
    expect(await readme('main')).toBe(`# ${repo}\n\npatched line\n`);
    const branch = await s.client.get<{ commit: { id: string } }>(`/repos/${owner.name}/${repo}/branches/main`, { token: owner.token });
    expect(branch.body.commit.id).toBe(r.body.commit.sha);
  });

  it('commits onto a new branch with the default message; base64 content is accepted too', async () => {
    const r = await patch({ content: Buffer.from(NEW_FILE).toString('base64'), new_branch: 'feature' });
    expect(r.status).toBe(201);
    expect(r.body.commit.message).toBe('apply-patch\n');
    const f = await s.client.get<{ content: string }>(`/repos/${owner.name}/${repo}/contents/docs/new.txt?ref=feature`, { token: owner.token });
    expect(Buffer.from(f.body.content, 'base64').toString()).toBe('one\ntwo\n');
    expect((await s.client.get(`/repos/${owner.name}/${repo}/contents/docs/new.txt?ref=main`, { token: owner.token })).status).toBe(404);
    // The new branch exists now: a second time is refused.
    const again = await patch({ content: NEW_FILE, new_branch: 'feature' });
    expect(again.status).toBe(422);
    expect(again.body).toEqual(err('branch already exists [name: feature]'));
  });

  it('refuses a diff that does not apply, and garbage, with 422 and leaves the branch alone', async () => {
    const head = (await s.client.get<{ commit: { id: string } }>(`/repos/${owner.name}/${repo}/branches/main`, { token: owner.token })).body.commit.id;
    const stale = await patch({ content: PATCH.replace('NAME', 'something else') });
    expect(stale.status).toBe(422);
    expect((stale.body as unknown as { message: string }).message).toMatch(/^patch does not apply: .*README\.md/);
    const garbage = await patch({ content: 'not a diff at all' });
    expect(garbage.status).toBe(422);
    expect((garbage.body as unknown as { message: string }).message).toMatch(/^patch does not apply: /);
    const after = (await s.client.get<{ commit: { id: string } }>(`/repos/${owner.name}/${repo}/branches/main`, { token: owner.token })).body.commit.id;
    expect(after).toBe(head);
  });

  it('refuses paths with .git components, .. and absolute paths; nothing reaches the disk', async () => {
    for (const bad of ['.git/hooks/pre-receive', '.GIT/config', 'a/../../escape.txt', 'sub/.git/x']) {
      const r = await patch({ content: newFile(bad) });
      expect(r.status).toBe(422);
      expect((r.body as unknown as { message: string }).message).toMatch(/^(patch does not apply|path contains a malformed path component)/);
    }
    const abs = await patch({ content: newFile('/tmp/abs.txt') });
    expect(abs.status).toBe(422);
    expect((abs.body as unknown as { message: string }).message).toMatch(/^patch does not apply: invalid path/);
    // A plain diff naming /tmp/x.txt is stripped of its first component like `git apply -p1` does: a tree path.
    const plain = await patch({ content: ['--- /dev/null', '+++ /tmp/plain.txt', '@@ -0,0 +1 @@', '+x', ''].join('\n'), new_branch: 'plain' });
    expect(plain.status).toBe(201);
    expect((await s.client.get(`/repos/${owner.name}/${repo}/contents/tmp/plain.txt?ref=plain`, { token: owner.token })).status).toBe(200);
    expect(existsSync(join(s.dir, 'escape.txt'))).toBe(false);
  });

  it('refuses binary hunks that expand beyond the limit (literal and delta bombs) before git runs; real binary patches apply', async () => {
    const head = (await s.client.get<{ commit: { id: string } }>(`/repos/${owner.name}/${repo}/branches/main`, { token: owner.token })).body.commit.id;
    // 100 MB of zeros deflate to about 100 KB: a small request that would make git build a 100 MB blob.
    const zeros = Buffer.alloc(100 * 1024 * 1024);
    const bomb = [
      'diff --git a/bomb.bin b/bomb.bin',
      'new file mode 100644',
      `index 0000000000000000000000000000000000000000..${createHash('sha1').update(`blob ${zeros.length}\0`).update(zeros).digest('hex')}`,
      'GIT binary patch',
      ...binaryHunk('literal', zeros.length, deflateSync(zeros, { level: 9 })),
      ...binaryHunk('literal', 0, deflateSync(Buffer.alloc(0))),
      '',
    ].join('\n');
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const r1 = await patch({ content: bomb });
    expect(r1.status).toBe(422);
    expect(r1.body).toEqual(err('patch does not apply: binary changes larger than 67108864 bytes are not accepted'));
    // A delta of a few bytes whose header asks for a 1 TB result (copying an existing blob over and over).
    const current = (await s.client.get<{ sha: string; size: number }>(`/repos/${owner.name}/${repo}/contents/README.md`, { token: owner.token })).body;
    // Copy instructions (0x90 n: copy n bytes from offset 0) repeated would fill the declared size.
    const delta = Buffer.from([...varint(current.size), ...varint(2 ** 40), ...Array<number[]>(64).fill([0x90, current.size]).flat()]);
    const deltaBomb = [
      'diff --git a/README.md b/README.md',
      `index ${current.sha}..2222222222222222222222222222222222222222 100644`,
      'GIT binary patch',
      ...binaryHunk('delta', delta.length, deflateSync(delta)),
      ...binaryHunk('literal', 0, deflateSync(Buffer.alloc(0))),
      '',
    ].join('\n');
    const r2 = await patch({ content: deltaBomb });
    expect(r2.status).toBe(422);
    expect(r2.body).toEqual(err('patch does not apply: binary changes larger than 67108864 bytes are not accepted'));
    const after = (await s.client.get<{ commit: { id: string } }>(`/repos/${owner.name}/${repo}/branches/main`, { token: owner.token })).body.commit.id;
    expect(after).toBe(head);

    // Patches made by `git diff --binary` (a literal new file, then a delta change of it) still apply.
    const work = mkdtempSync(join(tmpdir(), 'anvil-binpatch-'));
    try {
      const g = (...args: string[]) => {
        const res = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@e', ...args], { cwd: work, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: work, GIT_CONFIG_NOSYSTEM: '1' } });
        expect(res.status).toBe(0);
        return res.stdout;
      };
      g('init', '-q');
      const blob = Buffer.alloc(8192);
      for (let i = 0; i < blob.length; i++) blob[i] = (i * 7919) % 251;
      writeFileSync(join(work, 'data.bin'), blob);
      g('add', 'data.bin');
      const created = g('diff', '--cached', '--binary');
      g('commit', '-qm', 'one');
      blob[100] = 1;
      writeFileSync(join(work, 'data.bin'), blob);
      const changed = g('diff', '--binary');
      expect(created).toMatch(/^literal 8192$/m);
      expect(changed).toMatch(/^delta \d+$/m);
      const c1 = await patch({ content: created, new_branch: 'bin' });
      expect(c1.status).toBe(201);
      const c2 = await patch({ content: changed, branch: 'bin' });
      expect(c2.status).toBe(201);
      const file = await s.client.get<{ content: string }>(`/repos/${owner.name}/${repo}/contents/data.bin?ref=bin`, { token: owner.token });
      expect(Buffer.compare(Buffer.from(file.body.content, 'base64'), blob)).toBe(0);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('stores symlinks and submodule entries as tree data; a patch through a symlink reaches nothing outside', async () => {
    const gitlink = [
      'diff --git a/sub b/sub',
      'new file mode 160000',
      'index 0000000000000000000000000000000000000000..1234567890123456789012345678901234567890',
      '--- /dev/null',
      '+++ b/sub',
      '@@ -0,0 +1 @@',
      '+Subproject commit 1234567890123456789012345678901234567890',
      '',
    ].join('\n');
    const symlink = ['diff --git a/out b/out', 'new file mode 120000', '--- /dev/null', '+++ b/out', '@@ -0,0 +1 @@', `+${s.dir}`, '\\ No newline at end of file', ''].join('\n');
    const r1 = await patch({ content: gitlink + symlink, new_branch: 'links' });
    expect(r1.status).toBe(201);
    const list = await s.client.get<{ name: string; type: string }[]>(`/repos/${owner.name}/${repo}/contents?ref=links`, { token: owner.token });
    expect(list.body.find((e) => e.name === 'sub')?.type).toBe('submodule');
    const link = await s.client.get<{ type: string; target: string }>(`/repos/${owner.name}/${repo}/contents/out?ref=links`, { token: owner.token });
    expect(link.status).toBe(200);
    expect(link.body).toMatchObject({ type: 'symlink', target: s.dir });
    // A file "inside" the symlink is refused by git apply (it is beyond a symbolic link), and nothing is written.
    const through = await patch({ content: newFile('out/pwned.txt'), branch: 'links' });
    expect(through.status).toBe(422);
    expect(existsSync(join(s.dir, 'pwned.txt'))).toBe(false);
  });

  it('honours branch protection when committing onto a protected branch, not onto a new branch from it', async () => {
    const created = await patch({ content: newFile('prot.txt'), new_branch: 'prot' });
    expect(created.status).toBe(201);
    const rule = await s.client.post(`/repos/${owner.name}/${repo}/branch_protections`, { rule_name: 'prot', enable_push: false }, { token: owner.token });
    expect(rule.status).toBe(201);
    const refused = await patch({ content: newFile('more.txt'), branch: 'prot' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(err(`user cannot commit to repo [user: ${owner.name.toLowerCase()}]`));
    const elsewhere = await patch({ content: newFile('more.txt'), branch: 'prot', new_branch: 'from-prot' });
    expect(elsewhere.status).toBe(201);
  });

  it('checks branch, access and the required body', async () => {
    const missing = await patch({ content: PATCH, branch: 'nope' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(err('branch does not exist [name: nope]'));
    const ro = await patch({ content: PATCH }, reader.token);
    expect(ro.status).toBe(403);
    expect(ro.body).toEqual(err('user should have a permission to write to a repo'));
    const anon = await s.client.post(`/repos/${owner.name}/${repo}/diffpatch`, { sha: 'x', content: PATCH });
    expect(anon.status).toBe(401);
    const noContent = await s.client.post(`/repos/${owner.name}/${repo}/diffpatch`, { sha: 'x' }, { token: owner.token });
    expect(noContent.status).toBe(422);
  });

  it('is 423 on an archived repository and 404 for a repository the caller cannot see', async () => {
    const name = uniqueName('dpa');
    expect((await s.client.post('/user/repos', { name, auto_init: true, private: true }, { token: owner.token })).status).toBe(201);
    const hidden = await patch({ content: PATCH }, reader.token, name);
    expect(hidden.status).toBe(404);
    expect((await s.client.patch(`/repos/${owner.name}/${name}`, { archived: true }, { token: owner.token })).status).toBe(200);
    const r = await patch({ content: PATCH }, owner.token, name);
    expect(r.status).toBe(423);
  });
});
