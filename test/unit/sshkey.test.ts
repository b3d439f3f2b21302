import { describe, it, expect, afterAll } from '@jest/globals';
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEFAULT_MINIMUM_KEY_SIZES,
  MAX_PUBLIC_KEY_INPUT_LENGTH,
  PublicKeyError,
  fingerprintOf,
  parsePublicKey,
} from '../../src/domain/sshkey.js';

// ---------------------------------------------------------------------------
// Independent helpers building OpenSSH wire blobs from node:crypto keys.

function str(data: Buffer | string): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data) : data;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length);
  return Buffer.concat([len, body]);
}

function mpint(unsigned: Buffer): Buffer {
  let b = unsigned;
  while (b.length > 0 && b[0] === 0) b = b.subarray(1);
  if (b.length > 0 && ((b[0] ?? 0) & 0x80) !== 0) b = Buffer.concat([Buffer.from([0]), b]);
  return str(b);
}

const curveNames: Record<string, string> = { 'P-256': 'nistp256', 'P-384': 'nistp384', 'P-521': 'nistp521' };

function ecPoint(pub: KeyObject): Buffer {
  const jwk = pub.export({ format: 'jwk' });
  return Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x ?? '', 'base64url'), Buffer.from(jwk.y ?? '', 'base64url')]);
}

function blobOf(pub: KeyObject): { type: string; blob: Buffer } {
  const jwk = pub.export({ format: 'jwk' });
  switch (pub.asymmetricKeyType) {
    case 'ed25519':
      return { type: 'ssh-ed25519', blob: Buffer.concat([str('ssh-ed25519'), str(Buffer.from(jwk.x ?? '', 'base64url'))]) };
    case 'rsa':
      return {
        type: 'ssh-rsa',
        blob: Buffer.concat([
          str('ssh-rsa'),
          mpint(Buffer.from(jwk.e ?? '', 'base64url')),
          mpint(Buffer.from(jwk.n ?? '', 'base64url')),
        ]),
      };
    case 'ec': {
      const curve = curveNames[jwk.crv ?? ''] ?? 'unknown';
      const type = 'ecdsa-sha2-' + curve;
      return { type, blob: Buffer.concat([str(type), str(curve), str(ecPoint(pub))]) };
    }
    default:
      throw new Error('unsupported test key');
  }
}

function line(type: string, blob: Buffer, comment?: string): string {
  return `${type} ${blob.toString('base64')}${comment ? ' ' + comment : ''}`;
}

function sha256Fingerprint(blob: Buffer): string {
  return 'SHA256:' + createHash('sha256').update(blob).digest('base64').replace(/=+$/, '');
}

function rfc4716(blob: Buffer, headers: string[], eol = '\n'): string {
  const b64 = blob.toString('base64');
  const body: string[] = [];
  for (let i = 0; i < b64.length; i += 70) body.push(b64.slice(i, i + 70));
  return ['---- BEGIN SSH2 PUBLIC KEY ----', ...headers, ...body, '---- END SSH2 PUBLIC KEY ----'].join(eol) + eol;
}

function errorOf(fn: () => unknown): PublicKeyError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(PublicKeyError);
    return err as PublicKeyError;
  }
  throw new Error('expected a PublicKeyError');
}

function messageOf(input: string, sizes?: Parameters<typeof parsePublicKey>[1]): string {
  return errorOf(() => parsePublicKey(input, sizes)).message;
}

// ---------------------------------------------------------------------------
// Keys

const ed25519 = generateKeyPairSync('ed25519');
const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const p521 = generateKeyPairSync('ec', { namedCurve: 'P-521' });
const rsa2048 = generateKeyPairSync('rsa', { modulusLength: 2048 });
const rsa1024 = generateKeyPairSync('rsa', { modulusLength: 1024 });

const accepted = [
  { name: 'ed25519', pair: ed25519, type: 'ssh-ed25519', bits: 256 },
  { name: 'ecdsa P-256', pair: p256, type: 'ecdsa-sha2-nistp256', bits: 256 },
  { name: 'ecdsa P-384', pair: p384, type: 'ecdsa-sha2-nistp384', bits: 384 },
  { name: 'ecdsa P-521', pair: p521, type: 'ecdsa-sha2-nistp521', bits: 521 },
  { name: 'rsa 2048', pair: rsa2048, type: 'ssh-rsa', bits: 2048 },
] as const;

