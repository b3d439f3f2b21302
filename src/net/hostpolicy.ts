import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { promises as dnsPromises } from 'node:dns';

/**
 * The one outbound-request policy (SECURITY.md "Outbound requests"): which hosts the server may connect to for
 * migrations, mirrors and webhooks. Checked on the resolved address at connect time (guardedLookup) and again on
 * every redirect hop (request.ts), so DNS rebinding and redirects to internal addresses do not get through.
 */
export interface HostPolicy {
  /** Whether a connection to `ip` may be made for a URL whose host is `host` (a name or an IP literal). */
  allows(host: string, ip: string): boolean;
  /** Name-only pre-check before any resolution: false when the name itself is refused (blocked, not allowed). */
  allowsName(host: string): boolean;
}

/** Thrown when a URL, a resolved address or a redirect target is refused by the policy. Never names the address. */
export class OutboundBlockedError extends Error {
  readonly code = 'ANVIL_OUTBOUND_BLOCKED';
  constructor(message = 'the request was blocked by the outbound host policy') {
    super(message);
    this.name = 'OutboundBlockedError';
  }
}

function subnets(list: BlockList, family: 'ipv4' | 'ipv6', cidrs: readonly string[]): BlockList {
  for (const c of cidrs) {
    const [net, bits] = c.split('/') as [string, string];
    list.addSubnet(net, Number(bits), family);
  }
  return list;
}

