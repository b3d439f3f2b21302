import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { AppError } from '../domain/errors.js';

// ajv-formats is CommonJS with a default export; NodeNext sees the module object.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

type Json = Record<string, unknown>;
interface OpenApiDoc {
  paths: Record<string, Record<string, Json>>;
  components?: { schemas?: Record<string, Json>; parameters?: Record<string, Json>; requestBodies?: Record<string, Json> };
}

type ParamType = 'string' | 'integer' | 'number' | 'boolean' | 'array';
interface ParamSpec {
  readonly name: string;
  readonly type: ParamType;
  readonly itemType?: ParamType;
  readonly enumValues?: readonly string[];
  readonly required: boolean;
}

/** Per-operation request checks, compiled once at start. */
export interface OperationValidator {
  /** Path parameters typed; a malformed integer is 404 (the object cannot exist), as in Gitea. */
  path(raw: Record<string, string>): Record<string, unknown>;
  /** Declared query parameters typed; unknown ones ignored and malformed ones dropped, as Gitea does. */
  query(raw: URLSearchParams): Record<string, unknown>;
  /** The JSON body with field names matched case-insensitively, validated; 422 naming the field on failure. */
  body(raw: unknown): unknown;
  readonly hasBody: boolean;
  readonly bodyRequired: boolean;
  readonly bodyMediaTypes: readonly string[];
}

function paramSpec(p: Json): ParamSpec {
  const schema = (p.schema ?? {}) as Json;
  const items = (schema.items ?? {}) as Json;
  return {
    name: p.name as string,
    type: (schema.type as ParamType) ?? 'string',
    itemType: (items.type as ParamType) ?? 'string',
    enumValues: (schema.enum as string[]) ?? (items.enum as string[]) ?? undefined,
    required: p.required === true,
  };
}

function coerce(value: string, type: ParamType | undefined): unknown {
  switch (type) {
    case 'integer':
      return /^-?\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : undefined;
    case 'number': {
      const n = Number(value);
      return value.trim() !== '' && Number.isFinite(n) ? n : undefined;
    }
    case 'boolean': {
      const v = value.toLowerCase();
      return v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : undefined;
    }
    default:
      return value;
  }
}

/** Maps lower-cased field names to the schema's own spelling, at every object level (Go's json is case-insensitive). */
type KeyMap = { fields: Map<string, string>; children: Map<string, KeyMap>; items?: KeyMap };

