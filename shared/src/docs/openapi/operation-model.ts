/**
 * A render-ready view of one operation: parameters by location, request body, responses, security
 * and server, read from OpenAPI 3.0/3.1 or (best effort) Swagger 2.0. Both the HTML renderer and the
 * code sample generator read this, so spec-version differences live here only.
 */
import type { ResolvedOperation, SpecObject } from './types';

/** Parameter locations, in the order the page shows them. */
export const PARAM_LOCATIONS = ['path', 'query', 'header', 'cookie'] as const;
/** Where a parameter travels. */
export type ParamLocation = (typeof PARAM_LOCATIONS)[number];

/** A parameter (or response header) as a field shows it. */
export interface ParameterModel {
  name: string;
  in: ParamLocation;
  required: boolean;
  deprecated: boolean;
  description?: string;
  /** the parameter's schema (3.x `schema` or `content[*].schema`; 2.0: the parameter itself) */
  schema: SpecObject;
  example?: unknown;
}

/** The request body (webhooks: the payload) as the page shows it. */
export interface BodyModel {
  /** the media type shown (JSON preferred): `application/json`, `multipart/form-data`... */
  contentType: string;
  /** every media type the operation accepts */
  contentTypes: string[];
  required: boolean;
  description?: string;
  schema?: SpecObject;
  /** `example` or the first `examples` value of the media type, when the spec gives one */
  example?: unknown;
}

/** One response of the operation, by status code. */
export interface ResponseModel {
  /** `200`, `4XX`, `default` */
  status: string;
  description?: string;
  contentType?: string;
  schema?: SpecObject;
  example?: unknown;
  headers: ParameterModel[];
}

/** One security scheme as a request needs it. */
export interface SecurityUse {
  key: string;
  /** 'http' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'mutualTLS' (2.0 'basic' reads as http basic) */
  type: string;
  /** http: 'bearer' | 'basic' | ... (lowercase) */
  scheme?: string;
  bearerFormat?: string;
  /** apiKey: header/query/cookie name */
  name?: string;
  in?: ParamLocation;
  description?: string;
  scopes: string[];
}

/** A code sample given by the spec (`x-codeSamples`, `x-code-samples`). */
export interface SpecCodeSample {
  lang: string;
  label: string;
  source: string;
}

/** Everything an endpoint page and its code samples read from one operation. */
export interface OperationModel {
  op: ResolvedOperation;
  /** server URL (no trailing slash), '' when unknown */
  serverUrl: string;
  parameters: ParameterModel[];
  body?: BodyModel;
  responses: ResponseModel[];
  /** alternatives (any one suffices), each a set of schemes used together; [] = no auth */
  security: SecurityUse[][];
  /** true when the spec allows calling without credentials (an empty requirement `{}`) */
  authOptional: boolean;
  codeSamples: SpecCodeSample[];
}

const obj = (v: unknown): SpecObject | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as SpecObject) : undefined;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Picks the media type to show: JSON first, then anything else in spec order. */
export function preferredMediaType(types: string[]): string | undefined {
  return types.find((t) => /^application\/(.+\+)?json\b/i.test(t)) ?? types.find((t) => /json/i.test(t)) ?? types[0];
}

/** The example a media type object or parameter carries (`example`, else first `examples[*].value`). */
function exampleOf(holder: SpecObject | undefined): unknown {
  if (!holder) return undefined;
  if (holder.example !== undefined) return holder.example;
  const first = Object.values(obj(holder.examples) ?? {})[0];
  return obj(first)?.value;
}

const PARAM_2_KEYS = ['type', 'format', 'items', 'enum', 'default', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'collectionFormat'];

