/**
 * SSH public key parsing and validation, following Gitea 1.22
 * (`models/asymkey/ssh_key_parse.go`, see BEHAVIOUR.md section 4.10).
 *
 * Accepted inputs (after trimming surrounding whitespace):
 *   - an OpenSSH authorized_keys line: `type base64 [comment]` (no options);
 *   - a bare base64 key blob (the type is read from inside the blob);
 *   - an RFC 4716 block (`---- BEGIN SSH2 PUBLIC KEY ----`, `Header: value`
 *     lines with `\` continuations, the `Comment:` header becomes the comment);
 *   - a PEM public key (`-----BEGIN PUBLIC KEY-----` PKIX, or
 *     `-----BEGIN RSA PUBLIC KEY-----` PKCS#1), converted to the OpenSSH blob.
 *
 * The key blob (SSH wire format) is decoded strictly. Every failure is a
 * `PublicKeyError` whose message is the client-facing text (the API layer
 * answers 422 with it).
 *
 * Pure module: only node:crypto and Buffer.
 */
import { createHash, createPublicKey } from 'node:crypto';

/** Families used for the minimum key size table (Gitea `[ssh.minimum_key_sizes]`). */
export type KeySizeFamily = 'ed25519' | 'ecdsa' | 'rsa' | 'ed25519-sk' | 'ecdsa-sk';

export interface ParsedPublicKey {
  /** SSH algorithm name, e.g. 'ssh-ed25519', 'ecdsa-sha2-nistp256', 'ssh-rsa', 'sk-ssh-ed25519@openssh.com'. */
  type: string;
  /** The SSH wire-format key blob. */
  blob: Buffer;
  /** Comment ('' when none). */
  comment: string;
  /** Key size in bits: RSA modulus length, 256 for ed25519, curve size for ECDSA. */
  bits: number;
  /** 'SHA256:' + unpadded base64 of sha256(blob), as `ssh-keygen -l` prints it. */
  fingerprint: string;
  /** Normalised authorized_keys line: 'type base64' plus ' comment' when there is one. */
  content: string;
}

/** A key that cannot be accepted. `message` is the exact client-facing text. */
export class PublicKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PublicKeyError';
  }
}

/**
 * Anvil's contract: RSA keys must have at least 2048 bits (Gitea's own
 * default is 3071). DSA is not listed, hence refused.
 */
export const DEFAULT_MINIMUM_KEY_SIZES: Readonly<Record<KeySizeFamily, number>> = Object.freeze({
  ed25519: 256,
  ecdsa: 256,
  rsa: 2048,
  'ed25519-sk': 256,
  'ecdsa-sk': 256,
});

/** Inputs longer than this (in UTF-16 code units) are refused without parsing. */
export const MAX_PUBLIC_KEY_INPUT_LENGTH = 16 * 1024;

const INVALID_PREFIX = 'Invalid key content: ';
const MSG_UNVERIFIABLE = 'Unable to verify key content';
const MSG_SINGLE_LINE = 'only a single line with a single key please';
const MSG_MISMATCH = 'key type and content does not match';
const MSG_PRIVATE = 'key is private';

function invalid(reason: string): PublicKeyError {
  return new PublicKeyError(INVALID_PREFIX + reason);
}

function wireError(reason: string): PublicKeyError {
  return invalid('invalid ssh public key: ssh: ' + reason);
}

// ---------------------------------------------------------------------------
// Key algorithms

interface EcCurve {
  /** SSH curve identifier inside the blob. */
  name: 'nistp256' | 'nistp384' | 'nistp521';
  /** JWK curve name. */
  jwk: 'P-256' | 'P-384' | 'P-521';
  bits: number;
  /** Field element size in bytes. */
  size: number;
  p: bigint;
  b: bigint;
}

const CURVES: Readonly<Record<EcCurve['name'], EcCurve>> = {
  nistp256: {
    name: 'nistp256',
    jwk: 'P-256',
    bits: 256,
    size: 32,
    p: BigInt('0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff'),
    b: BigInt('0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b'),
  },
  nistp384: {
    name: 'nistp384',
    jwk: 'P-384',
    bits: 384,
    size: 48,
    p: BigInt(
      '0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff',
    ),
    b: BigInt(
      '0xb3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef',
    ),
  },
  nistp521: {
    name: 'nistp521',
    jwk: 'P-521',
    bits: 521,
    size: 66,
    p: (1n << 521n) - 1n,
    b: BigInt(
      '0x0051953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109e156193951ec7e937b1652c0bd3bb1bf073573df883d2c34f1ef451fd46b503f00',
    ),
  },
};

