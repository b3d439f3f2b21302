// Baseline server for the git part of the benchmark: what a thin layer over the git CLI does, one git
// process per request, in its own process (like Anvil).
//   /git/<path>           `git http-backend` behind a minimal CGI bridge (GIT_PROJECT_ROOT = the repositories root)
//   /log?n=50             `git log -n 50` of main, answered as a JSON array of {sha, author, committer, message}
//   /cat/<sha>?path=<p>   `git cat-file -p <sha>`, answered as JSON {name, path, sha, size, encoding, content}
// Usage: node gitbaseline.mjs REPOS_ROOT REPO_DIR_NAME PORT   (REPO_DIR_NAME e.g. 2.git)
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const [reposRoot, repoDir, port] = process.argv.slice(2);
const gitDir = join(reposRoot, repoDir);
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };

function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--git-dir', gitDir, ...args], { env: gitEnv, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`git ${args[0]} exited with ${code}`))));
  });
}

const json = (res, status, value) => {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json;charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
};

function cgi(req, res, pathInfo, query) {
  const env = {
    ...gitEnv,
    GIT_PROJECT_ROOT: reposRoot,
    GIT_HTTP_EXPORT_ALL: '1',
    GATEWAY_INTERFACE: 'CGI/1.1',
    REQUEST_METHOD: req.method,
    PATH_INFO: pathInfo,
    QUERY_STRING: query,
    REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
    CONTENT_TYPE: req.headers['content-type'] ?? '',
  };
  if (req.headers['content-length'] !== undefined) env.CONTENT_LENGTH = req.headers['content-length'];
  if (req.headers['content-encoding'] !== undefined) env.HTTP_CONTENT_ENCODING = req.headers['content-encoding'];
  if (req.headers['git-protocol'] !== undefined) env.HTTP_GIT_PROTOCOL = req.headers['git-protocol'];
  const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  req.pipe(child.stdin);
  child.stdin.on('error', () => {});
  let head = Buffer.alloc(0);
  let headersDone = false;
  child.stdout.on('data', (chunk) => {
    if (headersDone) {
      if (!res.write(chunk)) {
        child.stdout.pause();
        res.once('drain', () => child.stdout.resume());
      }
      return;
    }
    head = Buffer.concat([head, chunk]);
    let end = head.indexOf('\r\n\r\n');
    let sep = 4;
    if (end < 0) {
      end = head.indexOf('\n\n');
      sep = 2;
    }
    if (end < 0) return;
    headersDone = true;
    let status = 200;
    const headers = {};
    for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
      const i = line.indexOf(':');
      if (i < 0) continue;
      const name = line.slice(0, i).trim();
      const value = line.slice(i + 1).trim();
      if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
      else headers[name] = value;
    }
    res.writeHead(status, headers);
    const rest = head.subarray(end + sep);
    if (rest.length) res.write(rest);
  });
  child.on('close', (code) => {
    if (!headersDone && !res.headersSent) {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(`git http-backend exited with ${code}\n`);
    } else res.end();
  });
}

const LOG_FORMAT = '--format=%H%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%P%x00%B%x1e';

createServer((req, res) => {
  const q = req.url.indexOf('?');
  const path = q < 0 ? req.url : req.url.slice(0, q);
  const query = q < 0 ? '' : req.url.slice(q + 1);
  if (path.startsWith('/git/')) return cgi(req, res, path.slice(4), query);
  if (path === '/log') {
    const n = Number(new URLSearchParams(query).get('n') ?? 50);
    return run(['log', '-n', String(n), LOG_FORMAT, 'main']).then(
      (out) =>
        json(
          res,
          200,
          out
            .toString('utf8')
            .split('\x1e')
            .map((r) => r.replace(/^\n/, ''))
            .filter((r) => r)
            .map((r) => {
              const [sha, an, ae, ad, cn, ce, cd, parents, message] = r.split('\0');
              return { sha, author: { name: an, email: ae, date: ad }, committer: { name: cn, email: ce, date: cd }, parents: parents.split(' ').filter(Boolean), message };
            }),
        ),
      (e) => json(res, 500, { message: e.message }),
    );
  }
  if (path.startsWith('/cat/')) {
    const sha = path.slice(5);
    const p = new URLSearchParams(query).get('path') ?? '';
    return run(['cat-file', '-p', sha]).then(
      (out) => json(res, 200, { name: p.split('/').pop(), path: p, sha, type: 'file', size: out.length, encoding: 'base64', content: out.toString('base64') }),
      (e) => json(res, 404, { message: e.message }),
    );
  }
  json(res, 404, { message: 'not found' });
}).listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
