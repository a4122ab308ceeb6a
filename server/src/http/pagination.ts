/**
 * List pagination (decisions.md section 3; interface-spec.md "Limits"): `page` (default 1) and
 * `pageSize` (alias `per_page`, default 20, max 100). Sizes above the maximum are clamped;
 * `0`, negatives and non-numbers give 400 `invalid_request` with `details.field`.
 */
import { z } from 'zod';
import type { PageRequest, Pagination, PerPagePagination } from '@quire/shared/api/common';

/** Default and maximum page sizes. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const pageSizeField = z.coerce
  .number()
  .int()
  .min(1)
  .transform((n) => Math.min(n, MAX_PAGE_SIZE))
  .optional();

/**
 * Query schema for `page`, `pageSize` and `per_page` (extend it with a route's filters:
 * `PageQuerySchema.extend({status: ...})`). Use {@link resolvePage} on the parsed value.
 */
export const PageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1).describe('1-based page number'),
  pageSize: pageSizeField.describe(`Items per page (default ${DEFAULT_PAGE_SIZE}, above ${MAX_PAGE_SIZE} clamped)`),
  per_page: pageSizeField.describe('Alias of pageSize'),
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

/** Turns a parsed {@link PageQuery} into numbers (`pageSize` wins over `per_page`). */
export function resolvePage(query: Pick<PageQuery, 'page' | 'pageSize' | 'per_page'>): PageRequest {
  const size = query.pageSize ?? query.per_page ?? DEFAULT_PAGE_SIZE;
  return { page: query.page, size, skip: (query.page - 1) * size, take: size };
}

/** `{page, pageSize, total, totalPages}` for the general list envelope. */
export function pagination(req: PageRequest, total: number): Pagination;
/** `{page, perPage, total, totalPages}` for builds (interface-spec.md "Builds"). */
export function pagination(req: PageRequest, total: number, style: 'perPage'): PerPagePagination;
export function pagination(req: PageRequest, total: number, style: 'pageSize' | 'perPage' = 'pageSize'): Pagination | PerPagePagination {
  const totalPages = Math.ceil(total / req.size);
  return style === 'perPage'
    ? { page: req.page, perPage: req.size, total, totalPages }
    : { page: req.page, pageSize: req.size, total, totalPages };
}