type Algorithm =
  | { kind: 'rsa' }
  | { kind: 'dsa' }
  | { kind: 'ed25519'; sk: boolean }
  | { kind: 'ecdsa'; sk: boolean; curve: EcCurve };

const ALGORITHMS: ReadonlyMap<string, Algorithm> = new Map<string, Algorithm>([
  ['ssh-rsa', { kind: 'rsa' }],
  ['ssh-dss', { kind: 'dsa' }],
  ['ssh-ed25519', { kind: 'ed25519', sk: false }],
  ['sk-ssh-ed25519@openssh.com', { kind: 'ed25519', sk: true }],
  ['ecdsa-sha2-nistp256', { kind: 'ecdsa', sk: false, curve: CURVES.nistp256 }],
  ['ecdsa-sha2-nistp384', { kind: 'ecdsa', sk: false, curve: CURVES.nistp384 }],
  ['ecdsa-sha2-nistp521', { kind: 'ecdsa', sk: false, curve: CURVES.nistp521 }],
  ['sk-ecdsa-sha2-nistp256@openssh.com', { kind: 'ecdsa', sk: true, curve: CURVES.nistp256 }],
]);

/** OpenSSH refuses RSA moduli above 16384 bits. */
const MAX_RSA_BITS = 16384;

// ---------------------------------------------------------------------------
// SSH wire format

class WireReader {
  private offset = 0;

  constructor(private readonly buf: Buffer) {}

  readString(): Buffer {
    if (this.buf.length - this.offset < 4) throw wireError('short read');
    const len = this.buf.readUInt32BE(this.offset);
    const start = this.offset + 4;
    if (len > this.buf.length - start) throw wireError('short read');
    this.offset = start + len;
    return this.buf.subarray(start, start + len);
  }

  /** An mpint that must not be negative; returns its magnitude without leading zero bytes. */
  readUnsignedMpint(): Buffer {
    const raw = this.readString();
    if (raw.length > 0 && ((raw[0] ?? 0) & 0x80) !== 0) throw wireError('negative integer in public key');
    return stripLeadingZeros(raw);
  }

  finish(): void {
    if (this.offset !== this.buf.length) throw wireError('trailing junk in public key');
  }
}

function stripLeadingZeros(b: Buffer): Buffer {
  let i = 0;
  while (i < b.length && b[i] === 0) i++;
  return b.subarray(i);
}

function bitLength(magnitude: Buffer): number {
  const first = magnitude[0];
  if (first === undefined) return 0;
  return (magnitude.length - 1) * 8 + (32 - Math.clz32(first));
}

function toBigInt(magnitude: Buffer): bigint {
  return magnitude.length === 0 ? 0n : BigInt('0x' + magnitude.toString('hex'));
}

function sshString(data: Buffer | string): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length, 0);
  return Buffer.concat([len, body]);
}

/** Encodes an unsigned big-endian magnitude as an SSH mpint. */
function sshMpint(unsigned: Buffer): Buffer {
  const mag = stripLeadingZeros(unsigned);
  const first = mag[0];
  if (first !== undefined && (first & 0x80) !== 0) return sshString(Buffer.concat([Buffer.from([0]), mag]));
  return sshString(mag);
}

function isOnCurve(curve: EcCurve, x: bigint, y: bigint): boolean {
  const { p, b } = curve;
  if (x >= p || y >= p) return false;
  // y^2 = x^3 - 3x + b (mod p)
  const lhs = (y * y) % p;
  const rhs = (((((x * x) % p) * x) % p) - ((3n * x) % p) + b + 2n * p) % p;
  return lhs === rhs;
}

function checkEcPoint(curve: EcCurve, point: Buffer): void {
  if (point.length !== 1 + 2 * curve.size || point[0] !== 0x04) {
    throw wireError('invalid elliptic curve point');
  }
  const x = toBigInt(point.subarray(1, 1 + curve.size));
  const y = toBigInt(point.subarray(1 + curve.size));
  if (!isOnCurve(curve, x, y)) throw wireError('invalid elliptic curve point');
}

