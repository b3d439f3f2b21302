import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface GeneratedKey {
  /** The authorized_keys line written by ssh-keygen: `type base64 comment`. */
  readonly line: string;
  readonly type: string;
  readonly base64: string;
  readonly comment: string;
  /** `SHA256:...` as `ssh-keygen -l -E sha256` prints it (computed independently of our parser). */
  readonly fingerprint: string;
}

let n = 0;

/** A fresh key pair made by OpenSSH's ssh-keygen in a temp dir (removed at once); only the public half is kept. */
export function generateSshKey(type: 'ed25519' | 'ecdsa' | 'rsa' = 'ed25519', bits?: number): GeneratedKey {
  const dir = mkdtempSync(join(tmpdir(), 'anvil-key-'));
  try {
    const file = join(dir, 'id');
    const comment = `test-${process.pid}-${n++}@anvil`;
    const args = ['-q', '-t', type, '-N', '', '-C', comment, '-f', file];
    if (bits !== undefined) args.push('-b', String(bits));
    const gen = spawnSync('ssh-keygen', args, { encoding: 'utf8' });
    if (gen.status !== 0) throw new Error(`ssh-keygen failed: ${gen.stderr}`);
    const line = readFileSync(`${file}.pub`, 'utf8').trim();
    const fp = spawnSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`], { encoding: 'utf8' });
    if (fp.status !== 0) throw new Error(`ssh-keygen -l failed: ${fp.stderr}`);
    const fingerprint = fp.stdout.trim().split(/\s+/)[1] ?? '';
    const [keyType = '', base64 = ''] = line.split(' ');
    return { line, type: keyType, base64, comment, fingerprint };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