export class ValidatorFactory {
  private readonly ajv: Ajv;
  private readonly doc: OpenApiDoc;
  constructor(doc: OpenApiDoc) {
    this.doc = doc;
    this.ajv = new Ajv({ strict: false, allErrors: false, coerceTypes: false, useDefaults: false, validateFormats: true });
    addFormats(this.ajv);
    // Gitea's numeric formats: accept any integer, our own checks bound them.
    this.ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
    this.ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 31 });
    // Gitea's CreateUserOption.email is format "email" but its own rules decide (422 with its message).
    this.ajv.addFormat('email', true);
    this.ajv.addSchema({ $id: 'api', components: { schemas: doc.components?.schemas ?? {} } });
  }

  private resolve(schema: Json | undefined, depth = 0): Json {
    let s = schema ?? {};
    while (typeof s.$ref === 'string' && depth < 20) {
      const name = (s.$ref as string).replace('#/components/schemas/', '');
      s = this.doc.components?.schemas?.[name] ?? {};
      depth++;
    }
    return s;
  }

  private keyMap(schema: Json | undefined, seen = new Set<Json>()): KeyMap {
    const s = this.resolve(schema);
    const map: KeyMap = { fields: new Map(), children: new Map() };
    if (seen.has(s)) return map;
    seen.add(s);
    if (s.type === 'array') map.items = this.keyMap(s.items as Json, seen);
    for (const [name, prop] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
      map.fields.set(name.toLowerCase(), name);
      const child = this.resolve(prop);
      if (child.type === 'object' || child.properties || child.type === 'array') map.children.set(name, this.keyMap(prop, seen));
    }
    return map;
  }

  private static normalise(value: unknown, map: KeyMap | undefined): unknown {
    if (!map) return value;
    if (Array.isArray(value)) return map.items ? value.map((v) => ValidatorFactory.normalise(v, map.items)) : value;
    if (value === null || typeof value !== 'object' || map.fields.size === 0) return value;
    const out: Record<string, unknown> = {};
    const obj = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(obj)) {
      const canonical = map.fields.get(k.toLowerCase()) ?? k;
      // The exact spelling wins over a differently-cased duplicate.
      if (canonical !== k && Object.hasOwn(obj, canonical)) continue;
      out[canonical] = ValidatorFactory.normalise(v, map.children.get(canonical));
    }
    return out;
  }

  compile(method: string, path: string): OperationValidator {
    const op = this.doc.paths[path]?.[method.toLowerCase()] as Json | undefined;
    if (!op) throw new Error(`no operation ${method} ${path} in the description`);
    const params = ((op.parameters ?? []) as Json[]).map((p) => (p.$ref ? this.doc.components?.parameters?.[(p.$ref as string).split('/').pop()!] ?? p : p));
    const pathParams = params.filter((p) => p.in === 'path').map(paramSpec);
    const queryParams = params.filter((p) => p.in === 'query').map(paramSpec);
    let rb = op.requestBody as Json | undefined;
    if (rb?.$ref) rb = this.doc.components?.requestBodies?.[(rb.$ref as string).split('/').pop()!];
    const content = (rb?.content ?? {}) as Record<string, { schema?: Json }>;
    const mediaTypes = Object.keys(content);
    const jsonSchema = content['application/json']?.schema;
    let validateBody: ValidateFunction | undefined;
    let keys: KeyMap | undefined;
    if (jsonSchema) {
      validateBody = this.ajv.compile({ $ref: `api${(jsonSchema.$ref as string | undefined) ?? ''}`, ...(jsonSchema.$ref ? {} : jsonSchema) });
      keys = this.keyMap(jsonSchema);
    }
    return {
      hasBody: !!rb,
      bodyRequired: rb?.required === true,
      bodyMediaTypes: mediaTypes,
      path(raw) {
        const out: Record<string, unknown> = {};
        for (const p of pathParams) {
          const v = coerce(raw[p.name] ?? '', p.type);
          if (v === undefined) throw new AppError('not_found', "The target couldn't be found.");
          out[p.name] = v;
        }
        return out;
      },
      query(raw) {
        const out: Record<string, unknown> = {};
        for (const p of queryParams) {
          if (p.type === 'array') {
            const all = raw.getAll(p.name).flatMap((v) => v.split(',')).filter((v) => v !== '');
            const vals = all.map((v) => coerce(v, p.itemType)).filter((v) => v !== undefined);
            if (vals.length) out[p.name] = vals;
            continue;
          }
          const v = raw.get(p.name);
          if (v === null) continue;
          const c = coerce(v, p.type);
          if (c === undefined) continue;
          if (p.enumValues && !p.enumValues.includes(String(c))) continue;
          out[p.name] = c;
        }
        return out;
      },
      body(raw) {
        if (!validateBody) return raw;
        const value = ValidatorFactory.normalise(raw, keys);
        if (!validateBody(value)) throw new AppError('validation', describe(validateBody.errors?.[0]));
        return value;
      },
    };
  }
}

/** Gitea names the field in brackets: "[Username]: Required". We keep the JSON field name. */
function describe(err: ErrorObject | undefined): string {
  if (!err) return 'invalid request body';
  const field = err.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (err.keyword === 'required') {
    const missing = (err.params as { missingProperty: string }).missingProperty;
    return `[${field ? `${field}.` : ''}${missing}]: Required`;
  }
  if (err.keyword === 'type') return `[${field || 'body'}]: must be ${(err.params as { type: string }).type}`;
  if (err.keyword === 'enum') return `[${field}]: must be one of ${((err.params as { allowedValues: unknown[] }).allowedValues ?? []).join(', ')}`;
  return `[${field || 'body'}]: ${err.message ?? 'invalid'}`;
}