/** Decodes a blob of a known algorithm strictly; returns the key size in bits. */
function decodeBlob(type: string, alg: Algorithm, blob: Buffer): number {
  const r = new WireReader(blob);
  const inner = r.readString();
  if (inner.toString('latin1') !== type) throw invalid(MSG_MISMATCH);
  let bits: number;
  switch (alg.kind) {
    case 'rsa': {
      const e = r.readUnsignedMpint();
      const n = r.readUnsignedMpint();
      // golang.org/x/crypto/ssh: exponent at most 24 bits, odd, >= 3.
      if (bitLength(e) > 24) throw wireError('exponent too large');
      const ev = e.length === 0 ? 0 : e.readUIntBE(0, e.length);
      if (ev < 3 || ev % 2 === 0) throw wireError('incorrect exponent');
      bits = bitLength(n);
      if (bits === 0) throw wireError('invalid RSA modulus');
      if (bits > MAX_RSA_BITS) throw wireError('RSA modulus too large');
      break;
    }
    case 'dsa': {
      const p = r.readUnsignedMpint();
      r.readUnsignedMpint(); // q
      r.readUnsignedMpint(); // g
      r.readUnsignedMpint(); // y
      bits = bitLength(p);
      break;
    }
    case 'ed25519': {
      const key = r.readString();
      if (key.length !== 32) throw wireError('invalid size ' + key.length + ' for Ed25519 public key');
      if (alg.sk) r.readString(); // application
      bits = 256;
      break;
    }
    case 'ecdsa': {
      const curveName = r.readString().toString('latin1');
      if (curveName !== alg.curve.name) throw wireError('curve mismatch');
      checkEcPoint(alg.curve, r.readString());
      if (alg.sk) r.readString(); // application
      bits = alg.curve.bits;
      break;
    }
  }
  r.finish();
  return bits;
}

function familyOf(alg: Algorithm): KeySizeFamily | 'dsa' {
  switch (alg.kind) {
    case 'rsa':
      return 'rsa';
    case 'dsa':
      return 'dsa';
    case 'ed25519':
      return alg.sk ? 'ed25519-sk' : 'ed25519';
    case 'ecdsa':
      return alg.sk ? 'ecdsa-sk' : 'ecdsa';
  }
}

// ---------------------------------------------------------------------------
// Text formats

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function decodeBase64Strict(text: string): Buffer {
  if (text.length === 0 || !BASE64_RE.test(text)) {
    throw invalid('extractTypeFromBase64Key: base64 decode: illegal base64 data');
  }
  return Buffer.from(text, 'base64');
}

/** Reads the algorithm name at the start of a blob (Gitea's extractTypeFromBase64Key). */
function extractType(blob: Buffer): string {
  if (blob.length < 4) throw invalid('extractTypeFromBase64Key: invalid key format');
  const len = blob.readUInt32BE(0);
  if (len === 0 || len > blob.length - 4) throw invalid('extractTypeFromBase64Key: invalid key format');
  const type = blob.subarray(4, 4 + len).toString('latin1');
  if (!/^[\x21-\x7e]+$/.test(type)) throw invalid('extractTypeFromBase64Key: invalid key format');
  return type;
}

interface RawKey {
  /** Declared type; undefined when the input only carries the blob. */
  declaredType: string | undefined;
  blob: Buffer;
  comment: string;
}

const SSH2_BEGIN = '---- BEGIN SSH2 PUBLIC KEY ----';
const SSH2_END = '---- END SSH2 PUBLIC KEY ----';

function parseRfc4716(lines: string[]): RawKey {
  const end = lines.indexOf(SSH2_END);
  if (end < 0) throw invalid('missing end of SSH2 public key block');
  if (lines.slice(end + 1).some((l) => l !== '')) throw invalid(MSG_SINGLE_LINE);

  let comment = '';
  let i = 1;
  // Headers: `Tag: value`, a trailing backslash continues onto the next line.
  while (i < end && (lines[i] ?? '').includes(':')) {
    let header = lines[i] ?? '';
    i++;
    while (header.endsWith('\\')) {
      if (i >= end) throw invalid('unterminated SSH2 header');
      header = header.slice(0, -1) + (lines[i] ?? '');
      i++;
    }
    const colon = header.indexOf(':');
    const tag = header.slice(0, colon).trim();
    if (tag.toLowerCase() === 'comment') {
      let value = header.slice(colon + 1).trim();
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1).trim();
      comment = value;
    }
  }
  let body = '';
  for (; i < end; i++) {
    const line = lines[i] ?? '';
    if (line.includes(':') || line.includes('-')) throw invalid('invalid SSH2 public key body');
    body += line;
  }
  return { declaredType: undefined, blob: decodeBase64Strict(body), comment };
}

