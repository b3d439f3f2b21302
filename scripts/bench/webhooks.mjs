// Webhook delivery: throughput of the worker to a local receiver (a burst of deliveries written in one
// transaction) and event-to-delivery latency when idle (commit of the emitting transaction to the receiver's
// arrival). In-process app from dist/ on its own SQLite data directory. Returns the lines to print; runs
// standalone too: `node scripts/bench/webhooks.mjs` (after `npm run build`).
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = process.env.ANVIL_BENCH_DIST ?? join(root, 'dist');

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

export async function benchWebhooks({ burst = Number(process.env.BENCH_WEBHOOKS ?? 3000), samples = 200 } = {}) {
  const { createApp } = await import(pathToFileURL(join(dist, 'src', 'app.js')).href);
  const { loadConfig } = await import(pathToFileURL(join(dist, 'src', 'config', 'index.js')).href);
  const { createLogger } = await import(pathToFileURL(join(dist, 'src', 'log.js')).href);
  const dir = mkdtempSync(join(tmpdir(), 'anvil-bench-wh-'));

  let received = 0;
  let onArrive = () => {};
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.end('ok');
      onArrive();
    });
  });
  receiver.keepAliveTimeout = 60_000;
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${receiver.address().port}/hook`;

  // ANVIL__DATABASE__* in the environment runs it on PostgreSQL.
  const { config } = loadConfig({ cwd: dir, env: process.env, overrides: { server: { APP_DATA_PATH: dir, HTTP_PORT: '0' }, log: { LEVEL: 'none' }, webhook: { ALLOWED_HOST_LIST: 'loopback' } } });
  const app = await createApp({ config, log: createLogger('none') });
  const s = app.services;
  try {
    const user = await s.users.createUser({ username: 'whbench', email: 'whbench@example.com', password: 'bench-password-1', admin: false, mustChangePassword: false });
    const access = await s.repos.create(user, user, { name: 'hooked', autoInit: true });
    const hook = await s.webhooks.create({ kind: 'repo', access }, { type: 'gitea', config: { url, content_type: 'json', secret: 'k' }, events: ['create'], active: true });
    const prepared = await s.events.prepare(app.database.db, { type: 'create', repo: access, sender: user, ref: 'b', refType: 'branch', sha: 'a'.repeat(40) });
    const emit = (n) => app.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < n; i++) await s.events.emitTo(trx, hook, prepared);
    });
    const until = (n) => new Promise((resolve) => {
      onArrive = () => received >= n && resolve();
      onArrive();
    });

    // Warm-up: connections and statements.
    await emit(50);
    s.events.wake();
    await until(50);

    // Latency when idle: one event at a time, from its commit to its arrival.
    const lat = [];
    for (let i = 0; i < samples; i++) {
      await new Promise((r) => setTimeout(r, 5));
      const target = received + 1;
      await emit(1);
      const t0 = performance.now();
      s.events.wake();
      await until(target);
      lat.push(performance.now() - t0);
    }

    // Throughput: a burst written in one transaction, sent by the worker.
    const start = received;
    await emit(burst);
    const t0 = performance.now();
    s.events.wake();
    await until(start + burst);
    const secs = (performance.now() - t0) / 1000;
    await app.webhookWorker.idle();
    const rate = burst / secs;
    return [
      `\nwebhooks (in-process app on ${config.database.type}, receiver on loopback, keep-alive)`,
      `  throughput: ${burst} deliveries in ${secs.toFixed(2)} s = ${rate.toFixed(0)} deliveries/s (target >= 500)`,
      `  event-to-delivery latency when idle (${samples} events): p50 ${percentile(lat, 50).toFixed(1)} ms, p99 ${percentile(lat, 99).toFixed(1)} ms (target p99 < 100)`,
    ];
  } finally {
    await app.close();
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchWebhooks()) console.log(line);
}
