import type { Express } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// absolute-path.js only: the package index loads the 1.5 MB browser bundle into the server (~0.3 s at start).
import swaggerUiPath from 'swagger-ui-dist/absolute-path.js';
import type { Config } from '../config/index.js';
import type { Logger } from '../log.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { createApiHandler } from './api.js';

export interface HttpDeps {
  readonly config: Config;
  readonly log: Logger;
  readonly api: ReturnType<typeof createApiHandler>;
  /** git smart HTTP; returns false when the request is not a git one. */
  readonly git: (req: IncomingMessage, res: ServerResponse, url: string) => boolean;
  /** Our Swagger 2.0 description, served as /swagger.v1.json. */
  readonly swaggerJson: () => Promise<string>;
  /** Resolves when the database answers. */
  readonly ping: () => Promise<void>;
}

const swaggerPage = (specUrl: string) => `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Anvil API</title>
<link rel="stylesheet" href="swagger/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="swagger/assets/swagger-ui-bundle.js"></script>
<script src="swagger/assets/init.js" data-spec="${specUrl}"></script>
</body></html>`;
const swaggerInit = `window.ui = SwaggerUIBundle({ url: document.currentScript.dataset.spec, dom_id: '#swagger-ui', deepLinking: true });`;

const API_PREFIX = '/api/v1';

/**
 * The server's request listener. /api/v1 goes straight to our API handler (its own routing table), so
 * express stays out of the hot path: measured here, express's own dispatch costs more per request than
 * the whole API pipeline. The health probe is answered here too. Everything else (the browsable
 * description, unknown paths) is an express app, loaded on first use: express alone adds ~17 MB of
 * resident memory, which a server that only answers the API and probes never needs.
 */
export function createRequestListener(deps: HttpDeps): (req: IncomingMessage, res: ServerResponse) => void {
  let rest: Promise<Express> | undefined;
  const health = healthHandler(deps);
  return (req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith(API_PREFIX) && (url.length === API_PREFIX.length || url[API_PREFIX.length] === '/' || url[API_PREFIX.length] === '?')) {
      deps.api(req, res, url, url.slice(API_PREFIX.length) || '/').catch((e: unknown) => {
        deps.log.error('unhandled API failure', { err: e instanceof Error ? e.stack : String(e) });
        if (!res.headersSent) {
          res.writeHead(500, { 'Content-Type': 'application/json;charset=utf-8' });
          res.end(JSON.stringify({ message: '', url: `${deps.config.server.rootUrl}api/swagger` }));
        }
      });
      return;
    }
    if (deps.git(req, res, url)) return;
    if ((req.method === 'GET' || req.method === 'HEAD') && (url === '/api/healthz' || url.startsWith('/api/healthz?'))) {
      health(res, req.method === 'HEAD');
      return;
    }
    (rest ??= createHttpApp(deps)).then(
      (app) => app(req, res),
      (e: unknown) => {
        deps.log.error('loading the web app failed', { err: String(e) });
        res.writeHead(500).end();
      },
    );
  };
}

/** GET /api/healthz: 200 "pass" when the database answers, 424 "fail" otherwise (Gitea's shape). */
function healthHandler(deps: HttpDeps) {
  return (res: ServerResponse, head: boolean) => {
    const time = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const send = (database: { status: string; time: string; output?: string }) => {
      const ok = database.status === 'pass';
      const body = JSON.stringify({ status: ok ? 'pass' : 'fail', description: 'Anvil', checks: { 'database:ping': [database] } }, null, 2);
      res.writeHead(ok ? 200 : 424, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
      res.end(head ? undefined : body);
    };
    deps.ping().then(
      () => send({ status: 'pass', time }),
      (e: unknown) => send({ status: 'fail', time, output: (e as Error).message }),
    );
  };
}

/** The description and its browsable page, and JSON 404s for unknown paths. */
async function createHttpApp(deps: HttpDeps): Promise<Express> {
  const { config } = deps;
  const { default: express } = await import('express');
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', false);

  app.get('/swagger.v1.json', (_req, res, next) => {
    void deps.swaggerJson().then((text) => res.type('application/json').send(text), next);
  });
  // Read on first use: most servers never serve the page, and start-up stays fast.
  const assetTypes: Record<string, string> = { 'swagger-ui.css': 'text/css', 'swagger-ui-bundle.js': 'application/javascript', 'init.js': 'application/javascript' };
  const assetCache = new Map<string, Buffer | string>();
  const asset = (file: string): Buffer | string =>
    assetCache.get(file) ??
    assetCache.set(file, file === 'init.js' ? swaggerInit : readFileSync(join(swaggerUiPath(), file))).get(file)!;
  app.get('/api/swagger', (_req, res) => {
    res.type('text/html').send(swaggerPage(`${config.server.rootUrl}swagger.v1.json`));
  });
  app.get('/api/swagger/assets/:file', (req, res) => {
    const type = assetTypes[req.params.file];
    if (!type) {
      res.status(404).json({ message: 'not found', url: `${config.server.rootUrl}api/swagger` });
      return;
    }
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type(type).send(asset(req.params.file));
  });

  app.use((req, res) => {
    res.status(404).json({ message: 'not found', url: `${config.server.rootUrl}api/swagger` });
  });
  return app;
}