const edRaw = Buffer.from(ed25519.publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
const skEd25519Blob = Buffer.concat([str('sk-ssh-ed25519@openssh.com'), str(edRaw), str('ssh:')]);
const skEcdsaBlob = Buffer.concat([
  str('sk-ecdsa-sha2-nistp256@openssh.com'),
  str('nistp256'),
  str(ecPoint(p256.publicKey)),
  str('ssh:'),
]);

const edBlob = blobOf(ed25519.publicKey).blob;
const edLine = line('ssh-ed25519', edBlob, 'alice@example');

// ---------------------------------------------------------------------------
// ssh-keygen (optional)

const hasKeygen = spawnSync('ssh-keygen', ['-?'], { encoding: 'utf8' }).error === undefined;
const itKeygen = hasKeygen ? it : it.skip;
const workDir = mkdtempSync(join(tmpdir(), 'anvil-sshkey-'));
let fileCounter = 0;

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

function keygen(args: string[], content: string): string {
  const file = join(workDir, `key${fileCounter++}.pub`);
  writeFileSync(file, content + '\n');
  const res = spawnSync('ssh-keygen', [...args, file], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`ssh-keygen ${args.join(' ')} failed: ${res.stderr}`);
  return res.stdout;
}

// ---------------------------------------------------------------------------

describe('parsePublicKey: OpenSSH authorized_keys lines', () => {
  it.each(accepted)('accepts $name', ({ pair, type, bits }) => {
    const { blob } = blobOf(pair.publicKey);
    const k = parsePublicKey(line(type, blob, 'me@host'));
    expect(k.type).toBe(type);
    expect(k.bits).toBe(bits);
    expect(k.blob.equals(blob)).toBe(true);
    expect(k.comment).toBe('me@host');
    expect(k.fingerprint).toBe(sha256Fingerprint(blob));
    expect(k.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(k.content).toBe(line(type, blob, 'me@host'));
  });

  it('accepts sk-ssh-ed25519@openssh.com and sk-ecdsa-sha2-nistp256@openssh.com', () => {
    const ed = parsePublicKey(line('sk-ssh-ed25519@openssh.com', skEd25519Blob, 'yubikey'));
    expect(ed.type).toBe('sk-ssh-ed25519@openssh.com');
    expect(ed.bits).toBe(256);
    expect(ed.fingerprint).toBe(sha256Fingerprint(skEd25519Blob));
    const ec = parsePublicKey(line('sk-ecdsa-sha2-nistp256@openssh.com', skEcdsaBlob));
    expect(ec.type).toBe('sk-ecdsa-sha2-nistp256@openssh.com');
    expect(ec.bits).toBe(256);
    expect(ec.comment).toBe('');
  });

  it('preserves the comment (with inner spaces) and normalises whitespace', () => {
    const b64 = edBlob.toString('base64');
    const k = parsePublicKey(`  \n ssh-ed25519 \t ${b64}   my laptop  key \r\n`);
    expect(k.comment).toBe('my laptop  key');
    expect(k.content).toBe(`ssh-ed25519 ${b64} my laptop  key`);
    const noComment = parsePublicKey(`ssh-ed25519 ${b64}`);
    expect(noComment.comment).toBe('');
    expect(noComment.content).toBe(`ssh-ed25519 ${b64}`);
  });

  it('accepts a bare base64 blob, taking the type from inside', () => {
    const { blob } = blobOf(p384.publicKey);
    const k = parsePublicKey(blob.toString('base64'));
    expect(k.type).toBe('ecdsa-sha2-nistp384');
    expect(k.comment).toBe('');
    expect(k.content).toBe(`ecdsa-sha2-nistp384 ${blob.toString('base64')}`);
  });

  it('returns a copy of the blob and a fingerprint equal to fingerprintOf', () => {
    const k = parsePublicKey(edLine);
    expect(fingerprintOf(k.blob)).toBe(k.fingerprint);
  });
});

describe('parsePublicKey: fingerprints match ssh-keygen', () => {
  itKeygen.each(accepted)('$name', ({ pair, type, bits }) => {
    const { blob } = blobOf(pair.publicKey);
    const out = keygen(['-l', '-E', 'sha256', '-f'], line(type, blob, 'c'));
    const k = parsePublicKey(line(type, blob, 'c'));
    expect(out.split(' ')[0]).toBe(String(bits));
    expect(out.split(' ')[1]).toBe(k.fingerprint);
  });

  itKeygen('security-key types', () => {
    for (const [type, blob] of [
      ['sk-ssh-ed25519@openssh.com', skEd25519Blob],
      ['sk-ecdsa-sha2-nistp256@openssh.com', skEcdsaBlob],
    ] as const) {
      const out = keygen(['-l', '-E', 'sha256', '-f'], line(type, blob));
      expect(out.split(' ')[1]).toBe(parsePublicKey(line(type, blob)).fingerprint);
    }
  });
});

describe('parsePublicKey: RFC 4716 blocks', () => {
  it.each(accepted)('$name gives the same key as the OpenSSH line, comment from the header', ({ pair, type }) => {
    const { blob } = blobOf(pair.publicKey);
    const expected = parsePublicKey(line(type, blob));
    const k = parsePublicKey(
      rfc4716(blob, ['Subject: someone', 'Comment: "2048-bit key, \\', 'converted"', 'x-private: value']),
    );
    expect(k.type).toBe(type);
    expect(k.fingerprint).toBe(expected.fingerprint);
    expect(k.comment).toBe('2048-bit key, converted');
    expect(k.content).toBe(`${type} ${blob.toString('base64')} 2048-bit key, converted`);
  });

  it('accepts CRLF line endings, unquoted comments and no headers', () => {
    const a = parsePublicKey(rfc4716(edBlob, ['Comment: plain text'], '\r\n'));
    expect(a.comment).toBe('plain text');
    expect(a.fingerprint).toBe(sha256Fingerprint(edBlob));
    const b = parsePublicKey(rfc4716(edBlob, []));
    expect(b.comment).toBe('');
    expect(b.content).toBe(`ssh-ed25519 ${edBlob.toString('base64')}`);
  });

  itKeygen('accepts ssh-keygen -e output', () => {
    for (const { pair, type } of accepted) {
      const { blob } = blobOf(pair.publicKey);
      const exported = keygen(['-e', '-f'], line(type, blob, 'x'));
      expect(exported).toContain('---- BEGIN SSH2 PUBLIC KEY ----');
      const k = parsePublicKey(exported);
      expect(k.fingerprint).toBe(sha256Fingerprint(blob));
      expect(k.comment).toMatch(/converted by/);
    }
  });

  it('refuses a block without end marker, with a bad body, or followed by more content', () => {
    const block = rfc4716(edBlob, []);
    expect(messageOf(block.replace('---- END SSH2 PUBLIC KEY ----', ''))).toMatch(/^Invalid key content: /);
    expect(messageOf(block.replace('---- END', 'AAAA\n---- END'))).toMatch(/^Invalid key content: /);
    expect(messageOf(block + edLine)).toBe('Invalid key content: only a single line with a single key please');
  });
});

describe('parsePublicKey: PEM public keys', () => {
  it.each(accepted)('$name PKIX gives the same key as the OpenSSH line', ({ pair, type }) => {
    const { blob } = blobOf(pair.publicKey);
    const pem = pair.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    expect(pem).toContain('-----BEGIN PUBLIC KEY-----');
    const k = parsePublicKey(pem);
    expect(k.type).toBe(type);
    expect(k.fingerprint).toBe(parsePublicKey(line(type, blob)).fingerprint);
    expect(k.comment).toBe('');
    expect(k.content).toBe(`${type} ${blob.toString('base64')}`);
  });

  it('accepts a PKCS#1 RSA PUBLIC KEY', () => {
    const pem = rsa2048.publicKey.export({ format: 'pem', type: 'pkcs1' }).toString();
    expect(pem).toContain('-----BEGIN RSA PUBLIC KEY-----');
    const k = parsePublicKey(pem.replace(/\n/g, '\r\n'));
    expect(k.type).toBe('ssh-rsa');
    expect(k.bits).toBe(2048);
    expect(k.fingerprint).toBe(sha256Fingerprint(blobOf(rsa2048.publicKey).blob));
  });

  itKeygen('accepts ssh-keygen -e -m PKCS8 / -m PEM output', () => {
    const { blob } = blobOf(rsa2048.publicKey);
    for (const mode of ['PKCS8', 'PEM']) {
      const exported = keygen(['-e', '-m', mode, '-f'], line('ssh-rsa', blob));
      expect(parsePublicKey(exported).fingerprint).toBe(sha256Fingerprint(blob));
    }
  });

  it('applies the size check to PEM keys too', () => {
    const pem = rsa1024.publicKey.export({ format: 'pem', type: 'pkcs1' }).toString();
    expect(messageOf(pem)).toBe('Invalid key content: key length is not enough: got 1024, needs 2048');
  });

  it('refuses private keys', () => {
    const privates = [
      ed25519.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      rsa2048.privateKey.export({ format: 'pem', type: 'pkcs1' }).toString(),
      p256.privateKey.export({ format: 'pem', type: 'sec1' }).toString(),
      rsa2048.privateKey
        .export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: 'secret' })
        .toString(),
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n',
      `${edLine}\n${ed25519.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()}`,
    ];
    for (const p of privates) expect(messageOf(p)).toBe('Invalid key content: key is private');
  });

  it('refuses a private key DER smuggled under a PUBLIC KEY label', () => {
    for (const der of [
      rsa2048.privateKey.export({ format: 'der', type: 'pkcs1' }),
      rsa2048.privateKey.export({ format: 'der', type: 'pkcs8' }),
    ]) {
      const pem = `-----BEGIN RSA PUBLIC KEY-----\n${der.toString('base64')}\n-----END RSA PUBLIC KEY-----`;
      expect(messageOf(pem)).toMatch(/^Invalid key content: /);
    }
  });

  it('refuses broken PEM', () => {
    expect(messageOf('-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----')).toMatch(/^Invalid key content: /);
    expect(messageOf('-----BEGIN PUBLIC KEY-----\nMIIB\n')).toMatch(/^Invalid key content: /);
    const pem = ed25519.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    expect(messageOf(pem + pem)).toBe('Invalid key content: only a single line with a single key please');
  });

  it('refuses unsupported PEM key types', () => {
    const x25519 = generateKeyPairSync('x25519').publicKey.export({ format: 'pem', type: 'spki' }).toString();
    expect(messageOf(x25519)).toMatch(/^Invalid key content: /);
    const k1 = generateKeyPairSync('ec', { namedCurve: 'secp256k1' })
      .publicKey.export({ format: 'pem', type: 'spki' })
      .toString();
    expect(messageOf(k1)).toMatch(/^Invalid key content: /);
  });
});

