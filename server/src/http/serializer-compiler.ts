/**
 * Response serialization compiled once per route and status:
 * a zod response schema that converts cleanly to JSON Schema (`z.toJSONSchema`, output side) is
 * compiled with fast-json-stringify, which writes exactly the schema's properties (fields are
 * still selected through the route's response schema; extra properties never leave) without a
 * zod parse plus `JSON.stringify` per response. Schemas it cannot represent faithfully fall back
 * to fastify-type-provider-zod's serializer (zod parse, then `JSON.stringify`):
 * - anything `z.toJSONSchema` cannot express (transforms, dates, custom types);
 * - schemas with `default` values (zod fills them in; fast-json-stringify would not);
 * - `$ref`s (recursive or reused definitions) and `anyOf`/`oneOf` other than "T or null"
 *   (fast-json-stringify validates union branches per value, which is slower than zod).
 */
import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;
type RouteSchema = Parameters<FastifySerializerCompiler<unknown>>[0];

/** True when `node` (a JSON Schema from `z.toJSONSchema`) uses only what fast-json-stringify renders like zod. */
function isPlainSchema(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(isPlainSchema);
  if (typeof node !== 'object' || node === null) return true;
  const obj = node as JsonSchema;
  if ('default' in obj || '$ref' in obj || 'oneOf' in obj || 'allOf' in obj || 'not' in obj) return false;
  const anyOf = obj.anyOf;
  if (anyOf !== undefined && !isNullableUnion(anyOf)) return false;
  return Object.values(obj).every(isPlainSchema);
}

/** `anyOf: [T, {type: 'null'}]`, zod's `.nullable()`. */
function isNullableUnion(anyOf: unknown): boolean {
  return Array.isArray(anyOf) && anyOf.length === 2 && anyOf.some((b) => (b as JsonSchema | null)?.type === 'null');
}

/** The JSON Schema of a zod response schema for fast-json-stringify, or null when it must go through zod. */
export function fastSerializableSchema(schema: unknown): JsonSchema | null {
  if (!(schema instanceof z.ZodType)) return null;
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw', target: 'draft-7' }) as JsonSchema;
  } catch {
    return null;
  }
  delete json.$schema;
  return isPlainSchema(json) ? json : null;
}

/**
 * Fastify serializer compiler: fast-json-stringify for plain zod response schemas, the zod
 * serializer (parse + `JSON.stringify`, `ResponseSerializationError` on mismatch) for the rest.
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = (route: RouteSchema) => {
  const json = fastSerializableSchema(route.schema);
  if (json === null) return zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
  return fastJsonStringify(json) as (data: unknown) => string;
};
