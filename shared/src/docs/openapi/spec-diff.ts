/**
 * What changed between two versions of one OpenAPI spec (the docs agent, decisions.md section 11):
 * operations, parameters, request body fields and response fields added, removed, changed or
 * renamed. Both versions are read by the engine that renders API pages (registry.ts and
 * operation-model.ts), so `$ref`s, Swagger 2.0 bodies and path-level parameters mean here what they
 * mean on the page. Pure: no I/O.
 *
 * - Operations are keyed by `METHOD /path` (webhooks by `WEBHOOK name`).
 * - Parameters by location and name (`query per_page`); a parameter changes when its required flag,
 *   deprecation, type, format or enum changes.
 * - Fields are dotted paths into a schema (`user.email`, `items[].id`), walked through properties,
 *   array items and allOf/oneOf/anyOf members, at most {@link MAX_FIELD_DEPTH} deep (recursive
 *   schemas stop where their component repeats); a field changes as a parameter does.
 * - Renames: in one operation and place (a parameter location, the request body, one response), a
 *   removed name and an added name with the same signature, when each is the only one of its kind
 *   there, read as one rename (`previous` holds the old name).
 */
import { memoryFiles } from '../files';
import { buildOperationModel, type ParameterModel } from './operation-model';
import { refNameOf } from './lazy-refs';
import { loadOpenApiRegistry } from './registry';
import type { ResolvedOperation, SpecObject } from './types';

/** Deepest field path walked into a schema (segments). */
export const MAX_FIELD_DEPTH = 8;
/** Most fields read from one schema: the rest are not compared. */
const MAX_FIELDS = 2000;

/** What kind of thing changed. */
export type SpecSubject = 'operation' | 'parameter' | 'request_field' | 'response_field';
/** How it changed. */
export type SpecChangeKind = 'added' | 'removed' | 'changed' | 'renamed';

/** One difference between two versions of a spec. */
export interface SpecChange {
  subject: SpecSubject;
  kind: SpecChangeKind;
  /** `GET /users/{id}` (uppercase method), or `WEBHOOK name` */
  operation: string;
  /** parameter name, or dotted field path; absent for an operation */
  name?: string;
  /** renamed: the old parameter name or field path */
  previous?: string;
  /** parameter: its location */
  in?: string;
  /** response field: the status code (`200`, `4XX`, `default`) */
  status?: string;
  /** one line for people, e.g. `GET /users: query parameter per_page renamed to page_size` */
  summary: string;
}

/** The result of {@link diffOpenApiSpec}. */
export interface SpecDiff {
  changes: SpecChange[];
  /** operations of the new version that the old one lacks (for stub pages) */
  addedOperations: ResolvedOperation[];
  /** a version that could not be read as a spec (`base` or `head`) with the reason; its operations count as none */
  problems: string[];
}

/** A parameter's or field's comparable traits. */
interface Trait {
  signature: string;
}

/**
 * Compares two versions of the spec at `specFile` (text as stored: JSON or YAML; null when the file
 * does not exist in that version).
 * @returns the changes in a stable order (operations in spec order, then by subject and name).
 */
export function diffOpenApiSpec(specFile: string, baseText: string | null, headText: string | null): SpecDiff {
  const problems: string[] = [];
  const base = operationsOf(specFile, baseText, 'base', problems);
  const head = operationsOf(specFile, headText, 'head', problems);
  const changes: SpecChange[] = [];
  const addedOperations: ResolvedOperation[] = [];
  for (const key of base.keys()) {
    if (!head.has(key)) changes.push({ subject: 'operation', kind: 'removed', operation: key, summary: `${key}: operation removed` });
  }
  for (const [key, op] of head) {
    const before = base.get(key);
    if (!before) {
      changes.push({ subject: 'operation', kind: 'added', operation: key, summary: `${key}: operation added` });
      addedOperations.push(op);
      continue;
    }
    changes.push(...operationChanges(key, before, op));
  }
  return { changes, addedOperations, problems };
}

/** The operations of one version by key; a version that is not a spec adds a problem and has none. */
function operationsOf(specFile: string, text: string | null, which: string, problems: string[]): Map<string, ResolvedOperation> {
  const out = new Map<string, ResolvedOperation>();
  if (text === null) return out;
  const { registry, warnings } = loadOpenApiRegistry(memoryFiles({ [specFile]: text }), [specFile]);
  if (registry.specFiles.length === 0) {
    problems.push(`${which}: ${warnings[0]?.message ?? `${specFile} is not an OpenAPI spec`}`);
    return out;
  }
  for (const op of registry.operations(specFile)) out.set(operationKey(op), op);
  return out;
}

/** `GET /users/{id}`, or `WEBHOOK name`. */
export function operationKey(op: Pick<ResolvedOperation, 'kind' | 'method' | 'path'>): string {
  return op.kind === 'webhook' ? `WEBHOOK ${op.path}` : `${op.method.toUpperCase()} ${op.path}`;
}

