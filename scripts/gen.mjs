#!/usr/bin/env node
// Turns spec/ (our Swagger 2.0 description, split by area) into generated/:
//   swagger.json   the bundled Swagger 2.0 document (served as /swagger.v1.json)
//   openapi.json   the same converted to OpenAPI 3 by swagger2openapi (drives validation at run time)
//   openapi.d.ts   TypeScript types from openapi-typescript
//   operations.ts  one entry per operationId: method, paths, tag, scope, anonymous access, query names...
// `--check` regenerates in memory and fails when generated/ differs (CI runs it).
import { readFileSync, writeFileSync, readdirSync, statSync, mkdirSync, existsSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import s2o from 'swagger2openapi';
import openapiTS, { astToString } from 'openapi-typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const specDir = join(root, 'spec');
const outDir = join(root, 'generated');
const check = process.argv.includes('--check');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const SCOPES = ['activitypub', 'admin', 'issue', 'misc', 'notification', 'organization', 'package', 'repository', 'user'];

function fail(msg) {
  console.error(`gen: ${msg}`);
  process.exit(1);
}
function readYaml(file) {
  try {
    return yaml.load(readFileSync(file, 'utf8')) ?? {};
  } catch (e) {
    fail(`${relative(root, file)}: ${e.message}`);
  }
}
function yamlFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...yamlFiles(p));
    else if (/\.ya?ml$/.test(name)) out.push(p);
  }
  return out;
}
function sortKeys(obj) {
  return Object.fromEntries(Object.keys(obj).sort().map((k) => [k, obj[k]]));
}
function mergeInto(target, file, what) {
  const doc = readYaml(file);
  for (const [k, v] of Object.entries(doc)) {
    if (k in target) fail(`${what} "${k}" is defined twice (again in ${relative(root, file)})`);
    target[k] = v;
  }
}

function bundle() {
  const swagger = readYaml(join(specDir, 'index.yaml'));
  const paths = {};
  const definitions = {};
  const responses = {};
  const parameters = {};
  for (const f of yamlFiles(join(specDir, 'paths'))) mergeInto(paths, f, 'path');
  for (const f of yamlFiles(join(specDir, 'definitions'))) mergeInto(definitions, f, 'definition');
  if (existsSync(join(specDir, 'responses.yaml'))) mergeInto(responses, join(specDir, 'responses.yaml'), 'response');
  if (existsSync(join(specDir, 'parameters.yaml'))) mergeInto(parameters, join(specDir, 'parameters.yaml'), 'parameter');
  swagger.paths = sortKeys(paths);
  swagger.definitions = sortKeys(definitions);
  swagger.responses = sortKeys(responses);
  if (Object.keys(parameters).length) swagger.parameters = sortKeys(parameters);
  return swagger;
}

/** Checks the vendor extensions our server relies on, so a mistake fails here and not at run time. */
function operationsTable(swagger) {
  const seen = new Set();
  const rows = [];
  for (const [path, item] of Object.entries(swagger.paths)) {
    const shared = item.parameters ?? [];
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const id = op.operationId;
      if (!id) fail(`${method.toUpperCase()} ${path} has no operationId`);
      if (seen.has(id)) fail(`operationId ${id} is used twice`);
      seen.add(id);
      const rawScope = op['x-scope'];
      if (rawScope === undefined) fail(`${id}: x-scope is missing (use "none" for an unscoped operation)`);
      const scopes = rawScope === 'none' ? [] : Array.isArray(rawScope) ? rawScope : [rawScope];
      for (const s of scopes) if (!SCOPES.includes(s)) fail(`${id}: unknown x-scope "${s}"`);
      const params = [...shared, ...(op.parameters ?? [])].map((p) => (p.$ref ? resolveParam(swagger, p.$ref) : p));
      const wildcard = params.find((p) => p.in === 'path' && p['x-allow-slashes']);
      if (wildcard && !path.endsWith(`{${wildcard.name}}`)) fail(`${id}: a slash-carrying parameter must end the path`);
      const routePath = path.replace(/\{([^}]+)\}/g, (_, name) => (wildcard && name === wildcard.name ? '*' : `:${name}`));
      const successStatuses = Object.keys(op.responses ?? {})
        .filter((s) => /^[23]\d\d$/.test(s))
        .map(Number);
      rows.push({
        operationId: id,
        method: method.toUpperCase(),
        path,
        routePath,
        wildcardParam: wildcard ? wildcard.name : null,
        tag: (op.tags ?? [])[0] ?? 'default',
        scopes,
        public: op['x-public'] === true,
        basicAuthOnly: op['x-basic-auth-only'] === true,
        queryNames: params.filter((p) => p.in === 'query').map((p) => p.name),
        hasBody: params.some((p) => p.in === 'body'),
        successStatuses,
      });
    }
  }
  rows.sort((a, b) => a.operationId.localeCompare(b.operationId));
  return rows;
}
function resolveParam(swagger, ref) {
  const name = ref.replace('#/parameters/', '');
  const p = swagger.parameters?.[name];
  if (!p) fail(`unknown parameter ${ref}`);
  return p;
}

