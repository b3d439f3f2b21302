import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/index.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'anvil-config-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fileSeq = 0;
const ini = (text: string): string => {
  const p = join(dir, `app-${fileSeq++}.ini`);
  writeFileSync(p, text);
  return p;
};
/** The ConfigError message loadConfig throws for these sources. */
const errorOf = (source: Parameters<typeof loadConfig>[0]): string => {
  try {
    loadConfig(source);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('loadConfig did not fail');
};

describe('defaults', () => {
  it('without file or environment: Gitea\'s defaults, data under ./data', () => {
    const { config, warnings } = loadConfig({ cwd: dir, env: {} });
    expect(warnings).toEqual([]);
    expect(config.server).toEqual({
      protocol: 'http',
      httpAddr: '0.0.0.0',
      httpPort: 3000,
      rootUrl: 'http://localhost:3000/',
      appDataPath: join(dir, 'data'),
    });
    expect(config.database).toMatchObject({ type: 'sqlite3', path: join(dir, 'data', 'anvil.db'), sslMode: 'disable' });
    expect(config.repository.root).toBe(join(dir, 'data', 'repositories'));
    expect(config.api).toEqual({ defaultPagingNum: 30, maxResponseItems: 50, maxBodyBytes: 1024 * 1024 });
    expect(config.service.requireSigninView).toBe(false);
    expect(config.security).toMatchObject({ installLock: true, loginMaxFailures: 10 });
    expect(config.migrations).toEqual({ allowLocalNetworks: false, allowedDomains: [], blockedDomains: [] });
    expect(config.webhook.allowedHostList).toEqual(['external']);
    expect(config.log.level).toBe('info');
  });

  it('the configuration is deeply frozen', () => {
    const { config } = loadConfig({ cwd: dir, env: {} });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.server)).toBe(true);
    expect(Object.isFrozen(config.webhook.allowedHostList)).toBe(true);
    expect(() => {
      (config.server as { httpPort: number }).httpPort = 1;
    }).toThrow(TypeError);
  });
});