function operationChanges(key: string, before: ResolvedOperation, after: ResolvedOperation): SpecChange[] {
  const a = buildOperationModel(before);
  const b = buildOperationModel(after);
  const out: SpecChange[] = [];
  const locations = new Set([...a.parameters, ...b.parameters].map((p) => p.in));
  for (const loc of locations) {
    const pa = paramTraits(a.parameters.filter((p) => p.in === loc));
    const pb = paramTraits(b.parameters.filter((p) => p.in === loc));
    for (const c of compareNamed(pa, pb)) {
      out.push({ subject: 'parameter', operation: key, in: loc, ...c, summary: `${key}: ${loc} parameter ${describe(c)}` });
    }
  }
  const body = compareNamed(fieldTraits(a.body?.schema), fieldTraits(b.body?.schema));
  for (const c of body) out.push({ subject: 'request_field', operation: key, ...c, summary: `${key}: request body field ${describe(c)}` });
  const statuses = new Set([...a.responses, ...b.responses].map((r) => r.status));
  for (const status of statuses) {
    const ra = a.responses.find((r) => r.status === status);
    const rb = b.responses.find((r) => r.status === status);
    for (const c of compareNamed(fieldTraits(ra?.schema), fieldTraits(rb?.schema))) {
      out.push({ subject: 'response_field', operation: key, status, ...c, summary: `${key}: ${status} response field ${describe(c)}` });
    }
  }
  return out;
}

function describe(c: { kind: SpecChangeKind; name: string; previous?: string }): string {
  return c.kind === 'renamed' ? `${c.previous} renamed to ${c.name}` : `${c.name} ${c.kind}`;
}

/**
 * Compares two name → trait maps: removed, added, changed, and renames (see the module comment).
 * Sorted by name.
 */
function compareNamed(a: Map<string, Trait>, b: Map<string, Trait>): Array<{ kind: SpecChangeKind; name: string; previous?: string }> {
  const removed = [...a.keys()].filter((n) => !b.has(n));
  const added = [...b.keys()].filter((n) => !a.has(n));
  const out: Array<{ kind: SpecChangeKind; name: string; previous?: string }> = [];
  const paired = new Set<string>();
  for (const old of removed) {
    const sig = a.get(old)!.signature;
    const sameInOld = removed.filter((n) => a.get(n)!.signature === sig && parentOf(n) === parentOf(old));
    const candidates = added.filter((n) => b.get(n)!.signature === sig && parentOf(n) === parentOf(old));
    if (sameInOld.length === 1 && candidates.length === 1) {
      paired.add(old).add(candidates[0]!);
      out.push({ kind: 'renamed', name: candidates[0]!, previous: old });
    }
  }
  for (const n of removed) if (!paired.has(n)) out.push({ kind: 'removed', name: n });
  for (const n of added) if (!paired.has(n)) out.push({ kind: 'added', name: n });
  for (const [n, t] of a) if (b.has(n) && b.get(n)!.signature !== t.signature) out.push({ kind: 'changed', name: n });
  return out.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
}

/** The path of the object holding a field (`user` for `user.email`; '' at the top). */
function parentOf(name: string): string {
  const i = name.lastIndexOf('.');
  return i < 0 ? '' : name.slice(0, i);
}

function paramTraits(params: ParameterModel[]): Map<string, Trait> {
  return new Map(params.map((p) => [p.name, { signature: signatureOf(p.schema, p.required, p.deprecated) }]));
}

const obj = (v: unknown): SpecObject | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as SpecObject) : undefined);

/** A schema's comparable traits as one string: type, format, enum, required, deprecated. */
function signatureOf(schema: SpecObject | undefined, required: boolean, deprecated: boolean): string {
  const s = schema ?? {};
  const type = Array.isArray(s.type) ? [...(s.type as unknown[])].map(String).sort().join('|') : String(s.type ?? (obj(s.properties) ? 'object' : s.items ? 'array' : ''));
  const format = typeof s.format === 'string' ? s.format : '';
  const enumValues = Array.isArray(s.enum) ? JSON.stringify(s.enum) : '';
  return JSON.stringify([type, format, enumValues, required, deprecated || s.deprecated === true]);
}

/** Every field of a schema by dotted path (see the module comment); empty for no schema. */
function fieldTraits(schema: SpecObject | undefined): Map<string, Trait> {
  const out = new Map<string, Trait>();
  if (!schema) return out;
  const walk = (s: SpecObject, prefix: string, depth: number, refs: readonly string[]): void => {
    if (depth >= MAX_FIELD_DEPTH || out.size >= MAX_FIELDS) return;
    const ref = refNameOf(s);
    if (ref && refs.includes(ref)) return;
    const seen = ref ? [...refs, ref] : refs;
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
      const members = s[key];
      if (Array.isArray(members)) for (const m of members) if (obj(m)) walk(obj(m)!, prefix, depth, seen);
    }
    const items = obj(s.items);
    if (items) walk(items, `${prefix}[]`, depth + 1, seen);
    const props = obj(s.properties);
    if (!props) return;
    const required = new Set(Array.isArray(s.required) ? (s.required as unknown[]).filter((r): r is string => typeof r === 'string') : []);
    for (const [name, value] of Object.entries(props)) {
      const child = obj(value);
      if (!child || out.size >= MAX_FIELDS) continue;
      const path = prefix ? `${prefix}.${name}` : name;
      out.set(path, { signature: signatureOf(child, required.has(name), false) });
      walk(child, path, depth + 1, seen);
    }
  };
  walk(schema, '', 0, []);
  return out;
}
