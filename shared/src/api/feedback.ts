/**
 * Wire shapes of visitor feedback (interface-spec.md "Feedback" resource, "Feedback (public, no API
 * key needed)" endpoints and "Limits": page comment at most 1,000 characters, section comment at most
 * 500; decisions.md section 7: creation answers 201 `{data: record}` with `id`, the fields sent and
 * `createdAt`). Used by `/v1/projects/{projectId}/feedback/*`, the site's `/_quire/feedback/*` and
 * the site's feedback widgets (site/assets/feedback.js).
 */
import { z } from 'zod';
import { TimestampSchema } from './common';
import { MAX_VISITOR_ID } from './chat';

/** Most characters of a page feedback comment (interface-spec.md "Limits"). */
export const MAX_PAGE_COMMENT = 1_000;
/** Most characters of a section feedback comment (interface-spec.md "Limits"). */
export const MAX_SECTION_COMMENT = 500;
/** Most characters of a page path. */
export const MAX_PAGE_PATH = 500;
/** Most characters of a section id (a heading anchor). */
export const MAX_SECTION_ID = 200;
/** Latest comments listed per page by `GET .../feedback/pages`. */
export const FEEDBACK_COMMENTS_PER_PAGE = 5;

/**
 * The page a feedback path counts for: the path the site serves the page at, without leading or
 * trailing slashes (`/guides/setup/` → `guides/setup`; a version's pages keep their `/<label>`
 * prefix: `v1/guides/setup`). '' when nothing is left (the site's `/`, which the site endpoint
 * turns into its home page). Statistics group by it; the record keeps the path as sent.
 */
export function normalizePagePath(path: string): string {
  return path.trim().replace(/^\/+/, '').replace(/\/+$/, '');
}

/**
 * A page path as a feedback body sends it: at most {@link MAX_PAGE_PATH} characters, naming a page once
 * normalised ({@link normalizePagePath}; the root alone is refused). The value stays as sent:
 * decisions.md section 7 has the record hold the fields sent.
 */
export const PagePathSchema = z
  .string()
  .max(MAX_PAGE_PATH, `at most ${MAX_PAGE_PATH} characters`)
  .refine((value) => normalizePagePath(value) !== '', 'must name a page (e.g. guides/setup)')
  .describe('The page, as the site serves it: `guides/setup` (kept as sent; statistics ignore leading and trailing slashes, so `/guides/setup/` counts for the same page; a documentation version\'s pages keep their prefix, `v1/guides/setup`)');

