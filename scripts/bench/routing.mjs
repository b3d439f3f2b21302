// Routing + validation cost per request, with the real table and with 500 extra synthetic operations.
// Runs against the built code in dist/ (npm run build).
import { operations } from '../../dist/generated/operations.js';
import { buildRouter } from '../../dist/src/http/router.js';
import { compileValidators } from '../../dist/src/app.js';

const synthetic = [];
for (let i = 0; i < 500; i++) {
  const p = `/synthetic${i}/{owner}/{repo}/items/{id}`;
  synthetic.push({ ...operations[0], operationId: `synthetic${i}`, method: i % 2 ? 'GET' : 'POST', path: p, routePath: p.replace(/\{(\w+)\}/g, ':$1') });
  if (i % 50 === 0) synthetic.push({ ...operations[0], operationId: `syntheticRaw${i}`, method: 'GET', path: `/synthetic${i}/{owner}/{repo}/raw/{filepath}`, routePath: `/synthetic${i}/:owner/:repo/raw/*`, wildcardParam: 'filepath' });
}

const requests = [
  ['GET', '/user', ''],
  ['GET', '/users/alice', ''],
  ['GET', '/users/search', 'q=al&limit=10&page=2&token=abc'],
  ['GET', '/admin/users', 'page=1&limit=50'],
  ['GET', '/user/keys/42', ''],
  ['POST', '/admin/users', ''],
];

export function measureRouting(iterations = 200_000) {
  const validators = compileValidators();
  validators.compileAll();
  const body = { username: 'alice', email: 'alice@example.com', password: 'secret-pass' };
  const run = (router) => {
    let sink = 0;
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) {
      const [method, path, qs] = requests[i % requests.length];
      const m = router.find(method, path);
      const v = validators.get(m.entry.operationId);
      const p = v.path(m.params);
      const q = v.query(new URLSearchParams(qs));
      if (method === 'POST') v.body(body);
      sink += Object.keys(p).length + Object.keys(q).length;
    }
    const ns = Number(process.hrtime.bigint() - start) / iterations;
    if (sink < 0) console.log(sink);
    return ns / 1000;
  };
  const t0 = process.hrtime.bigint();
  const small = buildRouter(operations);
  const buildSmallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const t1 = process.hrtime.bigint();
  const large = buildRouter([...operations, ...synthetic]);
  const buildLargeMs = Number(process.hrtime.bigint() - t1) / 1e6;
  run(small);
  run(large); // warm-up
  const results = { smallUs: [], largeUs: [] };
  for (let r = 0; r < 5; r++) {
    results.smallUs.push(run(small));
    results.largeUs.push(run(large));
  }
  const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  return {
    operations: operations.length,
    withSynthetic: operations.length + synthetic.length,
    buildSmallMs,
    buildLargeMs,
    perRequestUs: median(results.smallUs),
    perRequestLargeUs: median(results.largeUs),
  };
}