function parsePem(lines: string[]): RawKey {
  const first = lines[0] ?? '';
  const m = /^-----BEGIN ([^-]+)-----$/.exec(first);
  if (!m) throw invalid('failed to parse PEM block containing the public key');
  const label = m[1] ?? '';
  if (label.includes('PRIVATE')) throw invalid(MSG_PRIVATE);
  const end = lines.indexOf(`-----END ${label}-----`);
  if (end < 0) throw invalid('failed to parse PEM block containing the public key');
  if (lines.slice(end + 1).some((l) => l !== '')) throw invalid(MSG_SINGLE_LINE);

  let i = 1;
  // RFC 1421 style headers (unusual for public keys): skipped up to the blank line.
  if (i < end && (lines[i] ?? '').includes(':')) {
    while (i < end && (lines[i] ?? '') !== '') i++;
  }
  const body = lines.slice(i, end).join('');
  if (body.length === 0 || !BASE64_RE.test(body)) {
    throw invalid('failed to parse PEM block containing the public key');
  }
  const der = Buffer.from(body, 'base64');
  return { declaredType: undefined, blob: derToSshBlob(der), comment: '' };
}

function b64url(value: string | undefined): Buffer {
  if (value === undefined) throw invalid('unable to convert to ssh public key');
  return Buffer.from(value, 'base64url');
}

/** Converts a DER public key (PKIX first, then PKCS#1 RSA, as Gitea does) to an SSH blob. */
function derToSshBlob(der: Buffer): Buffer {
  let key;
  try {
    key = createPublicKey({ key: der, format: 'der', type: 'spki' });
  } catch {
    const rsa = parsePkcs1RsaPublicKey(der);
    if (!rsa) throw invalid('failed to parse DER encoded public key as either PKIX or PEM RSA Key');
    return Buffer.concat([sshString('ssh-rsa'), sshMpint(rsa.e), sshMpint(rsa.n)]);
  }
  switch (key.asymmetricKeyType) {
    case 'rsa': {
      const jwk = key.export({ format: 'jwk' });
      return Buffer.concat([sshString('ssh-rsa'), sshMpint(b64url(jwk.e)), sshMpint(b64url(jwk.n))]);
    }
    case 'ed25519': {
      const jwk = key.export({ format: 'jwk' });
      return Buffer.concat([sshString('ssh-ed25519'), sshString(b64url(jwk.x))]);
    }
    case 'ec': {
      const jwk = key.export({ format: 'jwk' });
      const curve = Object.values(CURVES).find((c) => c.jwk === jwk.crv);
      if (!curve) throw invalid('unable to convert to ssh public key: ssh: unsupported curve');
      const x = b64url(jwk.x);
      const y = b64url(jwk.y);
      if (x.length !== curve.size || y.length !== curve.size) throw invalid('unable to convert to ssh public key');
      return Buffer.concat([
        sshString('ecdsa-sha2-' + curve.name),
        sshString(curve.name),
        sshString(Buffer.concat([Buffer.from([4]), x, y])),
      ]);
    }
    case 'dsa':
      throw invalid('key type is not allowed: dsa');
    default:
      throw invalid('unable to convert to ssh public key: ssh: unsupported key type');
  }
}