describe('app.ini', () => {
  it('reads Gitea\'s section and key names, comments and quoted values', () => {
    const file = ini(`; Anvil
APP_NAME = Anvil test
RUN_MODE = prod

[server]
PROTOCOL = http
HTTP_ADDR = 127.0.0.1
HTTP_PORT = 4000
ROOT_URL = "https://git.example.com/"
APP_DATA_PATH = /var/lib/anvil

# database
[database]
DB_TYPE  = postgres
HOST     = db.internal:5433
NAME     = anvil
USER     = gitea
PASSWD   = \`s3cr;et#\`
SSL_MODE = require

[repository]
ROOT = repos

[security]
INSTALL_LOCK = true
SECRET_KEY = abc

[api]
DEFAULT_PAGING_NUM = 20
MAX_RESPONSE_ITEMS = 40

[service]
REQUIRE_SIGNIN_VIEW = true

[migrations]
ALLOW_LOCALNETWORKS = true
ALLOWED_DOMAINS = github.com, *.gitlab.com,
BLOCKED_DOMAINS =

[webhook]
ALLOWED_HOST_LIST = private,loopback

[log]
LEVEL = Warn
`);
    const { config, warnings } = loadConfig({ file, cwd: dir, env: {} });
    expect(config.server).toEqual({ protocol: 'http', httpAddr: '127.0.0.1', httpPort: 4000, rootUrl: 'https://git.example.com/', appDataPath: '/var/lib/anvil' });
    expect(config.database).toEqual({
      type: 'postgres',
      path: '/var/lib/anvil/anvil.db',
      host: 'db.internal:5433',
      name: 'anvil',
      user: 'gitea',
      passwd: 's3cr;et#',
      sslMode: 'require',
    });
    expect(config.repository.root).toBe(join(dir, 'repos'));
    expect(config.security).toMatchObject({ installLock: true, secretKey: 'abc' });
    expect(config.api).toMatchObject({ defaultPagingNum: 20, maxResponseItems: 40 });
    expect(config.service.requireSigninView).toBe(true);
    expect(config.migrations).toEqual({ allowLocalNetworks: true, allowedDomains: ['github.com', '*.gitlab.com'], blockedDomains: [] });
    expect(config.webhook.allowedHostList).toEqual(['private', 'loopback']);
    expect(config.log.level).toBe('warn');
    // Gitea's top-level keys are not ours: warned about, not fatal.
    expect(warnings).toEqual([
      `${file}: unknown setting [DEFAULT] APP_NAME is ignored`,
      `${file}: unknown setting [DEFAULT] RUN_MODE is ignored`,
    ]);
  });

  it('unknown sections and keys are warnings naming them', () => {
    const file = ini('[server]\nHTTP_PORT = 3001\nLFS_START_SERVER = true\n[cache]\nADAPTER = memory\n');
    const { config, warnings } = loadConfig({ file, cwd: dir, env: {} });
    expect(config.server.httpPort).toBe(3001);
    expect(warnings).toEqual([`${file}: unknown setting [server] LFS_START_SERVER is ignored`, `${file}: unknown section [cache] is ignored`]);
  });

  it('a malformed line is an error naming the file and line', () => {
    const file = ini('[server]\nHTTP_PORT = 3000\nthis is not a setting\n');
    expect(errorOf({ file, cwd: dir, env: {} })).toBe(`${file}: line 3: expected KEY = value, got "this is not a setting"`);
  });

  it('a missing file is an error naming it', () => {
    const file = join(dir, 'nope.ini');
    expect(errorOf({ file, cwd: dir, env: {} })).toMatch(new RegExp(`^cannot read configuration file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));
  });
});

describe('ANVIL__SECTION__KEY environment variables', () => {
  it('override the file, and overrides win over both', () => {
    const file = ini('[server]\nHTTP_PORT = 4000\nHTTP_ADDR = 10.0.0.1\n[api]\nDEFAULT_PAGING_NUM = 20\n');
    const env = { ANVIL__SERVER__HTTP_PORT: '5000', ANVIL__api__DEFAULT_PAGING_NUM: '25', ANVIL__SERVICE__REQUIRE_SIGNIN_VIEW: 'true', PATH: '/usr/bin', ANVIL_OTHER: 'x' };
    const { config, warnings } = loadConfig({ file, cwd: dir, env, overrides: { api: { DEFAULT_PAGING_NUM: '15' } } });
    expect(config.server.httpPort).toBe(5000);
    expect(config.server.httpAddr).toBe('10.0.0.1');
    expect(config.server.rootUrl).toBe('http://localhost:5000/');
    expect(config.api.defaultPagingNum).toBe(15);
    expect(config.service.requireSigninView).toBe(true);
    expect(warnings).toEqual([]);
  });

  it('work without a file', () => {
    const { config } = loadConfig({ cwd: dir, env: { ANVIL__DATABASE__DB_TYPE: 'postgres', ANVIL__DATABASE__HOST: 'pg:5432', ANVIL__LOG__LEVEL: 'debug' } });
    expect(config.database.type).toBe('postgres');
    expect(config.database.host).toBe('pg:5432');
    expect(config.log.level).toBe('debug');
  });

  it('an unknown key is a warning naming the variable', () => {
    const { warnings } = loadConfig({ cwd: dir, env: { ANVIL__SERVER__NOPE: '1' } });
    expect(warnings).toEqual(['environment ANVIL__SERVER__NOPE: unknown setting [server] NOPE is ignored']);
  });
});

describe('invalid values are errors naming the key', () => {
  it.each([
    [{ server: { HTTP_PORT: 'abc' } }, '[server] HTTP_PORT: "abc" is not an integer'],
    [{ server: { HTTP_PORT: '70000' } }, '[server] HTTP_PORT: 70000 is not a port number'],
    [{ server: { PROTOCOL: 'gopher' } }, '[server] PROTOCOL: "gopher" is not one of http, https'],
    [{ server: { ROOT_URL: 'ftp://example.com/' } }, '[server] ROOT_URL: "ftp://example.com/" is not an http(s) URL'],
    [{ server: { ROOT_URL: 'not a url' } }, '[server] ROOT_URL: "not a url" is not an http(s) URL'],
    [{ database: { DB_TYPE: 'mysql' } }, '[database] DB_TYPE: "mysql" is not one of sqlite3, postgres'],
    [{ database: { SSL_MODE: 'sometimes' } }, '[database] SSL_MODE: "sometimes" is not one of disable, require, verify-full'],
    [{ service: { REQUIRE_SIGNIN_VIEW: 'maybe' } }, '[service] REQUIRE_SIGNIN_VIEW: "maybe" is not a boolean (true or false)'],
    [{ api: { DEFAULT_PAGING_NUM: '0' } }, '[api] DEFAULT_PAGING_NUM: 0 is below the minimum 1'],
    [{ api: { MAX_RESPONSE_ITEMS: '1.5' } }, '[api] MAX_RESPONSE_ITEMS: "1.5" is not an integer'],
    [{ log: { LEVEL: 'loud' } }, '[log] LEVEL: "loud" is not one of trace, debug, info, warn, error, fatal, none'],
  ])('%j', (overrides, message) => {
    expect(errorOf({ cwd: dir, env: {}, overrides })).toBe(message);
  });

  it('from the environment too', () => {
    expect(errorOf({ cwd: dir, env: { ANVIL__SECURITY__INSTALL_LOCK: 'yes please' } })).toBe('[security] INSTALL_LOCK: "yes please" is not a boolean (true or false)');
  });

  it('booleans accept Gitea\'s spellings', () => {
    for (const [raw, value] of [['true', true], ['1', true], ['On', true], ['false', false], ['0', false], ['NO', false]] as const) {
      expect(loadConfig({ cwd: dir, env: {}, overrides: { service: { REQUIRE_SIGNIN_VIEW: raw } } }).config.service.requireSigninView).toBe(value);
    }
  });
});

describe('ROOT_URL', () => {
  it('gains a trailing slash', () => {
    expect(loadConfig({ cwd: dir, env: {}, overrides: { server: { ROOT_URL: 'https://example.com/git' } } }).config.server.rootUrl).toBe('https://example.com/git/');
    expect(loadConfig({ cwd: dir, env: {}, overrides: { server: { ROOT_URL: 'https://example.com' } } }).config.server.rootUrl).toBe('https://example.com/');
  });

  it('keeps one that is there', () => {
    expect(loadConfig({ cwd: dir, env: {}, overrides: { server: { ROOT_URL: 'https://example.com/git/' } } }).config.server.rootUrl).toBe('https://example.com/git/');
  });

  it('defaults from PROTOCOL, DOMAIN and HTTP_PORT', () => {
    const { config } = loadConfig({ cwd: dir, env: {}, overrides: { server: { PROTOCOL: 'https', DOMAIN: 'git.local', HTTP_PORT: '8443' } } });
    expect(config.server.rootUrl).toBe('https://git.local:8443/');
  });
});

describe('[cron.cleanup_hook_task_table]', () => {
  const S = 'cron.cleanup_hook_task_table';
  it('defaults to Gitea\'s: enabled, OlderThan 168h, 10 kept per hook, daily', () => {
    const { config } = loadConfig({ cwd: dir, env: {} });
    expect(config.hookTaskCleanup).toEqual({ enabled: true, runAtStart: false, type: 'olderthan', olderThanMs: 168 * 3_600_000, numberToKeep: 10, everyMs: 86_400_000 });
  });
  it('reads the section from app.ini and from ANVIL__CRON_0X2E_CLEANUP_HOOK_TASK_TABLE__KEY', () => {
    const file = ini(`[${S}]\nCLEANUP_TYPE = PerWebhook\nNUMBER_TO_KEEP = 3\nSCHEDULE = @every 90m\nRUN_AT_START = true\n`);
    const { config, warnings } = loadConfig({ cwd: dir, file, env: { ANVIL__CRON_0X2E_CLEANUP_HOOK_TASK_TABLE__OLDER_THAN: '72h' } });
    expect(warnings).toEqual([]);
    expect(config.hookTaskCleanup).toEqual({ enabled: true, runAtStart: true, type: 'perwebhook', olderThanMs: 72 * 3_600_000, numberToKeep: 3, everyMs: 90 * 60_000 });
  });
  it('runs a cron expression daily, with a warning', () => {
    const { config, warnings } = loadConfig({ cwd: dir, env: {}, overrides: { [S]: { SCHEDULE: '0 0 * * *' } } });
    expect(config.hookTaskCleanup.everyMs).toBe(86_400_000);
    expect(warnings).toEqual([`[${S}] SCHEDULE: "0 0 * * *" is run daily from start-up (only @every, @hourly, @daily, @midnight and @weekly are read)`]);
  });
  it('refuses an age or a schedule it cannot use', () => {
    expect(errorOf({ cwd: dir, env: {}, overrides: { [S]: { OLDER_THAN: 'soon' } } })).toBe(`[${S}] OLDER_THAN: "soon" is not a duration (such as 168h or 30m)`);
    expect(errorOf({ cwd: dir, env: {}, overrides: { [S]: { OLDER_THAN: '-1h' } } })).toBe(`[${S}] OLDER_THAN: "-1h" is not a duration (such as 168h or 30m)`);
    expect(errorOf({ cwd: dir, env: {}, overrides: { [S]: { SCHEDULE: '@every 100d' } } })).toBe(`[${S}] SCHEDULE: "@every 100d" is not a duration after @every`);
    expect(errorOf({ cwd: dir, env: {}, overrides: { [S]: { SCHEDULE: '@every 720h' } } })).toBe(`[${S}] SCHEDULE: "@every 720h" must be between one second and 24 days`);
    expect(errorOf({ cwd: dir, env: {}, overrides: { [S]: { CLEANUP_TYPE: 'Never' } } })).toBe(`[${S}] CLEANUP_TYPE: "Never" is not one of olderthan, perwebhook`);
  });
});

describe('[rate_limit] and trusted proxies', () => {
  it('defaults: on, per minute; loopback proxies trusted', () => {
    const { config } = loadConfig({ cwd: dir, env: {} });
    expect(config.rateLimit).toEqual({ enabled: true, anonymous: { read: 1200, write: 120, expensive: 120 }, user: { read: 6000, write: 1200, expensive: 600 } });
    expect(config.security.reverseProxyTrustedProxies).toEqual(['127.0.0.0/8', '::1/128']);
  });
  it('reads every budget and refuses a negative one', () => {
    const { config } = loadConfig({ cwd: dir, env: { ANVIL__RATE_LIMIT__USER_WRITE: '0', ANVIL__SECURITY__REVERSE_PROXY_TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.1' } });
    expect(config.rateLimit.user.write).toBe(0);
    expect(config.security.reverseProxyTrustedProxies).toEqual(['10.0.0.0/8', '192.168.1.1']);
    expect(errorOf({ cwd: dir, env: {}, overrides: { rate_limit: { ANONYMOUS_READ: '-1' } } })).toBe('[rate_limit] ANONYMOUS_READ: -1 is below the minimum 0');
  });
});
