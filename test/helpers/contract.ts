import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import openapi from '../../generated/openapi.json' with { type: 'json' };
import { operations, type OperationEntry } from '../../generated/operations.js';
import { buildRouter } from '../../src/http/router.js';

type AddFormats = (ajv: Ajv) => Ajv;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

type Json = Record<string, unknown>;
const doc = openapi as unknown as {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json> };
};

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) });
ajv.addSchema({ $id: 'api', components: { schemas: doc.components.schemas } });

const router = buildRouter(operations);
const cache = new Map<string, ValidateFunction | null>();

function responseSchema(entry: OperationEntry, status: number): { declared: boolean; schema: Json | null } {
  const op = doc.paths[entry.path]?.[entry.method.toLowerCase()] as Json;
  const responses = (op.responses ?? {}) as Record<string, Json>;
  let r = responses[String(status)] ?? responses.default;
  if (!r) return { declared: false, schema: null };
  if (typeof r.$ref === 'string') r = doc.components.responses[(r.$ref as string).split('/').pop()!] ?? {};
  const content = (r.content ?? {}) as Record<string, { schema?: Json }>;
  const schema = content['application/json']?.schema ?? null;
  return { declared: true, schema };
}

export interface ContractProblem {
  readonly message: string;
}

/**
 * Checks one response against our OpenAPI description: the status must be declared for the operation and
 * a JSON body must match the declared schema. Returns null when it conforms.
 */
export function checkResponse(method: string, path: string, status: number, contentType: string | null, body: unknown): ContractProblem | null {
  const m = router.find(method === 'HEAD' ? 'GET' : method, path);
  if (!m) {
    // Only the unknown-route answer may reach here.
    return status === 404 ? null : { message: `no operation for ${method} ${path} answered ${status}` };
  }
  const { declared, schema } = responseSchema(m.entry, status);
  if (!declared) return { message: `${m.entry.operationId} answered ${status}, which the description does not declare` };
  if (!schema || status === 204 || method === 'HEAD') return null;
  if (!contentType?.includes('application/json')) return { message: `${m.entry.operationId} ${status}: expected JSON, got ${contentType}` };
  const key = `${m.entry.operationId} ${status}`;
  let validate = cache.get(key);
  if (validate === undefined) {
    const s = schema.$ref ? { $ref: `api${schema.$ref as string}` } : JSON.parse(JSON.stringify(schema).replace(/"#\/components/g, '"api#/components'));
    validate = ajv.compile(s);
    cache.set(key, validate);
  }
  if (validate && !validate(body)) {
    return { message: `${m.entry.operationId} ${status} body does not match the description: ${ajv.errorsText(validate.errors)}` };
  }
  return null;
}

export { operations };
