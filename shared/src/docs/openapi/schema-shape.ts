/**
 * Reading JSON Schemas as the endpoint page shows them: `allOf` merged, type labels such as
 * `string<date-time>`, `object[]`, `enum<string>`, `record<string, integer>`, `string | null`,
 * `oneOf`/`anyOf` variants, and the properties a request or response actually carries
 * (`readOnly` left out of requests, `writeOnly` out of responses). Works on lazy views; every
 * recursive walk is bounded, so cyclic schemas cannot hang it.
 */
import { MAX_ALLOF_MEMBERS, MAX_TYPE_LABEL_VISITS } from '../limits';
import type { SpecObject } from './types';

/**
 * 'request': bodies and parameters (readOnly hidden); 'response': responses (writeOnly hidden);
 * 'schema': schema pages (`openapi-schema:`), nothing hidden.
 */
export type SchemaMode = 'request' | 'response' | 'schema';

/** One property of an object schema. */
export interface SchemaProperty {
  name: string;
  schema: SpecObject;
  required: boolean;
}

const obj = (v: unknown): SpecObject | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as SpecObject) : undefined;

/** Nesting depth past which labels and merges stop descending. */
const MAX_DEPTH = 8;

/**
 * The schema with its `allOf` members folded in (recursively, bounded): properties merged (later
 * members win), `required` united, other keys first-come with the schema's own keys first.
 * Returns the schema itself when it has no `allOf`. At most MAX_ALLOF_MEMBERS members are folded in
 * all (limits.ts): `allOf`s nested wide and deep would otherwise fold exponentially many.
 */
export function mergeAllOf(schema: SpecObject, depth = 0, folded = { members: 0 }): SpecObject {
  if (!Array.isArray(schema.allOf) || depth > MAX_DEPTH) return schema;
  const out: SpecObject = {};
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  const fold = (s: SpecObject) => {
    for (const [k, v] of Object.entries(s)) {
      if (k === 'allOf' || k === '__proto__') continue;
      if (k === 'properties') {
        for (const [name, p] of Object.entries(obj(v) ?? {})) if (name !== '__proto__') properties[name] = p;
      }
      else if (k === 'required') for (const r of Array.isArray(v) ? v : []) if (typeof r === 'string') required.add(r);
      else if (!(k in out)) out[k] = v;
    }
  };
  fold(schema);
  for (const member of schema.allOf as unknown[]) {
    const m = obj(member);
    if (!m) continue;
    if (++folded.members > MAX_ALLOF_MEMBERS) break;
    fold(mergeAllOf(m, depth + 1, folded));
  }
  if (Object.keys(properties).length > 0) {
    out.properties = properties;
    if (out.type === undefined) out.type = 'object';
  }
  if (required.size > 0) out.required = [...required];
  return out;
}

/** `oneOf`/`anyOf` members of a schema (after allOf merge), or undefined when it has none. */
export function schemaVariants(schema: SpecObject): { kind: 'oneOf' | 'anyOf'; variants: SpecObject[] } | undefined {
  for (const kind of ['oneOf', 'anyOf'] as const) {
    const list = schema[kind];
    if (Array.isArray(list) && list.length > 0) {
      const variants = list.map(obj).filter((v): v is SpecObject => v !== undefined);
      if (variants.length > 0) return { kind, variants };
    }
  }
  return undefined;
}

function typeList(schema: SpecObject): { types: string[]; nullable: boolean } {
  const raw = Array.isArray(schema.type) ? schema.type : typeof schema.type === 'string' ? [schema.type] : [];
  const all = raw.filter((t): t is string => typeof t === 'string');
  const nullable = schema.nullable === true || all.includes('null');
  return { types: all.filter((t) => t !== 'null'), nullable };
}

/** True when the schema describes (possibly nullable) objects with named properties. */
export function hasProperties(schema: SpecObject): boolean {
  return obj(schema.properties) !== undefined && Object.keys(obj(schema.properties)!).length > 0;
}

