/**
 * REST shapes of search (interface-spec.md "Search", "Reindex job", "States and transitions >
 * Reindex job"; decisions.md section 7: the hit shape `{title, path, url, section, snippet, version,
 * score}`, reindex answers 202 and `GET .../search/reindex/{jobId}`). The site's own
 * `GET /_quire/search` answers the same hit shape (decisions.md section 6).
 */
import { z } from 'zod';
import { TimestampSchema } from './common';

/** Most characters of a query (`q`). */
export const MAX_SEARCH_QUERY = 200;
/** Hits answered at most, and by default. */
export const MAX_SEARCH_LIMIT = 50;
export const DEFAULT_SEARCH_LIMIT = 10;

/** A documentation version label as a query parameter (`v1`, `2.x`). */
export const VersionLabelSchema = z.string().min(1).max(100).describe('Version label (versioning.versions[].label); absent: the default version');

/** Query of `GET /v1/projects/{projectId}/search` and of the site's `GET /_quire/search`. */
export const SearchQueryParamsSchema = z.object({
  q: z.string().trim().min(1, 'must not be empty').max(MAX_SEARCH_QUERY, `at most ${MAX_SEARCH_QUERY} characters`).describe(`The reader's text, 1-${MAX_SEARCH_QUERY} characters`),
  version: VersionLabelSchema.optional(),
  language: z.string().min(1).max(35).optional().describe('A language division code of docs.json `navigation.languages` (`fr`, `jp`): only pages of that language; absent: every language'),
  limit: z.coerce.number().int().min(1).max(MAX_SEARCH_LIMIT).default(DEFAULT_SEARCH_LIMIT).describe(`Hits wanted, 1-${MAX_SEARCH_LIMIT} (default ${DEFAULT_SEARCH_LIMIT})`),
});
export type SearchQueryParams = z.infer<typeof SearchQueryParamsSchema>;

/** One hit (decisions.md section 7). */
export const SearchResultSchema = z.object({
  title: z.string().describe("The page's title"),
  path: z.string().describe('Page path as served (`guides/setup`)'),
  url: z.string().describe("Where the hit is read: the site's absolute URL of the page (with `/<label>` for a non-default version) and `#<anchor>` of the section; the site endpoint answers it path-relative (`/v1/guides/setup#install`)"),
  section: z.string().nullable().describe('Heading text of the section hit; null when the hit is the introduction of the page'),
  snippet: z.string().describe('HTML-escaped excerpt of the section with each matched word in `<mark>`'),
  version: z.string().nullable().describe('Label of the version searched; null when the site declares no versions and none was asked for'),
  score: z.number().describe('Relevance, higher is better; comparable only within one answer'),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;

/** `{data: [hit]}`. */
export const SearchResponseSchema = z.object({ data: z.array(SearchResultSchema) });

/** States of a reindex job (interface-spec.md "Reindex job"; `failed` is Quire's: the job ended without a new index). */
export const REINDEX_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
export const ReindexStatusSchema = z.enum(REINDEX_STATUSES);

/** Body of `POST /v1/projects/{projectId}/search/reindex`. */
export const ReindexBodySchema = z
  .object({
    full: z.boolean().default(false).describe('true: every page is extracted again from the deployed Markdown; false (default): only pages whose content hash changed since the index was written'),
  })
  .strict();
export type ReindexBody = z.infer<typeof ReindexBodySchema>;

/** A reindex job (interface-spec.md "Reindex job"). */
export const ReindexJobSchema = z.object({
  jobId: z.string().describe('idx_<id>'),
  status: ReindexStatusSchema,
  full: z.boolean(),
  pagesIndexed: z.number().int().min(0).optional().describe('Pages indexed, over the production site and every live version (present when completed)'),
  startedAt: TimestampSchema.describe('When the reindex was requested'),
  finishedAt: TimestampSchema.optional().describe('When it completed or failed'),
  error: z.string().optional().describe('Why it failed (status failed)'),
});
export type ReindexJob = z.infer<typeof ReindexJobSchema>;

/** Path parameters of one reindex job. */
export const ReindexJobParamsSchema = z.object({ projectId: z.string(), jobId: z.string().describe('idx_<id>') });
