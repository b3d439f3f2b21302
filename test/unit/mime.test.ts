import { describe, it, expect } from '@jest/globals';
import { rawServeType } from '../../src/domain/mime.js';

const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

describe('rawServeType (Gitea typesniffer + ServeContent)', () => {
  const cases: [string, string | Buffer, string, string | null][] = [
    ['a.html', '<!DOCTYPE html><script>alert(1)</script>', 'text/plain; charset=utf-8', null],
    ['a.js', 'alert(document.cookie)\n', 'text/plain; charset=utf-8', null],
    ['a.xml', '<?xml version="1.0"?><root/>', 'text/plain; charset=utf-8', null],
    ['a.css', 'body { color: red }', 'text/plain; charset=utf-8', null],
    ['empty', '', 'text/plain; charset=utf-8', null],
    ['a.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>', 'image/svg+xml', SVG_CSP],
    ['a.svg', '<!-- c --><?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg/>', 'image/svg+xml', SVG_CSP],
    ['named.txt', '  <svg onload="alert(1)">', 'image/svg+xml', SVG_CSP],
    ['a.pdf', '%PDF-1.7\n', 'application/pdf', "default-src 'none'; style-src 'unsafe-inline'"],
    ['a.png', Buffer.from('89504e470d0a1a0a0000', 'hex'), 'image/png', null],
    ['a.gif', 'GIF89a....', 'image/gif', null],
    ['a.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]), 'image/jpeg', null],
    ['id3.txt', 'ID3 is a tag format', 'text/plain; charset=utf-8', null],
    ['a.mp3', Buffer.from([0x49, 0x44, 0x33, 0x03, 0x00, 0x00, 0x00]), 'audio/mpeg', null],
    ['latin.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), 'text/plain; charset=iso-8859-1', null],
    ['cut.txt', Buffer.concat([Buffer.from('a'.repeat(1023)), Buffer.from('é')]), 'text/plain; charset=utf-8', null],
    ['utf16.txt', Buffer.from([0xff, 0xfe, 0x61, 0x00]), 'text/plain; charset=utf-16le', null],
    ['a.bin', Buffer.from([0x00, 0x01, 0x02, 0x03]), 'application/octet-stream', null],
    ['a.zip', Buffer.from('504b030414000000', 'hex'), 'application/octet-stream', null],
    ['a.flac', Buffer.from([0x00, 0x01, 0x02]), 'audio/flac', null],
  ];
  it.each(cases)('%s', (name, content, contentType, csp) => {
    expect(rawServeType(name, Buffer.from(content))).toEqual({ contentType, csp });
  });
});
