/**
 * REST shapes of "Pages and Content" (interface-spec.md lists the section and leaves its
 * endpoints open): `GET /v1/projects/{projectId}/pages`, the deployed inventory
 * of one documentation version, and `GET /v1/projects/{projectId}/pages/{path}`, one page's
 * frontmatter, Markdown source and rendered headings. Quire's own payloads, written into the
 * OpenAPI document.
 */
import { z } from 'zod';
import { TimestampSchema } from './common';
import { OwnerSchema } from './ownership';
import { VersionLabelSchema } from './search';

/** `version` filter of both routes (the list adds `page`, `pageSize`/`per_page`). */
export const PagesVersionQuerySchema = z.object({ version: VersionLabelSchema.optional() });

/** Path parameters of one page: `path` may hold slashes (`guides/setup`). */
export const PageParamsSchema = z.object({ projectId: z.string(), '*': z.string().describe('Page path as served, slashes included (`guides/setup`)') });

/** One page of the deployed inventory. */
export const PageSummarySchema = z.object({
  path: z.string().describe('Page path as served (`guides/setup`; `index` for a home page)'),
  title: z.string(),
  version: z.string().nullable().describe('Label of the version; null on a site without versions'),
  audience: z.array(z.string()).describe('Frontmatter `audience` tags: the page is gated; [] when public'),
  hidden: z.boolean().describe('Frontmatter `hidden`: deployed but left out of navigation and search'),
  owner: OwnerSchema.nullable().describe('The owner by the project\'s ownership rules (the last matching rule wins); null when none matches'),
  lastUpdated: TimestampSchema.nullable().describe('Frontmatter `lastUpdated` of the page\'s source; null when it has none'),
  contentHash: z.string().nullable().describe('SHA-256 of the page\'s deployed Markdown (hex); null for deployments made before hashes were recorded'),
});
export type PageSummary = z.infer<typeof PageSummarySchema>;

/** A heading of a rendered page (its table of contents). */
export const PageHeadingSchema = z.object({
  depth: z.number().int().min(1).max(6).describe('2 for `##`, 3 for `###`'),
  id: z.string().describe('The heading\'s anchor (`#id` on the page)'),
  text: z.string(),
});
export type PageHeading = z.infer<typeof PageHeadingSchema>;

/** One page with its content. */
export const PageDetailSchema = PageSummarySchema.extend({
  frontmatter: z.record(z.string(), z.unknown()).describe('The frontmatter of the page\'s source file at the deployed commit ({} when it has none or the page was generated, e.g. from OpenAPI)'),
  markdown: z.string().describe('The page\'s deployed Markdown (what `<page>.md` serves on the site)'),
  headings: z.array(PageHeadingSchema).describe('Headings of the rendered page, in order'),
});
export type PageDetail = z.infer<typeof PageDetailSchema>;
