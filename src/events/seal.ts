import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Webhook credentials at rest (the authorization header): AES-256-GCM under a key derived from [security]
 * SECRET_KEY, as Gitea encrypts it with its secret key. Stored as `v1:` + base64(iv | tag | ciphertext).
 */
const keyOf = (secretKey: string): Buffer => createHash('sha256').update(`anvil-webhook\0${secretKey}`).digest();

export function sealSecret(secretKey: string, plain: string): string {
  if (plain === '') return '';
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', keyOf(secretKey), iv);
  const enc = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return `v1:${Buffer.concat([iv, c.getAuthTag(), enc]).toString('base64')}`;
}

/** The clear text; '' when empty or when it cannot be opened (SECRET_KEY changed). */
export function openSecret(secretKey: string, sealed: string): string {
  if (!sealed.startsWith('v1:')) return sealed;
  try {
    const raw = Buffer.from(sealed.slice(3), 'base64');
    const d = createDecipheriv('aes-256-gcm', keyOf(secretKey), raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  } catch {
    return '';
  }
}
