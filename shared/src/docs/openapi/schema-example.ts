/**
 * Example values made from schemas, for code samples and response examples when the spec gives
 * none: the schema's own `example`/`examples`/`default`/`const`/first `enum` value, else a
 * placeholder by type (`"<string>"`, `123`, `true`, well-known string formats). Bounded in depth
 * and cycle-safe (a schema already being expanded yields nothing).
 */
import { mergeAllOf, schemaProperties, schemaVariants, type SchemaMode } from './schema-shape';
import type { SpecObject } from './types';

const obj = (v: unknown): SpecObject | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as SpecObject) : undefined;

const MAX_DEPTH = 6;

const FORMAT_EXAMPLES: Record<string, string> = {
  'date-time': '2023-11-07T05:31:56Z',
  date: '2023-12-25',
  time: '05:31:56Z',
  email: 'jsmith@example.com',
  uuid: '3c90c3cc-0d44-4b50-8888-8dd25736052a',
  uri: 'https://example.com',
  url: 'https://example.com',
  hostname: 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  binary: '<binary>',
  byte: '<base64>',
};

/**
 * An example value for `schema` in a request or a response (readOnly/writeOnly properties left
 * out as in {@link schemaProperties}). Returns undefined only for a schema met again inside itself.
 */
export function exampleFromSchema(schema: SpecObject, mode: SchemaMode, ancestors: Set<unknown> = new Set(), depth = 0): unknown {
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (ancestors.has(schema) || depth > MAX_DEPTH) return undefined;
  const inner = new Set(ancestors).add(schema);
  const merged = mergeAllOf(schema);
  if (merged !== schema) return exampleFromSchema(merged, mode, inner, depth + 1);
  const variants = schemaVariants(schema);
  if (variants) return exampleFromSchema(variants.variants[0]!, mode, inner, depth + 1);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => typeof t === 'string' && t !== 'null') as string | undefined;
  if (type === 'object' || (type === undefined && (schema.properties !== undefined || schema.additionalProperties !== undefined))) {
    const out: Record<string, unknown> = {};
    for (const p of schemaProperties(schema, mode)) {
      const v = exampleFromSchema(p.schema, mode, inner, depth + 1);
      if (v !== undefined) out[p.name] = v;
    }
    const ap = obj(schema.additionalProperties);
    if (ap && Object.keys(out).length === 0) {
      const v = exampleFromSchema(ap, mode, inner, depth + 1);
      if (v !== undefined) out.key = v;
    }
    return out;
  }
  if (type === 'array' || (type === undefined && schema.items !== undefined)) {
    const items = obj(schema.items);
    const v = items ? exampleFromSchema(items, mode, inner, depth + 1) : undefined;
    return v === undefined ? [] : [v];
  }
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 123;
  if (type === 'boolean') return true;
  if (type === 'string') return FORMAT_EXAMPLES[String(schema.format)] ?? '<string>';
  if (types.includes('null')) return null;
  return type === undefined ? '<any>' : `<${type}>`;
}
