/**
 * Content types for raw file downloads, decided the way Gitea 1.22 does (typesniffer + ServeContent):
 * sniff the first bytes; every text type (HTML, JavaScript, XML, CSS...) is served as text/plain so a
 * browser never runs it; images, PDF, audio and video keep their type; SVG gets a sandboxing CSP.
 */

/** How a raw file is served. */
export interface RawServeType {
  readonly contentType: string;
  /** Content-Security-Policy to send, or null. */
  readonly csp: string | null;
}

const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
// No sandbox for PDF: it breaks rendering in some browsers, and PDF scripts cannot escape the document.
const PDF_CSP = "default-src 'none'; style-src 'unsafe-inline'";

/** Go's http.DetectContentType signatures that lead to a type Gitea serves as is (images, PDF, audio, video). */
function binarySignature(b: Buffer): string | null {
  const starts = (s: string | number[], at = 0) => {
    const bytes = typeof s === 'string' ? Buffer.from(s, 'latin1') : Buffer.from(s);
    return b.length >= at + bytes.length && b.subarray(at, at + bytes.length).equals(bytes);
  };
  if (starts('%PDF-')) return 'application/pdf';
  if (starts('GIF87a') || starts('GIF89a')) return 'image/gif';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts('BM')) return 'image/bmp';
  if (starts('RIFF') && starts('WEBPVP', 8)) return 'image/webp';
  if (starts([0, 0, 1, 0])) return 'image/x-icon';
  if (starts([0, 0, 2, 0])) return 'image/x-icon';
  if (starts('RIFF') && starts('WAVE', 8)) return 'audio/wave';
  if (starts('RIFF') && starts('AVI ', 8)) return 'video/avi';
  if (starts('FORM') && starts('AIFF', 8)) return 'audio/aiff';
  if (starts('MThd')) return 'audio/midi';
  if (starts('.snd')) return 'audio/basic';
  if (starts('OggS\x00')) {
    const head = b.subarray(0, 256).toString('latin1');
    return head.includes('theora') || head.includes('dirac') ? 'video/ogg' : 'audio/ogg';
  }
  if (starts([0x1a, 0x45, 0xdf, 0xa3])) return 'video/webm';
  if (b.length >= 12 && starts('ftyp', 4)) {
    const boxSize = b.readUInt32BE(0);
    if (boxSize % 4 === 0 && b.length >= boxSize) {
      for (let i = 8; i + 3 <= boxSize; i += 4) {
        if (i === 12) continue; // the version field
        if (b.subarray(i, i + 3).toString('latin1') === 'mp4') return 'video/mp4';
      }
    }
  }
  if (starts('ID3')) return 'audio/mpeg';
  return null;
}

/** Bytes Go's sniffer takes for binary data in text. */
function hasBinaryByte(b: Buffer): boolean {
  for (const c of b) {
    if (c <= 0x08 || c === 0x0b || (c >= 0x0e && c <= 0x1a) || (c >= 0x1c && c <= 0x1f)) return true;
  }
  return false;
}

/** UTF-8 validity of `b`; when `truncated`, a character cut off at the end does not count against it. */
function isUtf8(b: Buffer, truncated: boolean): boolean {
  let end = b.length;
  if (truncated) {
    // Drop an incomplete sequence at the end: a lead byte with fewer continuation bytes than it announces.
    for (let i = b.length - 1; i >= Math.max(0, b.length - 3); i--) {
      const c = b[i]!;
      if ((c & 0xc0) === 0x80) continue;
      const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
      if (b.length - i < need) end = i;
      break;
    }
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b.subarray(0, end));
    return true;
  } catch {
    return false;
  }
}

const SVG_TAG = /^\s*(?:<!DOCTYPE\s+svg(?:[\s:]+[\s\S]*?>|>)\s*)*<svg\b/iu;
const SVG_TAG_IN_XML = /^<\?xml\b[\s\S]*?\?>\s*(?:<!DOCTYPE\s+svg(?:[\s:]+[\s\S]*?>|>)\s*)*<svg\b/iu;

/** Binary types recognised by extension when sniffing found nothing (files without a known header). */
const SAFE_BY_EXTENSION: Readonly<Record<string, string>> = {
  '.avif': 'image/avif',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.flac': 'audio/flac',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.ogg': 'audio/ogg',
};

/**
 * The Content-Type (and CSP) for a raw file named `name` whose content starts with `head` (the first
 * KiB is enough).
 */
export function rawServeType(name: string, head: Buffer): RawServeType {
  const b = head.subarray(0, 1024);
  if (b.length === 0) return { contentType: 'text/plain; charset=utf-8', csp: null };
  let sniffed = binarySignature(b.subarray(0, 512));
  // Gitea: an "ID3" prefix followed by text is text, not MP3.
  if (sniffed === 'audio/mpeg' && !hasBinaryByte(b.subarray(3, 512))) sniffed = null;
  if (sniffed === 'application/pdf') return { contentType: sniffed, csp: PDF_CSP };
  if (sniffed) return { contentType: sniffed, csp: null };
  let charset: string | null = null;
  if (b[0] === 0xfe && b[1] === 0xff) charset = 'utf-16be';
  else if (b[0] === 0xff && b[1] === 0xfe) charset = 'utf-16le';
  else if (!hasBinaryByte(b.subarray(0, 512))) charset = isUtf8(b, head.length > b.length) ? 'utf-8' : 'iso-8859-1';
  if (charset) {
    const text = b.toString(charset === 'utf-8' ? 'utf8' : 'latin1').replace(/<!--[\s\S]*?-->/gu, '');
    if (SVG_TAG.test(text) || SVG_TAG_IN_XML.test(text)) return { contentType: 'image/svg+xml', csp: SVG_CSP };
    return { contentType: `text/plain; charset=${charset}`, csp: null };
  }
  const dot = name.lastIndexOf('.');
  const byExt = dot >= 0 ? SAFE_BY_EXTENSION[name.slice(dot).toLowerCase()] : undefined;
  return { contentType: byExt ?? 'application/octet-stream', csp: null };
}