/** A section: the anchor of an h2/h3 heading, with or without its `#`. */
export const SectionIdSchema = z
  .string()
  .max(MAX_SECTION_ID, `at most ${MAX_SECTION_ID} characters`)
  .transform((value, ctx) => {
    const id = value.trim().replace(/^#/, '');
    if (id && !/[\s#]/.test(id)) return id;
    ctx.addIssue({ code: 'custom', message: id ? 'must be a heading anchor (no spaces or #)' : 'must not be empty' });
    return z.NEVER;
  })
  .describe('The heading anchor of the section (`install` for `#install`; a leading `#` is ignored)');

/** The site's anonymous visitor id (interface-spec.md "Limits": at most 100 characters). */
export const FeedbackVisitorIdSchema = z.string().min(1).max(MAX_VISITOR_ID, `at most ${MAX_VISITOR_ID} characters`).describe(`The site's anonymous visitor id, 1-${MAX_VISITOR_ID} characters`);

/** Body of `POST .../feedback/page`. */
export const CreatePageFeedbackBodySchema = z.strictObject({
  pagePath: PagePathSchema,
  helpful: z.boolean().describe('true: "Yes, this page helped"; false: "No"'),
  comment: z.string().max(MAX_PAGE_COMMENT, `at most ${MAX_PAGE_COMMENT} characters`).optional().describe(`What the reader wrote, at most ${MAX_PAGE_COMMENT} characters (blank is stored as none)`),
  visitorId: FeedbackVisitorIdSchema.optional(),
});
export type CreatePageFeedbackBody = z.infer<typeof CreatePageFeedbackBodySchema>;

/** Body of `POST .../feedback/section`. */
export const CreateSectionFeedbackBodySchema = z.strictObject({
  pagePath: PagePathSchema,
  sectionId: SectionIdSchema,
  vote: z.enum(['up', 'down']).describe('up: the section helped; down: it did not'),
  comment: z.string().max(MAX_SECTION_COMMENT, `at most ${MAX_SECTION_COMMENT} characters`).optional().describe(`What the reader wrote, at most ${MAX_SECTION_COMMENT} characters (blank is stored as none)`),
  visitorId: FeedbackVisitorIdSchema.optional(),
});
export type CreateSectionFeedbackBody = z.infer<typeof CreateSectionFeedbackBodySchema>;

/** Query of `GET .../feedback/page` and `GET .../feedback/section`: the page, normalised ({@link normalizePagePath}). */
export const FeedbackStatsQuerySchema = z.object({ pagePath: PagePathSchema.transform(normalizePagePath) });
export type FeedbackStatsQuery = z.infer<typeof FeedbackStatsQuerySchema>;

/** The page feedback record answered on creation (decisions.md section 7). */
export const PageFeedbackSchema = z.object({
  id: z.string().describe('fbk_<id>'),
  pagePath: z.string().describe('as sent'),
  helpful: z.boolean(),
  comment: z.string().nullable().describe('null when none (or blank) was sent'),
  visitorId: z.string().nullable(),
  createdAt: TimestampSchema,
});
export type PageFeedback = z.infer<typeof PageFeedbackSchema>;

/** The section feedback record answered on creation. */
export const SectionFeedbackSchema = z.object({
  id: z.string().describe('sfb_<id>'),
  pagePath: z.string().describe('as sent'),
  sectionId: z.string(),
  vote: z.enum(['up', 'down']),
  comment: z.string().nullable().describe('null when none (or blank) was sent'),
  visitorId: z.string().nullable(),
  createdAt: TimestampSchema,
});
export type SectionFeedback = z.infer<typeof SectionFeedbackSchema>;

/** Page feedback stats (interface-spec.md "Feedback"). */
export const PageFeedbackStatsSchema = z.object({
  helpful: z.number().int().min(0),
  notHelpful: z.number().int().min(0),
  total: z.number().int().min(0).describe('helpful + notHelpful'),
});
export type PageFeedbackStats = z.infer<typeof PageFeedbackStatsSchema>;

/** One section's votes (interface-spec.md "Feedback"). */
export const SectionFeedbackStatsSchema = z.object({
  sectionId: z.string(),
  upvotes: z.number().int().min(0),
  downvotes: z.number().int().min(0),
});
export type SectionFeedbackStats = z.infer<typeof SectionFeedbackStatsSchema>;

/** A comment left with page or section feedback, as the aggregate lists it. */
export const FeedbackCommentSchema = z.object({
  id: z.string().describe('fbk_ (page) or sfb_ (section) id'),
  sectionId: z.string().nullable().describe('null: a comment on the page as a whole'),
  helpful: z.boolean().describe('the page answer (page feedback) or the vote up (section feedback)'),
  comment: z.string(),
  userId: z.string().nullable().describe('the account of the Bearer token that sent it; null: anonymous'),
  createdAt: TimestampSchema,
});
export type FeedbackComment = z.infer<typeof FeedbackCommentSchema>;

/** One page of `GET .../feedback/pages`. */
export const FeedbackPageSummarySchema = z.object({
  pagePath: z.string().describe('the page, normalised: feedback sent for `/guides/setup/` and `guides/setup` is listed once, as `guides/setup`'),
  helpful: z.number().int().min(0),
  notHelpful: z.number().int().min(0),
  total: z.number().int().min(0).describe('page answers: helpful + notHelpful'),
  sections: z.array(SectionFeedbackStatsSchema).describe('sections with votes, most votes first'),
  comments: z.array(FeedbackCommentSchema).describe(`the latest comments (page and sections), newest first, at most ${FEEDBACK_COMMENTS_PER_PAGE}`),
  lastFeedbackAt: TimestampSchema.describe('when the newest page answer or section vote of the page arrived'),
});
export type FeedbackPageSummary = z.infer<typeof FeedbackPageSummarySchema>;

/** Orders of `GET .../feedback/pages`. */
export const FEEDBACK_PAGE_SORTS = ['recent', 'total', 'notHelpful'] as const;

/** Filters of `GET .../feedback/pages` (besides pagination). */
export const FeedbackPagesFiltersSchema = z.object({
  sort: z.enum(FEEDBACK_PAGE_SORTS).default('recent').describe('recent (default): newest feedback first; total: most page answers first; notHelpful: most "not helpful" answers first'),
});
export type FeedbackPagesFilters = z.infer<typeof FeedbackPagesFiltersSchema>;