function readParameter(p: SpecObject, v2: boolean): ParameterModel | undefined {
  const name = str(p.name);
  const loc = str(p.in);
  if (!name || !loc || !(['path', 'query', 'header', 'cookie'] as string[]).includes(loc)) return undefined;
  let schema = obj(p.schema);
  if (!schema && obj(p.content)) {
    const content = obj(p.content)!;
    const mt = preferredMediaType(Object.keys(content));
    schema = mt ? obj(obj(content[mt])?.schema) : undefined;
  }
  if (!schema && v2) schema = Object.fromEntries(PARAM_2_KEYS.filter((k) => p[k] !== undefined).map((k) => [k, p[k]]));
  return {
    name,
    in: loc as ParamLocation,
    required: loc === 'path' || p.required === true,
    deprecated: p.deprecated === true,
    description: str(p.description),
    schema: schema ?? {},
    example: exampleOf(p) ?? p['x-example'],
  };
}

/** Operation-level parameters override path-level ones with the same name and location. */
function readParameters(op: ResolvedOperation): { params: ParameterModel[]; v2Body: SpecObject[] } {
  const v2 = op.specVersion === '2.0';
  const seen = new Map<string, ParameterModel>();
  const v2Body: SpecObject[] = [];
  for (const raw of [...arr(op.pathItem.parameters), ...arr(op.operation.parameters)]) {
    const p = obj(raw);
    if (!p) continue;
    if (v2 && (p.in === 'body' || p.in === 'formData')) {
      v2Body.push(p);
      continue;
    }
    const m = readParameter(p, v2);
    if (m) seen.set(`${m.in} ${m.name}`, m);
  }
  const params = [...seen.values()].sort((a, b) => PARAM_LOCATIONS.indexOf(a.in) - PARAM_LOCATIONS.indexOf(b.in));
  return { params, v2Body };
}

function readBody(op: ResolvedOperation, v2Body: SpecObject[]): BodyModel | undefined {
  if (op.specVersion === '2.0') {
    const consumes = arr(op.operation.consumes ?? op.document.consumes).filter((c): c is string => typeof c === 'string');
    const body = v2Body.find((p) => p.in === 'body');
    if (body) {
      const types = consumes.length > 0 ? consumes : ['application/json'];
      return {
        contentType: preferredMediaType(types)!,
        contentTypes: types,
        required: body.required === true,
        description: str(body.description),
        schema: obj(body.schema),
      };
    }
    const form = v2Body.filter((p) => p.in === 'formData');
    if (form.length === 0) return undefined;
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    for (const p of form) {
      const m = readParameter({ ...p, in: 'query' }, true);
      if (!m) continue;
      properties[m.name] = p.type === 'file' ? { type: 'string', format: 'binary', description: m.description } : { ...m.schema, description: m.description };
      if (p.required === true) required.push(m.name);
    }
    const types = consumes.filter((c) => /form/i.test(c));
    const ct = types[0] ?? (form.some((p) => p.type === 'file') ? 'multipart/form-data' : 'application/x-www-form-urlencoded');
    return { contentType: ct, contentTypes: types.length ? types : [ct], required: required.length > 0, schema: { type: 'object', properties, required } };
  }
  const rb = obj(op.operation.requestBody);
  if (!rb) return undefined;
  const content = obj(rb.content) ?? {};
  const types = Object.keys(content);
  const ct = preferredMediaType(types);
  const media = ct ? obj(content[ct]) : undefined;
  return {
    contentType: ct ?? 'application/json',
    contentTypes: types,
    required: rb.required === true,
    description: str(rb.description),
    schema: obj(media?.schema),
    example: exampleOf(media),
  };
}

function readResponses(op: ResolvedOperation): ResponseModel[] {
  const v2 = op.specVersion === '2.0';
  const out: ResponseModel[] = [];
  for (const [status, raw] of Object.entries(obj(op.operation.responses) ?? {})) {
    const r = obj(raw);
    if (!r) continue;
    const headers: ParameterModel[] = [];
    for (const [name, h] of Object.entries(obj(r.headers) ?? {})) {
      const hm = obj(h);
      const m = hm && readParameter({ ...hm, name, in: 'header' }, v2);
      if (m) headers.push({ ...m, required: hm.required === true });
    }
    if (v2) {
      const produces = arr(op.operation.produces ?? op.document.produces).filter((c): c is string => typeof c === 'string');
      const schema = obj(r.schema);
      const examples = obj(r.examples);
      const ct = schema ? (preferredMediaType(produces) ?? 'application/json') : undefined;
      out.push({ status, description: str(r.description), contentType: ct, schema, example: ct && examples ? examples[ct] : undefined, headers });
      continue;
    }
    const content = obj(r.content) ?? {};
    const ct = preferredMediaType(Object.keys(content));
    const media = ct ? obj(content[ct]) : undefined;
    out.push({ status, description: str(r.description), contentType: ct, schema: obj(media?.schema), example: exampleOf(media), headers });
  }
  return out;
}