describe('parsePublicKey: strict blob decoding', () => {
  it('refuses a declared type that differs from the blob type', () => {
    expect(messageOf(line('ssh-rsa', edBlob))).toBe('Invalid key content: key type and content does not match');
    const { blob } = blobOf(p256.publicKey);
    expect(messageOf(line('ecdsa-sha2-nistp384', blob))).toBe(
      'Invalid key content: key type and content does not match',
    );
  });

  it('refuses a truncated blob', () => {
    for (const { pair, type } of accepted) {
      const { blob } = blobOf(pair.publicKey);
      expect(messageOf(line(type, blob.subarray(0, blob.length - 1)))).toMatch(/^Invalid key content: /);
      expect(messageOf(line(type, blob.subarray(0, 20)))).toMatch(/^Invalid key content: /);
    }
    expect(messageOf('AAAA')).toMatch(/^Invalid key content: /);
    expect(messageOf('AAAAC3NzaC1lZDI1NTE5')).toMatch(/^Invalid key content: /);
  });

  it('refuses trailing garbage after the key', () => {
    for (const { pair, type } of accepted) {
      const { blob } = blobOf(pair.publicKey);
      expect(messageOf(line(type, Buffer.concat([blob, Buffer.from([0, 0, 0, 0])])))).toMatch(
        /^Invalid key content: /,
      );
    }
    expect(messageOf(line('sk-ssh-ed25519@openssh.com', Buffer.concat([skEd25519Blob, str('x')])))).toMatch(
      /^Invalid key content: /,
    );
  });

  it('refuses an ed25519 key that is not 32 bytes', () => {
    for (const size of [31, 33, 0]) {
      const blob = Buffer.concat([str('ssh-ed25519'), str(Buffer.alloc(size, 7))]);
      expect(messageOf(line('ssh-ed25519', blob))).toMatch(/^Invalid key content: /);
    }
  });

  it('refuses a mismatching ecdsa curve name or a bad point', () => {
    const p256Point = ecPoint(p256.publicKey);
    const wrongCurve = Buffer.concat([str('ecdsa-sha2-nistp256'), str('nistp384'), str(p256Point)]);
    expect(messageOf(line('ecdsa-sha2-nistp256', wrongCurve))).toMatch(/^Invalid key content: /);
    const wrongLength = Buffer.concat([str('ecdsa-sha2-nistp384'), str('nistp384'), str(p256Point)]);
    expect(messageOf(line('ecdsa-sha2-nistp384', wrongLength))).toMatch(/^Invalid key content: /);
    const offCurve = Buffer.from(p256Point);
    offCurve[offCurve.length - 1] = (offCurve[offCurve.length - 1] ?? 0) ^ 1;
    const offBlob = Buffer.concat([str('ecdsa-sha2-nistp256'), str('nistp256'), str(offCurve)]);
    expect(messageOf(line('ecdsa-sha2-nistp256', offBlob))).toMatch(/^Invalid key content: /);
    const compressed = Buffer.concat([Buffer.from([2]), p256Point.subarray(1, 33)]);
    const compBlob = Buffer.concat([str('ecdsa-sha2-nistp256'), str('nistp256'), str(compressed)]);
    expect(messageOf(line('ecdsa-sha2-nistp256', compBlob))).toMatch(/^Invalid key content: /);
  });

  it('checks the RSA exponent and modulus', () => {
    const jwk = rsa2048.publicKey.export({ format: 'jwk' });
    const n = Buffer.from(jwk.n ?? '', 'base64url');
    const rsaBlob = (e: Buffer, mod: Buffer) => Buffer.concat([str('ssh-rsa'), str(e), str(mod)]);
    const withZero = Buffer.concat([Buffer.from([0]), n]);
    // valid reference
    expect(parsePublicKey(line('ssh-rsa', rsaBlob(Buffer.from([1, 0, 1]), withZero))).bits).toBe(2048);
    // even exponent, exponent 1, exponent too large, empty exponent
    for (const e of [Buffer.from([1, 0, 0]), Buffer.from([1]), Buffer.from([1, 0, 0, 1]), Buffer.alloc(0)]) {
      expect(messageOf(line('ssh-rsa', rsaBlob(e, withZero)))).toMatch(/^Invalid key content: /);
    }
    // negative modulus (high bit set without the leading zero), empty modulus
    expect(messageOf(line('ssh-rsa', rsaBlob(Buffer.from([1, 0, 1]), n)))).toMatch(/^Invalid key content: /);
    expect(messageOf(line('ssh-rsa', rsaBlob(Buffer.from([1, 0, 1]), Buffer.alloc(0))))).toMatch(
      /^Invalid key content: /,
    );
    // modulus length field pointing past the end
    const bad = rsaBlob(Buffer.from([1, 0, 1]), withZero);
    bad.writeUInt32BE(withZero.length + 10, 4 + 7 + 4 + 3);
    expect(messageOf(line('ssh-rsa', bad))).toMatch(/^Invalid key content: /);
  });
});