/** Minimal DER reader for PKCS#1 `RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }`. */
function parsePkcs1RsaPublicKey(der: Buffer): { n: Buffer; e: Buffer } | undefined {
  const readTlv = (buf: Buffer, at: number): { tag: number; start: number; end: number } | undefined => {
    const tag = buf[at];
    let lenByte = buf[at + 1];
    if (tag === undefined || lenByte === undefined) return undefined;
    let pos = at + 2;
    let len = lenByte;
    if (lenByte & 0x80) {
      const count = lenByte & 0x7f;
      if (count === 0 || count > 3) return undefined;
      len = 0;
      for (let k = 0; k < count; k++) {
        lenByte = buf[pos++];
        if (lenByte === undefined) return undefined;
        len = len * 256 + lenByte;
      }
      if (len < 0x80) return undefined; // not DER
    }
    if (pos + len > buf.length) return undefined;
    return { tag, start: pos, end: pos + len };
  };
  const seq = readTlv(der, 0);
  if (!seq || seq.tag !== 0x30 || seq.end !== der.length) return undefined;
  const n = readTlv(der, seq.start);
  if (!n || n.tag !== 0x02 || n.end === n.start) return undefined;
  const e = readTlv(der, n.end);
  if (!e || e.tag !== 0x02 || e.end === e.start || e.end !== seq.end) return undefined;
  const nBytes = der.subarray(n.start, n.end);
  const eBytes = der.subarray(e.start, e.end);
  if (((nBytes[0] ?? 0) & 0x80) !== 0 || ((eBytes[0] ?? 0) & 0x80) !== 0) return undefined; // negative
  return { n: nBytes, e: eBytes };
}

function parseAuthorizedLine(line: string): RawKey {
  const m = /^(\S+)(?:[ \t]+(\S+)(?:[ \t]+(.*))?)?$/.exec(line);
  if (!m) throw invalid('invalid ssh public key: ssh: no key found');
  const first = m[1] ?? '';
  const second = m[2];
  if (second === undefined) {
    return { declaredType: undefined, blob: decodeBase64Strict(first), comment: '' };
  }
  return { declaredType: first, blob: decodeBase64Strict(second), comment: (m[3] ?? '').trim() };
}

// ---------------------------------------------------------------------------
// Entry point

/**
 * Parses and validates a public key. Throws `PublicKeyError` (message =
 * client-facing text) when the key is unacceptable.
 *
 * `minimumSizes` overrides entries of `DEFAULT_MINIMUM_KEY_SIZES`.
 */
export function parsePublicKey(
  input: string,
  minimumSizes?: Partial<Record<KeySizeFamily, number>>,
): ParsedPublicKey {
  if (typeof input !== 'string') throw invalid('empty key');
  if (input.length > MAX_PUBLIC_KEY_INPUT_LENGTH) throw invalid('key is too long');
  const text = input.trim().replace(/\r\n?/g, '\n');
  if (text.length === 0) throw invalid('empty key');

  // A private key pasted anywhere in the input is never accepted.
  if (/-----BEGIN [^\n]*PRIVATE[^\n]*-----/.test(text)) throw invalid(MSG_PRIVATE);

  let raw: RawKey;
  if (text.startsWith(SSH2_BEGIN)) {
    raw = parseRfc4716(text.split('\n').map((l) => l.trim()));
  } else if (text.startsWith('-----BEGIN')) {
    raw = parsePem(text.split('\n').map((l) => l.trim()));
  } else {
    if (text.includes('\n')) throw invalid(MSG_SINGLE_LINE);
    raw = parseAuthorizedLine(text);
  }

  const innerType = extractType(raw.blob);
  const type = raw.declaredType ?? innerType;
  if (type !== innerType) throw invalid(MSG_MISMATCH);

  const alg = ALGORITHMS.get(type);
  if (!alg) throw new PublicKeyError(MSG_UNVERIFIABLE);

  const bits = decodeBlob(type, alg, raw.blob);
  const family = familyOf(alg);
  if (family === 'dsa') throw invalid('key type is not allowed: dsa');

  const configured = minimumSizes?.[family];
  const min = configured ?? DEFAULT_MINIMUM_KEY_SIZES[family];
  if (bits < min) throw invalid(`key length is not enough: got ${bits}, needs ${min}`);

  const base64 = raw.blob.toString('base64');
  const fingerprint = fingerprintOf(raw.blob);
  const comment = raw.comment;
  return {
    type,
    blob: Buffer.from(raw.blob),
    comment,
    bits,
    fingerprint,
    content: comment ? `${type} ${base64} ${comment}` : `${type} ${base64}`,
  };
}

/** SHA256 fingerprint of a key blob, OpenSSH style ('SHA256:' + unpadded base64). */
export function fingerprintOf(blob: Buffer): string {
  return 'SHA256:' + createHash('sha256').update(blob).digest('base64').replace(/=+$/, '');
}
