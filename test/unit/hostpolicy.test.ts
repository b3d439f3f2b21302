import http from 'node:http';
import dns from 'node:dns';
import { jest } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { HostMatchList, isExternalIp, migrationHostPolicy, webhookHostPolicy, checkUrlAllowed, OutboundBlockedError } from '../../src/net/hostpolicy.js';
import { outboundRequest } from '../../src/net/request.js';

describe('isExternalIp', () => {
  it.each([
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.20.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::', false],
    ['::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['0:0:0:0:0:ffff:7f00:1', false],
    ['::ffff:0:7f00:1', false],
    ['::ffff:0:10.0.0.1', false],
    ['::7f00:1', false],
    ['64:ff9b::7f00:1', false],
    ['2002:7f00:1::', false],
    ['2001:0:4136:e378::1', false],
    ['fd00::1', false],
    ['fe80::1', false],
    ['192.0.2.1', false],
    ['198.18.0.1', false],
    ['224.0.0.1', false],
    ['not-an-ip', false],
  ])('%s -> %s', (ip, expected) => expect(isExternalIp(ip)).toBe(expected));
});

describe('HostMatchList', () => {
  const list = new HostMatchList(['loopback', '10.0.0.0/8', '*.example.com', 'exact.org']);
  it('matches keywords, CIDRs and host globs', () => {
    expect(list.matchIp('127.0.0.2')).toBe(true);
    expect(list.matchIp('10.9.9.9')).toBe(true);
    expect(list.matchIp('11.0.0.1')).toBe(false);
    expect(list.matchHostName('a.b.example.com')).toBe(true);
    expect(list.matchHostName('example.com')).toBe(false);
    expect(list.matchHostName('EXACT.org')).toBe(true);
    expect(list.matchHostName('exact.org.evil')).toBe(false);
  });
  it('treats an empty list as matching nothing', () => {
    const empty = new HostMatchList(['', ' ']);
    expect(empty.isEmpty).toBe(true);
    expect(empty.matchIp('8.8.8.8')).toBe(false);
  });
});

describe('policies', () => {
  it('webhook default (external) refuses loopback and private addresses', () => {
    const p = webhookHostPolicy(['external']);
    expect(p.allows('hook.example', '8.8.8.8')).toBe(true);
    expect(p.allows('hook.example', '127.0.0.1')).toBe(false);
    expect(p.allows('hook.example', '192.168.0.10')).toBe(false);
  });
  it('migrations: blocked wins, allowed must match, local networks need the switch', () => {
    const p = migrationHostPolicy({ allowLocalNetworks: false, allowedDomains: ['*.github.com', 'gitlab.com'], blockedDomains: ['evil.github.com'] });
    expect(p.allowsName('api.github.com')).toBe(true);
    expect(p.allowsName('evil.github.com')).toBe(false);
    expect(p.allowsName('bitbucket.org')).toBe(false);
    expect(p.allows('gitlab.com', '8.8.4.4')).toBe(true);
    expect(p.allows('gitlab.com', '10.0.0.1')).toBe(false);
    const local = migrationHostPolicy({ allowLocalNetworks: true, allowedDomains: [], blockedDomains: [] });
    expect(local.allows('localhost', '127.0.0.1')).toBe(true);
    expect(local.allows('x', '0.0.0.0')).toBe(false);
    for (const ip of ['10.1.2.3', '192.168.0.1', 'fd00::1', '::1', '::ffff:127.0.0.1', '8.8.8.8']) expect([ip, local.allows('x', ip)]).toEqual([ip, true]);
    // Local networks are RFC 1918 / RFC 4193 and loopback, not link-local (cloud metadata), CGNAT or tunnels.
    for (const ip of ['169.254.169.254', 'fe80::1', '::ffff:169.254.169.254', '100.64.0.1', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::', '224.0.0.1', 'ff02::1', '::', '255.255.255.255']) {
      expect([ip, local.allows('x', ip)]).toEqual([ip, false]);
    }
  });
  it('checkUrlAllowed refuses IP literals and names resolving to refused addresses', async () => {
    const p = webhookHostPolicy(['external']);
    await expect(checkUrlAllowed(new URL('http://127.0.0.1:1/x'), p)).rejects.toBeInstanceOf(OutboundBlockedError);
    await expect(checkUrlAllowed(new URL('http://[::1]:1/x'), p)).rejects.toBeInstanceOf(OutboundBlockedError);
    await expect(checkUrlAllowed(new URL('http://localhost:1/x'), p)).rejects.toBeInstanceOf(OutboundBlockedError);
    await expect(checkUrlAllowed(new URL('http://127.0.0.1:1/x'), webhookHostPolicy(['loopback']))).resolves.toEqual(['127.0.0.1']);
  });
});

describe('outboundRequest', () => {
  let server: http.Server;
  let base: string;
  let hits: string[];
  beforeAll(async () => {
    hits = [];
    server = http.createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      if (req.url === '/to-internal') return void res.writeHead(302, { location: 'http://10.255.255.1/x' }).end();
      if (req.url === '/to-ok') return void res.writeHead(303, { location: '/ok' }).end();
      if (req.url === '/big') return void res.end(Buffer.alloc(10_000, 97));
      if (req.url?.startsWith('/to=')) return void res.writeHead(307, { location: decodeURIComponent(req.url.slice(4)) }).end();
      if (req.url === '/auth') return void res.end(JSON.stringify({ auth: req.headers.authorization ?? null, cookie: req.headers.cookie ?? null, ct: req.headers['content-type'] ?? null }));
      res.end('fine');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('follows allowed redirects and turns a 303 after POST into a GET', async () => {
    const res = await outboundRequest(`${base}/to-ok`, { method: 'POST', body: 'x', timeoutMs: 2000, maxRedirects: 3, policy: webhookHostPolicy(['loopback']) });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('fine');
    expect(hits.slice(-2)).toEqual(['POST /to-ok', 'GET /ok']);
  });
  it('re-checks each redirect hop', async () => {
    await expect(outboundRequest(`${base}/to-internal`, { timeoutMs: 2000, maxRedirects: 3, policy: webhookHostPolicy(['loopback']) })).rejects.toBeInstanceOf(OutboundBlockedError);
  });
  it('never connects to a refused host', async () => {
    const before = hits.length;
    await expect(outboundRequest(`${base}/ok`, { timeoutMs: 2000, policy: webhookHostPolicy(['external']) })).rejects.toBeInstanceOf(OutboundBlockedError);
    await expect(outboundRequest(`http://localhost:${new URL(base).port}/ok`, { timeoutMs: 2000, policy: webhookHostPolicy(['external']) })).rejects.toBeInstanceOf(OutboundBlockedError);
    expect(hits.length).toBe(before);
  });
  it('keeps credentials on same-origin redirects and drops them on a redirect to another origin', async () => {
    const opts = { method: 'POST', body: '{}', headers: { Authorization: 'Bearer sekret', Cookie: 'c=1', 'Content-Type': 'application/json' }, timeoutMs: 2000, maxRedirects: 3, policy: webhookHostPolicy(['loopback']) };
    const same = await outboundRequest(`${base}/to=${encodeURIComponent('/auth')}`, opts);
    expect(JSON.parse(same.body.toString())).toEqual({ auth: 'Bearer sekret', cookie: 'c=1', ct: 'application/json' });
    // Another port is another origin (a different service on the same host).
    const other = http.createServer((req, res) => res.end(JSON.stringify({ auth: req.headers.authorization ?? null, cookie: req.headers.cookie ?? null, ct: req.headers['content-type'] ?? null })));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    try {
      const target = `http://127.0.0.1:${(other.address() as AddressInfo).port}/auth`;
      const moved = await outboundRequest(`${base}/to=${encodeURIComponent(target)}`, opts);
      // 307 keeps the method and body (and its content type), never the credentials.
      expect(JSON.parse(moved.body.toString())).toEqual({ auth: null, cookie: null, ct: 'application/json' });
    } finally {
      await new Promise<void>((r) => other.close(() => r()));
    }
  });
  it('counts name resolution against the timeout', async () => {
    const spy = jest.spyOn(dns.promises, 'lookup').mockImplementation(() => new Promise(() => undefined));
    try {
      const t0 = Date.now();
      await expect(outboundRequest('http://hangs.example.com/', { timeoutMs: 200, policy: webhookHostPolicy(['*']) })).rejects.toThrow('the request timed out');
      expect(Date.now() - t0).toBeLessThan(1500);
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
  it('caps the kept response body', async () => {
    const res = await outboundRequest(`${base}/big`, { timeoutMs: 2000, policy: webhookHostPolicy(['loopback']), maxResponseBytes: 100 });
    expect(res.body.length).toBe(100);
    expect(res.truncated).toBe(true);
  });
});