function readSecurity(op: ResolvedOperation): { security: SecurityUse[][]; authOptional: boolean } {
  const doc = op.document;
  const schemes = obj(op.specVersion === '2.0' ? doc.securityDefinitions : obj(doc.components)?.securitySchemes) ?? {};
  const reqs = Array.isArray(op.operation.security) ? op.operation.security : arr(doc.security);
  const security: SecurityUse[][] = [];
  let authOptional = reqs.length === 0;
  for (const raw of reqs) {
    const req = obj(raw);
    if (!req) continue;
    const uses: SecurityUse[] = [];
    for (const [key, scopes] of Object.entries(req)) {
      const s = obj(schemes[key]);
      if (!s) continue;
      let type = str(s.type) ?? 'http';
      let scheme = str(s.scheme)?.toLowerCase();
      if (type === 'basic') [type, scheme] = ['http', 'basic'];
      const loc = str(s.in);
      uses.push({
        key,
        type,
        scheme,
        bearerFormat: str(s.bearerFormat),
        name: str(s.name),
        in: loc === 'query' || loc === 'cookie' || loc === 'header' ? loc : undefined,
        description: str(s.description),
        scopes: arr(scopes).filter((x): x is string => typeof x === 'string'),
      });
    }
    if (uses.length === 0) authOptional = true;
    else security.push(uses);
  }
  return { security, authOptional };
}

/** Absolute form of a server URL: variables replaced by their defaults, relative URLs joined to `baseUrl`. */
function serverUrlOf(op: ResolvedOperation, baseUrl: string | undefined): string {
  const doc = op.document;
  if (op.specVersion === '2.0') {
    const host = str(doc.host);
    const scheme = arr(doc.schemes).find((s): s is string => typeof s === 'string') ?? 'https';
    const basePath = str(doc.basePath) ?? '';
    if (host) return `${scheme}://${host}${basePath}`.replace(/\/+$/, '');
    return `${(baseUrl ?? '').replace(/\/+$/, '')}${basePath}`.replace(/\/+$/, '');
  }
  const servers = [op.operation.servers, op.pathItem.servers, doc.servers].map(arr).find((s) => s.length > 0) ?? [];
  const server = obj(servers[0]);
  let url = str(server?.url) ?? '';
  for (const [name, v] of Object.entries(obj(server?.variables) ?? {})) {
    const def = obj(v)?.default;
    if (def !== undefined) url = url.split(`{${name}}`).join(String(def));
  }
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && baseUrl) url = `${baseUrl.replace(/\/+$/, '')}${url.startsWith('/') || url === '' ? '' : '/'}${url}`;
  return url.replace(/\/+$/, '');
}

function readCodeSamples(op: ResolvedOperation): SpecCodeSample[] {
  const raw = arr(op.operation['x-codeSamples'] ?? op.operation['x-code-samples']);
  const out: SpecCodeSample[] = [];
  for (const s of raw) {
    const o = obj(s);
    const source = str(o?.source);
    if (!o || !source) continue;
    const lang = str(o.lang) ?? 'text';
    out.push({ lang, label: str(o.label) ?? lang, source });
  }
  return out;
}

/** Reads everything a page needs from a resolved operation. `baseUrl`: see RenderOperationOptions. */
export function buildOperationModel(op: ResolvedOperation, baseUrl?: string): OperationModel {
  const { params, v2Body } = readParameters(op);
  return {
    op,
    serverUrl: serverUrlOf(op, baseUrl),
    parameters: params,
    body: readBody(op, v2Body),
    responses: readResponses(op),
    ...readSecurity(op),
    codeSamples: readCodeSamples(op),
  };
}