const LOOPBACK = subnets(subnets(new BlockList(), 'ipv4', ['127.0.0.0/8']), 'ipv6', ['::1/128']);
/** Gitea's "private": RFC 1918 and RFC 4193 unique local addresses. */
const PRIVATE = subnets(subnets(new BlockList(), 'ipv4', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']), 'ipv6', ['fc00::/7']);
/**
 * Never "external", whatever Gitea's Go net helpers say: besides loopback and private, link-local, CGNAT, the IPv6
 * transition ranges (NAT64, 6to4, Teredo) that can tunnel to internal IPv4, documentation, benchmarking,
 * reserved, multicast and unspecified addresses.
 */
const NOT_EXTERNAL = subnets(
  subnets(new BlockList(), 'ipv4', [
    '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24',
    '192.0.2.0/24', '192.88.99.0/24', '192.168.0.0/16', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24',
    '224.0.0.0/4', '240.0.0.0/4',
  ]),
  'ipv6',
  [
    // ::ffff:0:0:0/96 is SIIT's IPv4-translated range: like NAT64 it can lead to an internal IPv4 address.
    '::/96', '::ffff:0:0:0/96', '64:ff9b::/96', '64:ff9b:1::/48', '100::/64', '2001::/32', '2001:2::/48',
    '2001:db8::/32', '2002::/16', 'fc00::/7', 'fe80::/10', 'fec0::/10', 'ff00::/8',
  ],
);

/** Strips IPv6 brackets and unwraps IPv4-mapped IPv6 (`::ffff:127.0.0.1`) so a mapped address is judged as IPv4. */
export function normalizeIp(ip: string): string {
  let s = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const mapped = /^(?:0{0,4}:){0,4}:?(?:0{0,4}:)?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(s);
  if (mapped) return mapped[1]!;
  const hex = /^(?:0{0,4}:){0,4}:?(?:0{0,4}:)?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(s);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return s.toLowerCase();
}

function check(list: BlockList, ip: string): boolean {
  const n = normalizeIp(ip);
  const family = isIP(n);
  if (family === 0) return false;
  return list.check(n, family === 4 ? 'ipv4' : 'ipv6');
}

export const isLoopbackIp = (ip: string): boolean => check(LOOPBACK, ip);
export const isPrivateIp = (ip: string): boolean => check(PRIVATE, ip);
/** A globally routable unicast address; the default of every outbound list. */
export const isExternalIp = (ip: string): boolean => isIP(normalizeIp(ip)) !== 0 && !check(NOT_EXTERNAL, ip);

/** Glob on host names as Gitea's hostmatcher does: `*` matches any run of characters (dots included). */
function globToRegExp(glob: string): RegExp {
  const body = glob
    .toLowerCase()
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`);
}

/**
 * A parsed host list in Gitea's syntax (`[webhook] ALLOWED_HOST_LIST`, `[migrations] ALLOWED_DOMAINS` /
 * `BLOCKED_DOMAINS`): keywords `external`, `private`, `loopback`, `*`; CIDRs; host names with `*` wildcards.
 */
export class HostMatchList {
  private readonly keywords = new Set<string>();
  private readonly cidrs = new BlockList();
  private hasCidrs = false;
  private readonly names: RegExp[] = [];
  readonly isEmpty: boolean;

  constructor(entries: readonly string[]) {
    const items = entries.map((e) => e.trim().toLowerCase()).filter((e) => e !== '');
    this.isEmpty = items.length === 0;
    for (const item of items) {
      if (item === 'external' || item === 'private' || item === 'loopback' || item === '*') {
        this.keywords.add(item);
        continue;
      }
      const slash = item.indexOf('/');
      if (slash > 0) {
        const net = normalizeIp(item.slice(0, slash));
        const bits = Number(item.slice(slash + 1));
        const family = isIP(net);
        if (family !== 0 && Number.isInteger(bits) && bits >= 0 && bits <= (family === 4 ? 32 : 128)) {
          this.cidrs.addSubnet(net, bits, family === 4 ? 'ipv4' : 'ipv6');
          this.hasCidrs = true;
          continue;
        }
      }
      const literal = normalizeIp(item);
      if (isIP(literal) !== 0) {
        this.cidrs.addAddress(literal, isIP(literal) === 4 ? 'ipv4' : 'ipv6');
        this.hasCidrs = true;
        continue;
      }
      this.names.push(globToRegExp(item));
    }
  }

  /** Whether the host name matches a name entry (or `*`). IP literals are judged by matchIp. */
  matchHostName(host: string): boolean {
    if (this.keywords.has('*')) return true;
    const h = host.toLowerCase().replace(/\.$/, '');
    return this.names.some((re) => re.test(h));
  }

  /** Whether the address matches a keyword or a CIDR entry. */
  matchIp(ip: string): boolean {
    const n = normalizeIp(ip);
    const family = isIP(n);
    if (family === 0) return false;
    if (this.keywords.has('*')) return true;
    if (this.keywords.has('external') && isExternalIp(n)) return true;
    if (this.keywords.has('private') && isPrivateIp(n)) return true;
    if (this.keywords.has('loopback') && isLoopbackIp(n)) return true;
    return this.hasCidrs && this.cidrs.check(n, family === 4 ? 'ipv4' : 'ipv6');
  }

  matchHostOrIp(host: string, ip: string): boolean {
    return this.matchHostName(host) || this.matchIp(ip);
  }
}

/** `[webhook] ALLOWED_HOST_LIST`: a connection is allowed when the host name or the resolved address matches. */
export function webhookHostPolicy(allowedHostList: readonly string[]): HostPolicy {
  const list = new HostMatchList(allowedHostList);
  return {
    allows: (host, ip) => list.matchHostOrIp(host, ip),
    // The name alone cannot refuse: an address entry (external, CIDR) may still match after resolution.
    allowsName: () => !list.isEmpty,
  };
}

/**
 * `[migrations]`: BLOCKED_DOMAINS wins; a non-empty ALLOWED_DOMAINS must match the name (or the address);
 * without ALLOW_LOCALNETWORKS every resolved address must be external (an allowed name does not lift that).
 */
export function migrationHostPolicy(cfg: {
  readonly allowLocalNetworks: boolean;
  readonly allowedDomains: readonly string[];
  readonly blockedDomains: readonly string[];
}): HostPolicy {
  const allowed = new HostMatchList(cfg.allowedDomains);
  const blocked = new HostMatchList(cfg.blockedDomains);
  const nameOk = (host: string) => !blocked.matchHostName(host) && (allowed.isEmpty || allowed.matchHostName(host) || isIP(normalizeIp(host)) !== 0);
  return {
    allowsName: nameOk,
    allows(host, ip) {
      if (blocked.matchHostOrIp(host, ip)) return false;
      if (!allowed.isEmpty && !allowed.matchHostOrIp(host, ip)) return false;
      // ALLOW_LOCALNETWORKS adds Gitea's "private" and "loopback" to "external", and nothing more: link-local (cloud
      // metadata at 169.254.169.254, fe80::/10), CGNAT, the transition ranges, unspecified and multicast stay refused.
      if (cfg.allowLocalNetworks) return isExternalIp(ip) || isPrivateIp(ip) || isLoopbackIp(ip);
      return isExternalIp(ip);
    },
  };
}

/** The host of a URL as connections see it: IPv6 literals without brackets, no trailing dot. */
export function urlHost(url: URL): string {
  const h = url.hostname;
  return (h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h).replace(/\.$/, '');
}

/**
 * Resolves the URL's host and checks every address (one refused address refuses the URL, so a name that resolves
 * to both an external and an internal address cannot be used to reach the internal one). Returns the addresses,
 * in resolver order, for pinning a subprocess to them.
 */
export async function checkUrlAllowed(url: URL, policy: HostPolicy): Promise<string[]> {
  const host = urlHost(url);
  if (host === '' || !policy.allowsName(host)) throw new OutboundBlockedError();
  let addresses: string[];
  if (isIP(normalizeIp(host)) !== 0) {
    addresses = [normalizeIp(host)];
  } else {
    try {
      addresses = (await dnsPromises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      throw new OutboundBlockedError('the host name could not be resolved');
    }
  }
  if (addresses.length === 0 || addresses.some((ip) => !policy.allows(host, ip))) throw new OutboundBlockedError();
  return addresses;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/http/https connections that applies the policy to what the name resolves to at connect
 * time. (IP-literal hosts skip lookup in Node, so callers check those with checkUrlAllowed first.)
 */
export function guardedLookup(policy: HostPolicy) {
  return function lookup(hostname: string, options: { family?: number | string; all?: boolean; hints?: number } | number, callback: LookupCallback): void {
    const opts = typeof options === 'number' ? { family: options } : options;
    const family = opts.family === 'IPv4' ? 4 : opts.family === 'IPv6' ? 6 : typeof opts.family === 'number' ? opts.family : 0;
    dnsLookup(hostname, { family, hints: opts.hints, all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as LookupAddress[];
      if (list.length === 0 || list.some((a) => !policy.allows(hostname, a.address))) {
        return callback(Object.assign(new OutboundBlockedError(), { errno: 0, syscall: 'lookup' }) as NodeJS.ErrnoException, '');
      }
      if (opts.all) return callback(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}
