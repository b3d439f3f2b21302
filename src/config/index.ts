import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parseGoDuration } from '../domain/duration.js';
import type { Budgets } from '../domain/ratelimit.js';
import { parseIni, type IniDocument } from './ini.js';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'none';

export interface Config {
  readonly server: {
    readonly protocol: 'http' | 'https';
    readonly httpAddr: string;
    readonly httpPort: number;
    /** Always ends with '/'. */
    readonly rootUrl: string;
    readonly appDataPath: string;
  };
  readonly database: {
    readonly type: 'sqlite3' | 'postgres';
    readonly path: string;
    readonly host: string;
    readonly name: string;
    readonly user: string;
    readonly passwd: string;
    readonly sslMode: 'disable' | 'require' | 'verify-full';
  };
  readonly repository: {
    readonly root: string;
    readonly defaultBranch: string;
    /** Upper bound of the archive cache (repo-archive/ under APP_DATA_PATH); the oldest archives are removed beyond it. */
    readonly archiveCacheMaxBytes: number;
    /** Per repository: bytes of cached clone/fetch packs kept (0 turns the pack cache off). */
    readonly packCacheMaxBytes: number;
  };
  readonly security: {
    readonly installLock: boolean;
    readonly secretKey: string;
    readonly minPasswordLength: number;
    /** Failed password logins allowed per client address per window before 429. */
    readonly loginMaxFailures: number;
    readonly loginFailureWindowSeconds: number;
    /** Gitea's DISABLE_WEBHOOKS: hook routes (but the admin ones) answer 403 and no delivery is recorded. */
    readonly disableWebhooks: boolean;
    /** Proxies whose X-Forwarded-For is believed (Gitea's REVERSE_PROXY_TRUSTED_PROXIES). */
    readonly reverseProxyTrustedProxies: readonly string[];
  };
  readonly api: { readonly defaultPagingNum: number; readonly maxResponseItems: number; readonly maxBodyBytes: number };
  readonly service: { readonly requireSigninView: boolean; readonly noReplyAddress: string };
  readonly migrations: {
    readonly allowLocalNetworks: boolean;
    readonly allowedDomains: readonly string[];
    readonly blockedDomains: readonly string[];
  };
  readonly webhook: {
    readonly allowedHostList: readonly string[];
    /** Whole-request budget of one delivery attempt (DELIVER_TIMEOUT, seconds in app.ini). */
    readonly deliverTimeoutMs: number;
    readonly skipTlsVerify: boolean;
    /** Attempts per delivery before it is given up (ours: Gitea does not retry). */
    readonly maxAttempts: number;
    /** First retry delay; doubled per attempt, capped at an hour. */
    readonly retryBackoffMs: number;
    /** Slow poll for deliveries written by other processes or left by a restart. */
    readonly pollIntervalMs: number;
  };
  /**
   * Gitea's [cron.cleanup_hook_task_table]: delivered webhook deliveries older than `olderThanMs`
   * (type olderthan) or beyond the newest `numberToKeep` per hook (type perwebhook) are deleted every `everyMs`.
   */
  readonly hookTaskCleanup: {
    readonly enabled: boolean;
    readonly runAtStart: boolean;
    readonly type: 'olderthan' | 'perwebhook';
    readonly olderThanMs: number;
    readonly numberToKeep: number;
    readonly everyMs: number;
  };
  /**
   * Request budgets per minute (0 = unlimited): anonymous callers per client address, signed-in users per
   * account; site administrators are not limited. `[security] REVERSE_PROXY_TRUSTED_PROXIES` says whose
   * X-Forwarded-For names the client.
   */
  readonly rateLimit: { readonly enabled: boolean; readonly anonymous: Budgets; readonly user: Budgets };
  /** Largest markdown/markup text the render endpoints accept, in bytes (413 beyond). */
  readonly markdown: { readonly maxInputBytes: number };
  readonly log: { readonly level: LogLevel };
}

