/**
 * Example values made from schemas, for code samples and response examples when the spec gives
 * none: the schema's own `example`/`examples`/`default`/`const`/first `enum` value, else a
 * placeholder by type (`"<string>"`, `123`, `true`, well-known string formats). Bounded in depth,
 * cycle-safe (a schema already being expanded yields nothing) and bounded in size: an example takes
 * its characters from an {@link ExampleAllowance} as it is built, and what does not fit is left out
 * (an object then ends with `"…": "example truncated"`).
 */
import { ExampleAllowance, jsonSize, type PageBudget } from './page-budget';
import { mergeAllOf, schemaProperties, schemaVariants, type SchemaMode } from './schema-shape';
import type { SpecObject } from './types';
import { MAX_OPENAPI_EXAMPLE_CHARS } from '../limits';

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

/** Key added to an object example whose remaining properties did not fit its allowance. */
export const TRUNCATED_KEY = '…';

/**
 * The example of `schema` for a page, drawing on its budget: `what` (`response 200`) names it in the
 * note when it had to be truncated.
 */
export function pageExample(schema: SpecObject, mode: SchemaMode, budget: PageBudget, what: string): unknown {
  const allowance = budget.allowance();
  const value = exampleFromSchema(schema, mode, allowance);
  budget.settle(allowance, what);
  return value;
}

/** A spec-given value if it fits the allowance; else undefined (and the allowance marked truncated). */
function given(v: unknown, allowance: ExampleAllowance): unknown {
  return allowance.take(jsonSize(v, allowance.left)) ? v : undefined;
}

/**
 * An example value for `schema` in a request or a response (readOnly/writeOnly properties left
 * out as in {@link schemaProperties}), at most `allowance.limit` characters of JSON (see the module
 * doc). Returns undefined for a schema met again inside itself, or when nothing fits.
 */
export function exampleFromSchema(
  schema: SpecObject,
  mode: SchemaMode,
  allowance: ExampleAllowance = new ExampleAllowance(MAX_OPENAPI_EXAMPLE_CHARS),
  ancestors: Set<unknown> = new Set(),
  depth = 0,
): unknown {
  if (schema.example !== undefined) return given(schema.example, allowance);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return given(schema.examples[0], allowance);
  if (schema.const !== undefined) return given(schema.const, allowance);
  if (schema.default !== undefined) return given(schema.default, allowance);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return given(schema.enum[0], allowance);
  if (ancestors.has(schema) || depth > MAX_DEPTH) return undefined;
  const inner = new Set(ancestors).add(schema);
  const merged = mergeAllOf(schema);
  if (merged !== schema) return exampleFromSchema(merged, mode, allowance, inner, depth + 1);
  const variants = schemaVariants(schema);
  if (variants) return exampleFromSchema(variants.variants[0]!, mode, allowance, inner, depth + 1);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => typeof t === 'string' && t !== 'null') as string | undefined;
  if (type === 'object' || (type === undefined && (schema.properties !== undefined || schema.additionalProperties !== undefined))) {
    if (!allowance.take(2)) return undefined;
    const out: Record<string, unknown> = {};
    for (const p of schemaProperties(schema, mode)) {
      if (!allowance.take(p.name.length + 4)) break;
      const v = exampleFromSchema(p.schema, mode, allowance, inner, depth + 1);
      if (v !== undefined) out[p.name] = v;
      if (allowance.truncated) break;
    }
    const ap = obj(schema.additionalProperties);
    if (ap && Object.keys(out).length === 0 && !allowance.truncated && allowance.take(7)) {
      const v = exampleFromSchema(ap, mode, allowance, inner, depth + 1);
      if (v !== undefined) out.key = v;
    }
    if (allowance.truncated) out[TRUNCATED_KEY] = 'example truncated';
    return out;
  }
  if (type === 'array' || (type === undefined && schema.items !== undefined)) {
    if (!allowance.take(2)) return undefined;
    const items = obj(schema.items);
    const v = items ? exampleFromSchema(items, mode, allowance, inner, depth + 1) : undefined;
    return v === undefined ? [] : [v];
  }
  return given(placeholder(schema, type, types), allowance);
}

/** The placeholder of a scalar schema: a number, `true`, a well-known format's example, `"<string>"`... */
function placeholder(schema: SpecObject, type: string | undefined, types: unknown[]): unknown {
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 123;
  if (type === 'boolean') return true;
  if (type === 'string') return FORMAT_EXAMPLES[String(schema.format)] ?? '<string>';
  if (types.includes('null')) return null;
  return type === undefined ? '<any>' : `<${type}>`;
}