describe('parsePublicKey: key sizes and algorithms', () => {
  it('exposes the contract defaults', () => {
    expect(DEFAULT_MINIMUM_KEY_SIZES).toEqual({
      ed25519: 256,
      ecdsa: 256,
      rsa: 2048,
      'ed25519-sk': 256,
      'ecdsa-sk': 256,
    });
  });

  it('refuses rsa 1024 with the exact message', () => {
    const { blob } = blobOf(rsa1024.publicKey);
    expect(messageOf(line('ssh-rsa', blob))).toBe('Invalid key content: key length is not enough: got 1024, needs 2048');
  });

  it('honours minimum size overrides', () => {
    const small = blobOf(rsa1024.publicKey).blob;
    expect(parsePublicKey(line('ssh-rsa', small), { rsa: 1024 }).bits).toBe(1024);
    const big = blobOf(rsa2048.publicKey).blob;
    expect(messageOf(line('ssh-rsa', big), { rsa: 3071 })).toBe(
      'Invalid key content: key length is not enough: got 2048, needs 3071',
    );
    expect(messageOf(line('ecdsa-sha2-nistp256', blobOf(p256.publicKey).blob), { ecdsa: 384 })).toBe(
      'Invalid key content: key length is not enough: got 256, needs 384',
    );
    // other families keep their defaults
    expect(parsePublicKey(edLine, { rsa: 4096 }).bits).toBe(256);
  });

  it('refuses DSA keys', () => {
    const fake = Buffer.concat([
      str('ssh-dss'),
      mpint(Buffer.alloc(128, 0xc3)),
      mpint(Buffer.alloc(20, 0x91)),
      mpint(Buffer.alloc(128, 0x55)),
      mpint(Buffer.alloc(128, 0x77)),
    ]);
    expect(messageOf(line('ssh-dss', fake, 'old'))).toBe('Invalid key content: key type is not allowed: dsa');
    // malformed DSA is a parse error, not a policy one
    expect(messageOf(line('ssh-dss', fake.subarray(0, 100)))).toMatch(/^Invalid key content: /);
    const dsaPem = generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 })
      .publicKey.export({ format: 'pem', type: 'spki' })
      .toString();
    expect(messageOf(dsaPem)).toBe('Invalid key content: key type is not allowed: dsa');
  });

  it('answers "Unable to verify key content" for unknown algorithms', () => {
    const blob = Buffer.concat([str('ssh-foo'), str(Buffer.alloc(32, 1))]);
    const e = errorOf(() => parsePublicKey(line('ssh-foo', blob)));
    expect(e.message).toBe('Unable to verify key content');
    expect(messageOf(blob.toString('base64'))).toBe('Unable to verify key content');
    const cert = Buffer.concat([str('ssh-ed25519-cert-v01@openssh.com'), str(Buffer.alloc(32, 1))]);
    expect(messageOf(line('ssh-ed25519-cert-v01@openssh.com', cert))).toBe('Unable to verify key content');
  });
});

