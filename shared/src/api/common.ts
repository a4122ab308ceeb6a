/**
 * Shapes shared by every REST resource (interface-spec.md "Conventions", decisions.md section 3):
 * the `{data}` envelope, the error envelope and the two pagination objects.
 */
import { z } from 'zod';
import { ERROR_CATALOGUE, type ErrorCode } from '../errors';

/** ISO 8601 timestamp as sent in responses, e.g. `2025-01-31T12:00:00.000Z`. */
export const TimestampSchema = z.iso.datetime().describe('ISO 8601 timestamp (UTC)');

/** `{ data: <schema> }`: the single-object response envelope. */
export function dataEnvelope<T extends z.ZodType>(schema: T) {
  return z.object({ data: schema });
}

/** The spec's error envelope `{ error: { code, message, details? } }`. */
export const ErrorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .describe('Error envelope. Validation errors carry details.field (dotted path) and details.issue.');

/** Response members of paginated lists (decisions.md section 3): `{page, pageSize, total, totalPages}`. */
export const PaginationSchema = z.object({
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1),
  total: z.number().int().min(0),
  totalPages: z.number().int().min(0),
});
export type Pagination = z.infer<typeof PaginationSchema>;

/**
 * A resolved page request (decisions.md section 3): 1-based `page`, `size` items per page, and the
 * rows to query with, `skip` (`(page - 1) * size`) and `take` (`size`). Built from the query by the
 * server's `resolvePage` (server/src/http/pagination.ts); list services take it.
 */
export interface PageRequest {
  page: number;
  size: number;
  /** Rows to skip (`(page - 1) * size`). */
  skip: number;
  take: number;
}

/** Builds' pagination (interface-spec.md "Builds"): `{page, perPage, total, totalPages}`. */
export const PerPagePaginationSchema = z.object({
  page: z.number().int().min(1),
  perPage: z.number().int().min(1),
  total: z.number().int().min(0),
  totalPages: z.number().int().min(0),
});
export type PerPagePagination = z.infer<typeof PerPagePaginationSchema>;

/**
 * The error responses of a route for the OpenAPI document and the serializer, e.g.
 * `errorResponses(400, 404)` → `{400: ErrorEnvelopeSchema, 404: ErrorEnvelopeSchema}`.
 * 401 and 429 are added to every authenticated route by the caller's choice of codes.
 */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, typeof ErrorEnvelopeSchema> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorEnvelopeSchema])) as Record<S, typeof ErrorEnvelopeSchema>;
}