export class ConfigError extends Error {}

const CLEANUP = 'cron.cleanup_hook_task_table';

/**
 * How often a Gitea cron SCHEDULE runs: `@every <duration>`, `@hourly`, `@daily`, `@midnight`, `@weekly`. We run
 * tasks on an interval from start-up, not at wall-clock times; a five-field cron expression is read as daily,
 * with a warning, rather than refused, so that a Gitea app.ini still starts.
 */
function scheduleInterval(section: string, raw: string, warnings: string[]): number {
  const text = raw.trim();
  const every = /^@every\s+(.+)$/iu.exec(text);
  if (every) {
    let ms: number;
    try {
      ms = parseGoDuration(every[1]!.trim());
    } catch {
      throw new ConfigError(`[${section}] SCHEDULE: "${raw}" is not a duration after @every`);
    }
    // Timers hold at most 2^31 - 1 ms; node runs a longer one at once, over and over.
    if (ms < 1000 || ms > 2 ** 31 - 1) throw new ConfigError(`[${section}] SCHEDULE: "${raw}" must be between one second and 24 days`);
    return ms;
  }
  const named: Record<string, number> = { '@hourly': 3_600_000, '@daily': 86_400_000, '@midnight': 86_400_000, '@weekly': 7 * 86_400_000 };
  const ms = named[text.toLowerCase()];
  if (ms !== undefined) return ms;
  warnings.push(`[${section}] SCHEDULE: "${raw}" is run daily from start-up (only @every, @hourly, @daily, @midnight and @weekly are read)`);
  return 86_400_000;
}

export interface ConfigSource {
  /** app.ini path; absent = defaults only. */
  readonly file?: string | undefined;
  /** process.env-like map; ANVIL__SECTION__KEY entries override the file. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Base directory for relative paths (default: the current directory). */
  readonly cwd?: string;
  /** Extra values that win over file and environment (tests, CLI flags). */
  readonly overrides?: IniDocument;
}

type KeySpec = { readonly kind: 'string' | 'int' | 'bool' | 'list' | 'enum'; readonly values?: readonly string[] };
/**
 * The settings we support, with Gitea's section and key names so operators can reuse an app.ini.
 * Anything else is reported as a warning (Gitea has hundreds of keys we do not read).
 */