function operationsSource(rows) {
  const header = `// Generated by scripts/gen.mjs from spec/. Do not edit.\n`;
  const types =
    `export type ScopeCategory = ${SCOPES.map((s) => `'${s}'`).join(' | ')};\n` +
    `export interface OperationEntry {\n` +
    `  readonly operationId: OperationId;\n  readonly method: string;\n  readonly path: string;\n` +
    `  /** express/find-my-way style; a trailing '*' carries a parameter with slashes (wildcardParam) */\n` +
    `  readonly routePath: string;\n  readonly wildcardParam: string | null;\n  readonly tag: string;\n` +
    `  /** every listed category is required; empty = no token scope check */\n` +
    `  readonly scopes: readonly ScopeCategory[];\n  /** anonymous callers allowed */\n  readonly public: boolean;\n` +
    `  /** only basic authentication may call it (token management) */\n  readonly basicAuthOnly: boolean;\n` +
    `  readonly queryNames: readonly string[];\n  readonly hasBody: boolean;\n  readonly successStatuses: readonly number[];\n}\n`;
  const ids = `export type OperationId =\n${rows.map((r) => `  | '${r.operationId}'`).join('\n')};\n`;
  const table = `export const operations: readonly OperationEntry[] = ${JSON.stringify(rows, null, 2)};\n`;
  return header + types + ids + table;
}

async function main() {
  const swagger = bundle();
  const rows = operationsTable(swagger);
  const swaggerText = JSON.stringify(swagger, null, 2) + '\n';
  const converted = await s2o.convertObj(JSON.parse(swaggerText), { patch: true, warnOnly: false, resolveInternal: false });
  const openapi = converted.openapi;
  const openapiText = JSON.stringify(openapi, null, 2) + '\n';
  const ast = await openapiTS(openapi, { alphabetize: true });
  const dts = `// Generated by scripts/gen.mjs from spec/. Do not edit.\n` + astToString(ast);
  const outputs = {
    'swagger.json': swaggerText,
    'openapi.json': openapiText,
    'openapi.d.ts': dts,
    'operations.ts': operationsSource(rows),
  };
  if (check) {
    const stale = Object.entries(outputs).filter(([name, text]) => {
      const p = join(outDir, name);
      return !existsSync(p) || readFileSync(p, 'utf8') !== text;
    });
    if (stale.length) fail(`generated/ is stale (${stale.map(([n]) => n).join(', ')}); run npm run gen and commit`);
    console.log(`gen: generated/ is up to date (${rows.length} operations)`);
    return;
  }
  mkdirSync(outDir, { recursive: true });
  for (const [name, text] of Object.entries(outputs)) writeFileSync(join(outDir, name), text);
  console.log(`gen: wrote generated/ (${rows.length} operations)`);
}
main().catch((e) => fail(e.stack ?? String(e)));