/**
 * A short type label for a schema, as fields show it: `string`, `string<uuid>`, `integer`,
 * `object`, `string[]`, `object[]`, `enum<string>`, `record<string, number>`, `string | null`,
 * `A | B` for variants, `any` when nothing is said (or the `$ref` could not be resolved). Nested
 * parts past MAX_TYPE_LABEL_VISITS schemas (limits.ts) read `any`.
 */
export function schemaTypeLabel(input: SpecObject, depth = 0, visits = { n: 0, members: 0 }): string {
  if (depth > MAX_DEPTH || ++visits.n > MAX_TYPE_LABEL_VISITS) return 'any';
  const schema = mergeAllOf(input, depth, visits);
  const { types, nullable } = typeList(schema);
  let labels: string[];
  if (types.length === 0) {
    if (hasProperties(schema) || obj(schema.additionalProperties)) labels = ['object'];
    else if (schema.items !== undefined) labels = ['array'];
    else if (Array.isArray(schema.enum) && schema.enum.length > 0) {
      const t = typeof schema.enum.find((e) => e !== null);
      labels = [`enum<${t === 'number' ? 'number' : t === 'boolean' ? 'boolean' : 'string'}>`];
    } else if (schema.const !== undefined && schema.const !== null) labels = [typeof schema.const];
    else {
      const v = schemaVariants(schema);
      labels = v ? [...new Set(v.variants.map((s) => schemaTypeLabel(s, depth + 1, visits)))] : ['any'];
      if (labels.length > 4) labels = [...labels.slice(0, 4), '...'];
    }
  } else {
    labels = types.map((t) => {
      if (t === 'array') {
        const items = obj(schema.items);
        if (!items) return 'any[]';
        const inner = schemaTypeLabel(items, depth + 1, visits);
        return inner.includes(' ') ? `(${inner})[]` : `${inner}[]`;
      }
      if (Array.isArray(schema.enum) && schema.enum.length > 0) return `enum<${t}>`;
      if (t === 'object') {
        const ap = obj(schema.additionalProperties);
        if (ap && !hasProperties(schema)) return `record<string, ${schemaTypeLabel(ap, depth + 1, visits)}>`;
        return 'object';
      }
      if (typeof schema.format === 'string' && schema.format !== '') return `${t}<${schema.format}>`;
      return t;
    });
  }
  if (nullable && !labels.includes('null')) labels.push('null');
  return labels.join(' | ');
}

/**
 * The properties of an object schema (allOf merged) in the spec's order, minus `readOnly` ones in
 * requests and `writeOnly` ones in responses.
 */
export function schemaProperties(input: SpecObject, mode: SchemaMode): SchemaProperty[] {
  const schema = mergeAllOf(input);
  const props = obj(schema.properties) ?? {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
  const out: SchemaProperty[] = [];
  for (const [name, v] of Object.entries(props)) {
    const s = obj(v);
    if (!s) continue;
    if (mode === 'request' && s.readOnly === true) continue;
    if (mode === 'response' && s.writeOnly === true) continue;
    out.push({ name, schema: s, required: required.has(name) });
  }
  return out;
}

/**
 * What a field's nested list describes: the schema's own properties, its array items' properties,
 * or the values of a map (`additionalProperties`) when those are objects. Undefined for leaves.
 */
export function nestedObjectSchema(input: SpecObject): { via: 'properties' | 'items' | 'values'; schema: SpecObject } | undefined {
  const schema = mergeAllOf(input);
  if (hasProperties(schema)) return { via: 'properties', schema: input };
  const items = obj(schema.items);
  if (items) {
    const mi = mergeAllOf(items);
    if (hasProperties(mi) || schemaVariants(mi)) return { via: 'items', schema: items };
  }
  const ap = obj(schema.additionalProperties);
  if (ap && hasProperties(mergeAllOf(ap))) return { via: 'values', schema: ap };
  return undefined;
}