const KNOWN: Record<string, Record<string, KeySpec>> = {
  server: {
    PROTOCOL: { kind: 'enum', values: ['http', 'https'] },
    HTTP_ADDR: { kind: 'string' },
    HTTP_PORT: { kind: 'int' },
    ROOT_URL: { kind: 'string' },
    APP_DATA_PATH: { kind: 'string' },
    DOMAIN: { kind: 'string' },
  },
  database: {
    DB_TYPE: { kind: 'enum', values: ['sqlite3', 'postgres'] },
    PATH: { kind: 'string' },
    HOST: { kind: 'string' },
    NAME: { kind: 'string' },
    USER: { kind: 'string' },
    PASSWD: { kind: 'string' },
    SSL_MODE: { kind: 'enum', values: ['disable', 'require', 'verify-full'] },
  },
  repository: { ROOT: { kind: 'string' }, DEFAULT_BRANCH: { kind: 'string' }, ARCHIVE_CACHE_MAX_BYTES: { kind: 'int' }, PACK_CACHE_MAX_BYTES: { kind: 'int' } },
  security: {
    INSTALL_LOCK: { kind: 'bool' },
    SECRET_KEY: { kind: 'string' },
    MIN_PASSWORD_LENGTH: { kind: 'int' },
    LOGIN_MAX_FAILURES: { kind: 'int' },
    LOGIN_FAILURE_WINDOW: { kind: 'int' },
    DISABLE_WEBHOOKS: { kind: 'bool' },
    REVERSE_PROXY_TRUSTED_PROXIES: { kind: 'list' },
  },
  rate_limit: {
    ENABLED: { kind: 'bool' },
    ANONYMOUS_READ: { kind: 'int' },
    ANONYMOUS_WRITE: { kind: 'int' },
    ANONYMOUS_EXPENSIVE: { kind: 'int' },
    USER_READ: { kind: 'int' },
    USER_WRITE: { kind: 'int' },
    USER_EXPENSIVE: { kind: 'int' },
  },
  api: { DEFAULT_PAGING_NUM: { kind: 'int' }, MAX_RESPONSE_ITEMS: { kind: 'int' }, MAX_BODY_SIZE: { kind: 'int' } },
  service: { REQUIRE_SIGNIN_VIEW: { kind: 'bool' }, NO_REPLY_ADDRESS: { kind: 'string' } },
  migrations: { ALLOW_LOCALNETWORKS: { kind: 'bool' }, ALLOWED_DOMAINS: { kind: 'list' }, BLOCKED_DOMAINS: { kind: 'list' } },
  webhook: {
    ALLOWED_HOST_LIST: { kind: 'list' },
    DELIVER_TIMEOUT: { kind: 'int' },
    SKIP_TLS_VERIFY: { kind: 'bool' },
    MAX_ATTEMPTS: { kind: 'int' },
    RETRY_BACKOFF_MS: { kind: 'int' },
    POLL_INTERVAL_MS: { kind: 'int' },
  },
  'cron.cleanup_hook_task_table': {
    ENABLED: { kind: 'bool' },
    RUN_AT_START: { kind: 'bool' },
    SCHEDULE: { kind: 'string' },
    CLEANUP_TYPE: { kind: 'enum', values: ['olderthan', 'perwebhook'] },
    OLDER_THAN: { kind: 'string' },
    NUMBER_TO_KEEP: { kind: 'int' },
  },
  markdown: { MAX_INPUT_SIZE: { kind: 'int' } },
  log: { LEVEL: { kind: 'enum', values: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'none'] } },
};

export interface LoadedConfig {
  readonly config: Config;
  readonly warnings: readonly string[];
}

