/**
 * REST shapes of Analytics (interface-spec.md "Analytics", "Content health", "Limits": stale pages
 * are those not updated for more than 90 days; decisions.md section 7; reads need `projects:read`,
 * decisions.md section 2). Page views are recorded by the server as it serves pages (no tracker, no
 * cookie), split into people and AI agents; visitors are counted once a day by a hash salted per day.
 * The routes beyond `content-health` and `health` are Quire's own (the spec does not show them).
 */
import { z } from 'zod';
import { TimestampSchema } from './common';
import { OwnerSchema } from './ownership';

/** Pages not updated for more than this many days are stale (interface-spec.md "Limits"). */
export const STALE_PAGE_DAYS = 90;
/** Most gaps in the content health answer (most frequent first). */
export const MAX_HEALTH_GAPS = 50;
/** Most buckets one views request may ask for. */
export const MAX_VIEW_BUCKETS = 1_000;
/** Default range of the analytics reads, in days before `to`. */
export const DEFAULT_RANGE_DAYS = 30;

const DAY_OR_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;
/** A day or an instant in a query. */
const DateParam = z
  .string()
  .regex(DAY_OR_TIME, 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time with a zone')
  .refine((s) => Number.isFinite(Date.parse(s)), 'is not a valid date');

/** `from` and `to` of every analytics read. */
export const AnalyticsRangeQuerySchema = z.object({
  from: DateParam.optional().describe(`Start of the range, inclusive: a date (YYYY-MM-DD, UTC midnight) or an ISO 8601 date-time. Default: ${DEFAULT_RANGE_DAYS} days before \`to\`.`),
  to: DateParam.optional().describe('End of the range: a date includes that whole UTC day; a date-time is the end itself. Default: now. Must not be before `from`.'),
});
export type AnalyticsRangeQuery = z.infer<typeof AnalyticsRangeQuerySchema>;

/** Bucket sizes of the views series (UTC; weeks start on Monday). */
export const ViewIntervalSchema = z.enum(['hour', 'day', 'week', 'month']);
export type ViewInterval = z.infer<typeof ViewIntervalSchema>;

/** `GET .../analytics/views` query. */
export const ViewsQuerySchema = AnalyticsRangeQuerySchema.extend({
  interval: ViewIntervalSchema.default('day').describe('Bucket size (default day)'),
});
export type ViewsQuery = z.infer<typeof ViewsQuerySchema>;

/** Queries of the ranked lists. */
export const RankedQuerySchema = AnalyticsRangeQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(100).default(10).describe('Items per list, 1-100 (default 10)'),
});
export type RankedQuery = z.infer<typeof RankedQuerySchema>;

/** One bucket of the views series. */
export const ViewBucketSchema = z.object({
  start: TimestampSchema.describe('Start of the bucket (UTC)'),
  people: z.number().int().describe('Page views by people (browsers)'),
  agents: z.number().int().describe('Page and agent-file views by AI agents and crawlers'),
  visitors: z
    .number()
    .int()
    .nullable()
    .describe('Unique people per day, added over the bucket\'s days (the daily salt makes a visitor on two days two visitors); null for hour buckets'),
});
export type ViewBucket = z.infer<typeof ViewBucketSchema>;

export const ViewsSchema = z.object({
  from: TimestampSchema,
  to: TimestampSchema,
  interval: ViewIntervalSchema,
  buckets: z.array(ViewBucketSchema),
});
export type Views = z.infer<typeof ViewsSchema>;

/** One of the most viewed pages. */
export const TopPageSchema = z.object({
  path: z.string().describe('Page path (`guides/setup`), agent file (`guides/setup.md`, `llms.txt`) or `mcp`; a version\'s pages carry its prefix (`v1/guides/setup`)'),
  views: z.number().int(),
  people: z.number().int(),
  agents: z.number().int(),
});
export type TopPage = z.infer<typeof TopPageSchema>;

/** A search query and how often it was asked. */
export const SearchCountSchema = z.object({
  query: z.string().describe('The query normalised (lower case, spaces collapsed)'),
  count: z.number().int().describe('Times searched'),
  noResults: z.number().int().describe('Of those, searches that found nothing'),
});
export type SearchCount = z.infer<typeof SearchCountSchema>;

export const SearchAnalyticsSchema = z.object({
  top: z.array(SearchCountSchema).describe('Most searched first'),
  withoutResults: z.array(SearchCountSchema).describe('Queries that found nothing at least once, most such searches first'),
});
export type SearchAnalytics = z.infer<typeof SearchAnalyticsSchema>;

/** Traffic of one AI agent or crawler. */
export const AgentTrafficSchema = z.object({
  agent: z.string().describe('`GPTBot`, `ClaudeBot`, ... by user agent; `bot` for other crawlers; `markdown`, `llms.txt`, `llms-full.txt` for those files fetched without a known user agent; `mcp` for MCP calls'),
  views: z.number().int(),
  topPaths: z.array(z.object({ path: z.string(), views: z.number().int() })).describe('Its five most read paths'),
});
export type AgentTraffic = z.infer<typeof AgentTrafficSchema>;

export const ChatAnalyticsSchema = z.object({
  questions: z.number().int().describe('Questions asked to the assistant in the range'),
  days: z.array(z.object({ day: z.string().describe('UTC day YYYY-MM-DD'), questions: z.number().int() })).describe('Days with questions, oldest first'),
  top: z.array(z.object({ question: z.string().describe('Normalised question'), count: z.number().int() })).describe('Most asked first'),
});
export type ChatAnalytics = z.infer<typeof ChatAnalyticsSchema>;

/** interface-spec.md "Content health". */
export const ContentHealthSchema = z.object({
  score: z.number().int().min(0).max(100).describe('Average of the per-page health scores (0 before the first production deploy)'),
  stalePages: z.array(z.object({ path: z.string(), lastUpdated: TimestampSchema })).describe(`Pages not updated for more than ${STALE_PAGE_DAYS} days, oldest first`),
  gaps: z.array(z.object({ topic: z.string(), source: z.string().describe('`search` or `ai_chat`'), frequency: z.number().int() })).describe(`Questions and searches with no good answer, most frequent first (at most ${MAX_HEALTH_GAPS})`),
  coveragePercent: z.number().int().min(0).max(100).describe('Percentage of the public API operations of the repository\'s OpenAPI files that have a page'),
});
export type ContentHealth = z.infer<typeof ContentHealthSchema>;

/** One component of a page's health score. */
export const HealthComponentSchema = z.object({
  points: z.number().int().describe('What it adds to the score'),
  max: z.number().int().describe('The most it can add'),
  detail: z.string().describe('Why, in words'),
});

/** One page's health. */
export const PageHealthSchema = z.object({
  path: z.string(),
  title: z.string(),
  score: z.number().int().min(0).max(100),
  owner: OwnerSchema.nullable().describe('Owner by the ownership rules; null when none matches'),
  lastUpdated: TimestampSchema.nullable().describe('Frontmatter `lastUpdated`, else the last commit changing the page; null when unknown'),
  components: z.object({
    freshness: HealthComponentSchema,
    feedback: HealthComponentSchema,
    brokenLinks: HealthComponentSchema,
    completeness: HealthComponentSchema,
  }),
});
export type PageHealth = z.infer<typeof PageHealthSchema>;

/** `GET .../analytics/health` query filters (with page, pageSize). */
export const PageHealthFiltersSchema = z.object({
  sort: z.enum(['score', '-score', 'path']).default('score').describe('`score` worst first (default), `-score` best first, `path` alphabetical'),
});