describe('parsePublicKey: input shape', () => {
  it('refuses more than one line or key', () => {
    const other = line('ecdsa-sha2-nistp256', blobOf(p256.publicKey).blob, 'bob');
    const msg = 'Invalid key content: only a single line with a single key please';
    expect(messageOf(`${edLine}\n${other}`)).toBe(msg);
    expect(messageOf(`${edLine}\r\n${edLine}\r\n`)).toBe(msg);
    expect(messageOf(`ssh-ed25519\n${edBlob.toString('base64')}`)).toBe(msg);
  });

  it('refuses garbage and empty input', () => {
    for (const bad of [
      '',
      '   \n\t ',
      'hello world',
      'not-base64!!',
      'ssh-ed25519',
      'ssh-ed25519 AAAA=BBB',
      'ssh-ed25519 ****',
      `no-pty ${edLine}`,
      `ssh-ed25519 ${edBlob.toString('base64').slice(0, -1)}`,
    ]) {
      expect(messageOf(bad)).toMatch(/^Invalid key content: /);
    }
  });

  it('refuses oversized input without parsing', () => {
    const huge = edLine + ' ' + 'x'.repeat(MAX_PUBLIC_KEY_INPUT_LENGTH);
    expect(messageOf(huge)).toMatch(/^Invalid key content: /);
    // a long comment within the cap is fine
    expect(parsePublicKey(edLine + 'y'.repeat(1000)).comment).toBe('alice@example' + 'y'.repeat(1000));
  });

  it('refuses non-string input', () => {
    expect(messageOf(undefined as unknown as string)).toMatch(/^Invalid key content: /);
  });
});