/** Parses app.ini plus ANVIL__SECTION__KEY variables into one frozen Config. Throws ConfigError naming the key. */
export function loadConfig(source: ConfigSource = {}): LoadedConfig {
  const cwd = source.cwd ?? process.cwd();
  const warnings: string[] = [];
  const values: Record<string, Record<string, string>> = {};
  const put = (section: string, key: string, value: string, origin: string) => {
    const sec = section.toLowerCase() === 'default' ? '' : section.toLowerCase();
    const spec = KNOWN[sec]?.[key.toUpperCase()];
    if (!spec) {
      warnings.push(`${origin}: unknown setting [${sec || 'DEFAULT'}] ${key} is ignored`);
      return;
    }
    (values[sec] ??= {})[key.toUpperCase()] = value;
  };
  if (source.file) {
    let text: string;
    try {
      text = readFileSync(source.file, 'utf8');
    } catch (e) {
      throw new ConfigError(`cannot read configuration file ${source.file}: ${(e as Error).message}`);
    }
    let doc: IniDocument;
    try {
      doc = parseIni(text);
    } catch (e) {
      throw new ConfigError(`${source.file}: ${(e as Error).message}`);
    }
    for (const [section, entries] of Object.entries(doc)) {
      if (section !== '' && !KNOWN[section.toLowerCase()]) {
        warnings.push(`${source.file}: unknown section [${section}] is ignored`);
        continue;
      }
      for (const [k, v] of Object.entries(entries)) put(section, k, v, source.file);
    }
  }
  for (const [name, value] of Object.entries(source.env ?? {})) {
    const m = /^ANVIL__([A-Za-z0-9_.]+?)__([A-Za-z0-9_]+)$/.exec(name);
    if (!m || value === undefined) continue;
    put(m[1]!.replace(/_0X2E_/gi, '.'), m[2]!, value, `environment ${name}`);
  }
  for (const [section, entries] of Object.entries(source.overrides ?? {})) {
    for (const [k, v] of Object.entries(entries)) put(section, k, v, 'override');
  }

  const get = (section: string, key: string): string | undefined => values[section]?.[key];
  const str = (section: string, key: string, dflt: string) => get(section, key) ?? dflt;
  const int = (section: string, key: string, dflt: number, min = 0) => {
    const raw = get(section, key);
    if (raw === undefined || raw.trim() === '') return dflt;
    if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`[${section}] ${key}: "${raw}" is not an integer`);
    const n = Number(raw.trim());
    if (n < min) throw new ConfigError(`[${section}] ${key}: ${n} is below the minimum ${min}`);
    return n;
  };
  const bool = (section: string, key: string, dflt: boolean) => {
    const raw = get(section, key);
    if (raw === undefined || raw.trim() === '') return dflt;
    const v = raw.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(v)) return true;
    if (['false', '0', 'no', 'off'].includes(v)) return false;
    throw new ConfigError(`[${section}] ${key}: "${raw}" is not a boolean (true or false)`);
  };
  const oneOf = <T extends string>(section: string, key: string, dflt: T): T => {
    const raw = get(section, key);
    if (raw === undefined || raw.trim() === '') return dflt;
    const allowed = KNOWN[section]![key]!.values!;
    const v = raw.trim().toLowerCase();
    if (!allowed.includes(v)) throw new ConfigError(`[${section}] ${key}: "${raw}" is not one of ${allowed.join(', ')}`);
    return v as T;
  };
  const list = (section: string, key: string, dflt: string[]) => {
    const raw = get(section, key);
    if (raw === undefined) return dflt;
    return raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  };
  const path = (p: string) => (isAbsolute(p) ? p : resolve(cwd, p));
  const duration = (section: string, key: string, dflt: string) => {
    const raw = get(section, key)?.trim() || dflt;
    let ms = -1;
    try {
      ms = parseGoDuration(raw);
    } catch {
      // reported below
    }
    if (!(ms >= 0)) throw new ConfigError(`[${section}] ${key}: "${raw}" is not a duration (such as 168h or 30m)`);
    return ms;
  };

  const protocol = oneOf<'http' | 'https'>('server', 'PROTOCOL', 'http');
  const httpAddr = str('server', 'HTTP_ADDR', '0.0.0.0');
  const httpPort = int('server', 'HTTP_PORT', 3000);
  if (httpPort > 65535) throw new ConfigError(`[server] HTTP_PORT: ${httpPort} is not a port number`);
  const domain = str('server', 'DOMAIN', 'localhost');
  let rootUrl = str('server', 'ROOT_URL', `${protocol}://${domain}:${httpPort}/`);
  try {
    const u = new URL(rootUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new ConfigError(`[server] ROOT_URL: "${rootUrl}" is not an http(s) URL`);
  }
  if (!rootUrl.endsWith('/')) rootUrl += '/';
  const appDataPath = path(str('server', 'APP_DATA_PATH', 'data'));
  const dbType = oneOf<'sqlite3' | 'postgres'>('database', 'DB_TYPE', 'sqlite3');
  const secretKey = str('security', 'SECRET_KEY', '');
  const defaultPagingNum = int('api', 'DEFAULT_PAGING_NUM', 30, 1);
  const maxResponseItems = int('api', 'MAX_RESPONSE_ITEMS', 50, 1);

  const config: Config = {
    server: { protocol, httpAddr, httpPort, rootUrl, appDataPath },
    database: {
      type: dbType,
      path: path(str('database', 'PATH', resolve(appDataPath, 'anvil.db'))),
      host: str('database', 'HOST', '127.0.0.1:5432'),
      name: str('database', 'NAME', 'anvil'),
      user: str('database', 'USER', 'postgres'),
      passwd: str('database', 'PASSWD', ''),
      sslMode: oneOf('database', 'SSL_MODE', 'disable'),
    },
    repository: {
      root: path(str('repository', 'ROOT', resolve(appDataPath, 'repositories'))),
      defaultBranch: str('repository', 'DEFAULT_BRANCH', 'main').trim() || 'main',
      archiveCacheMaxBytes: int('repository', 'ARCHIVE_CACHE_MAX_BYTES', 1 << 30, 0),
      packCacheMaxBytes: int('repository', 'PACK_CACHE_MAX_BYTES', 512 << 20, 0),
    },
    security: {
      installLock: bool('security', 'INSTALL_LOCK', true),
      secretKey,
      minPasswordLength: int('security', 'MIN_PASSWORD_LENGTH', 8, 1),
      loginMaxFailures: int('security', 'LOGIN_MAX_FAILURES', 10, 1),
      loginFailureWindowSeconds: int('security', 'LOGIN_FAILURE_WINDOW', 300, 1),
      disableWebhooks: bool('security', 'DISABLE_WEBHOOKS', false),
      reverseProxyTrustedProxies: list('security', 'REVERSE_PROXY_TRUSTED_PROXIES', ['127.0.0.0/8', '::1/128']),
    },
    api: { defaultPagingNum, maxResponseItems, maxBodyBytes: int('api', 'MAX_BODY_SIZE', 1 << 20, 1024) },
    service: {
      requireSigninView: bool('service', 'REQUIRE_SIGNIN_VIEW', false),
      noReplyAddress: str('service', 'NO_REPLY_ADDRESS', 'noreply.localhost'),
    },
    migrations: {
      allowLocalNetworks: bool('migrations', 'ALLOW_LOCALNETWORKS', false),
      allowedDomains: list('migrations', 'ALLOWED_DOMAINS', []),
      blockedDomains: list('migrations', 'BLOCKED_DOMAINS', []),
    },
    webhook: {
      allowedHostList: list('webhook', 'ALLOWED_HOST_LIST', ['external']),
      deliverTimeoutMs: int('webhook', 'DELIVER_TIMEOUT', 5, 1) * 1000,
      skipTlsVerify: bool('webhook', 'SKIP_TLS_VERIFY', false),
      maxAttempts: int('webhook', 'MAX_ATTEMPTS', 5, 1),
      retryBackoffMs: int('webhook', 'RETRY_BACKOFF_MS', 10_000, 0),
      pollIntervalMs: int('webhook', 'POLL_INTERVAL_MS', 10_000, 50),
    },
    hookTaskCleanup: {
      enabled: bool(CLEANUP, 'ENABLED', true),
      runAtStart: bool(CLEANUP, 'RUN_AT_START', false),
      type: oneOf<'olderthan' | 'perwebhook'>(CLEANUP, 'CLEANUP_TYPE', 'olderthan'),
      olderThanMs: duration(CLEANUP, 'OLDER_THAN', '168h'),
      numberToKeep: int(CLEANUP, 'NUMBER_TO_KEEP', 10, 0),
      everyMs: scheduleInterval(CLEANUP, get(CLEANUP, 'SCHEDULE') ?? '@midnight', warnings),
    },
    rateLimit: {
      enabled: bool('rate_limit', 'ENABLED', true),
      anonymous: {
        read: int('rate_limit', 'ANONYMOUS_READ', 1200),
        write: int('rate_limit', 'ANONYMOUS_WRITE', 120),
        expensive: int('rate_limit', 'ANONYMOUS_EXPENSIVE', 120),
      },
      user: {
        read: int('rate_limit', 'USER_READ', 6000),
        write: int('rate_limit', 'USER_WRITE', 1200),
        expensive: int('rate_limit', 'USER_EXPENSIVE', 600),
      },
    },
    markdown: { maxInputBytes: int('markdown', 'MAX_INPUT_SIZE', 1 << 20, 1) },
    log: { level: oneOf<LogLevel>('log', 'LEVEL', 'info') },
  };
  return { config: deepFreeze(config), warnings };
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}
