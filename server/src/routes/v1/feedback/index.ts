/**
 * Feedback (interface-spec.md "Feedback (public, no API key needed)"; decisions.md section 7:
 * creation answers 201 `{data: record}`, public routes are rate-limited per IP and send CORS headers
 * for the project's site origins; section 2: `feedback/pages` needs `projects:read`).
 * The page and section routes are public; a Bearer key or session of the project's organization
 * associates the feedback with its account (services/feedback.ts `feedbackAuthorOf`).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses, PaginationSchema } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import {
  CreatePageFeedbackBodySchema,
  CreateSectionFeedbackBodySchema,
  FeedbackPagesFiltersSchema,
  FeedbackPageSummarySchema,
  FeedbackStatsQuerySchema,
  MAX_PAGE_COMMENT,
  MAX_SECTION_COMMENT,
  PageFeedbackSchema,
  PageFeedbackStatsSchema,
  SectionFeedbackSchema,
  SectionFeedbackStatsSchema,
} from '@quire/shared/api/feedback';
import { clientIp } from '../../../access/policy';
import { PageQuerySchema, pagination, resolvePage } from '../../../http/pagination';
import { registerSiteCors, siteOriginKind } from '../../../http/site-cors';
import { presentedKey } from '../../../plugins/auth';
import {
  createPageFeedback,
  createSectionFeedback,
  FEEDBACK_WRITE_LIMIT,
  feedbackAuthorOf,
  feedbackPages,
  feedbackProject,
  limitFeedbackWrites,
  pageFeedbackStats,
  sectionFeedbackStats,
  type FeedbackSource,
} from '../../../services/feedback';
import type { ProjectRecord } from '../../../services/projects';
import type { AppContext } from '../../../context';

/** The public paths (the site's scripts call them cross-origin). */
const PAGE_PATH = '/projects/:projectId/feedback/page';
const SECTION_PATH = '/projects/:projectId/feedback/section';

/** The token a public request presents, or null (a malformed or doubled header counts as none: the feedback is then anonymous). */
function presentedToken(req: FastifyRequest): string | null {
  try {
    return presentedKey(req);
  } catch {
    return null;
  }
}

/**
 * Counts a public write of `req` against the per-IP feedback limit and tells who sent it from where:
 * the account of its Bearer token (or anonymous), and `preview` when its `Origin` is one of the
 * project's preview hosts (such feedback is stored but never counted), else `production`.
 * @throws ApiError rate_limited past the feedback write limit.
 */
async function writeSource(ctx: AppContext, req: FastifyRequest, project: ProjectRecord): Promise<FeedbackSource> {
  await limitFeedbackWrites(ctx, project.id, clientIp(ctx, req.raw));
  const [userId, origin] = await Promise.all([feedbackAuthorOf(ctx, project, presentedToken(req)), siteOriginKind(ctx, project.id, req.headers.origin)]);
  return { userId, deployment: origin === 'preview' ? 'preview' : 'production' };
}

/** What the stats and the aggregate count. */
const COUNTED_NOTE =
  'Counts production feedback only: feedback sent from a preview deployment (the site\'s own endpoint on a preview host, or these routes with an `Origin` of one of the project\'s preview hosts) is stored but never counted, here, in `feedback/pages` or in page and content health. ' +
  '`pagePath` is matched without leading and trailing slashes: `/guides/setup/` and `guides/setup` are the same page.';

const PUBLIC_NOTE =
  'Public: no API key needed. With `Authorization: Bearer <key>` (an API key or desktop session of the project\'s organization) the feedback is associated with that account, otherwise it is anonymous (a key that does not resolve also gives anonymous feedback). ' +
  `Writes are limited to ${FEEDBACK_WRITE_LIMIT} per minute per client IP and project (429 rate_limited with Retry-After), on top of the public limit of 1,000 requests per minute per IP. ` +
  "Browsers may call it from the project's site origins (production site, preview hosts, active custom domains): those get `Access-Control-Allow-Origin`; other origins get no CORS headers.";

const feedbackRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Feedback'];
  const security: Array<Record<string, string[]>> = [{}, { bearerAuth: [] }];
  registerSiteCors(base, [PAGE_PATH, SECTION_PATH]);

  app.post(PAGE_PATH, {
    config: { public: true },
    schema: {
      tags,
      summary: 'Send page feedback',
      description:
        `A reader's answer to "Was this page helpful?": \`pagePath\` (required; statistics ignore its leading and trailing slashes), \`helpful\` (required), \`comment\` (at most ${MAX_PAGE_COMMENT} characters; 1,001 gives 400), \`visitorId\` (the site's anonymous visitor id, at most 100 characters). ` +
        'Answers 201 `{data: record}` with `id`, the fields sent (`pagePath` exactly as sent) and `createdAt`. 404 not_found for an unknown project. ' +
        'Sent with an `Origin` of one of the project\'s preview hosts, it is stored as preview feedback, which no statistic counts. ' +
        PUBLIC_NOTE,
      security,
      params: ProjectParamsSchema,
      body: CreatePageFeedbackBodySchema,
      response: { 201: dataEnvelope(PageFeedbackSchema), ...errorResponses(400, 404, 429) },
    },
  }, async (req, reply) => {
    const project = await feedbackProject(app.ctx, req.params.projectId);
    const source = await writeSource(app.ctx, req, project);
    return reply.code(201).send({ data: await createPageFeedback(app.ctx, project.id, req.body, source) });
  });

  app.get(PAGE_PATH, {
    config: { public: true },
    schema: {
      tags,
      summary: 'Get page feedback stats',
      description: `How readers answered "Was this page helpful?" on \`pagePath\` (required): \`{helpful, notHelpful, total}\`; zeros for a page without answers. ${COUNTED_NOTE} 404 not_found for an unknown project. Public; CORS for the project's site origins.`,
      security,
      params: ProjectParamsSchema,
      querystring: FeedbackStatsQuerySchema,
      response: { 200: dataEnvelope(PageFeedbackStatsSchema), ...errorResponses(400, 404, 429) },
    },
  }, async (req) => {
    const project = await feedbackProject(app.ctx, req.params.projectId);
    return { data: await pageFeedbackStats(app.ctx, project.id, req.query.pagePath) };
  });

  app.post(SECTION_PATH, {
    config: { public: true },
    schema: {
      tags,
      summary: 'Send section feedback',
      description:
        `A reader's vote on one section of a page: \`pagePath\` (required), \`sectionId\` (required: the heading anchor, \`install\` for \`#install\`), \`vote\` (\`up\` or \`down\`, required), \`comment\` (at most ${MAX_SECTION_COMMENT} characters; 501 gives 400), \`visitorId\` (at most 100 characters). ` +
        'Answers 201 `{data: record}` with `id`, the fields sent (`pagePath` exactly as sent) and `createdAt`. 404 not_found for an unknown project. ' +
        'Sent with an `Origin` of one of the project\'s preview hosts, it is stored as preview feedback, which no statistic counts. ' +
        PUBLIC_NOTE,
      security,
      params: ProjectParamsSchema,
      body: CreateSectionFeedbackBodySchema,
      response: { 201: dataEnvelope(SectionFeedbackSchema), ...errorResponses(400, 404, 429) },
    },
  }, async (req, reply) => {
    const project = await feedbackProject(app.ctx, req.params.projectId);
    const source = await writeSource(app.ctx, req, project);
    return reply.code(201).send({ data: await createSectionFeedback(app.ctx, project.id, req.body, source) });
  });

  app.get(SECTION_PATH, {
    config: { public: true },
    schema: {
      tags,
      summary: 'Get section feedback stats',
      description: `The votes on each section of \`pagePath\` (required) that has any: \`{data: [{sectionId, upvotes, downvotes}]}\`, by section id; \`[]\` for a page without votes. ${COUNTED_NOTE} 404 not_found for an unknown project. Public; CORS for the project's site origins.`,
      security,
      params: ProjectParamsSchema,
      querystring: FeedbackStatsQuerySchema,
      response: { 200: dataEnvelope(z.array(SectionFeedbackStatsSchema)), ...errorResponses(400, 404, 429) },
    },
  }, async (req) => {
    const project = await feedbackProject(app.ctx, req.params.projectId);
    return { data: await sectionFeedbackStats(app.ctx, project.id, req.query.pagePath) };
  });

  app.get('/projects/:projectId/feedback/pages', {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'Feedback across all pages',
      description:
        'Every page with feedback: its page answers (`helpful`, `notHelpful`, `total`), its sections with votes (most votes first), its latest comments (page and sections, newest first, at most 5, each with the `userId` of the account that sent it or null) and `lastFeedbackAt` (when its newest answer or vote arrived). ' +
        'Pages are grouped without leading and trailing slashes: feedback sent for `/quickstart` and for `quickstart` is one page, listed as `quickstart`. ' +
        'Counts production feedback only: feedback given on a preview deployment is stored but not listed or counted. ' +
        '`sort`: recent (default; newest feedback first), total (most page answers first) or notHelpful. Pagination: page, pageSize (alias per_page; default 20, above 100 clamped). Needs projects:read; 404 not_found for an unknown project.',
      params: ProjectParamsSchema,
      querystring: PageQuerySchema.extend(FeedbackPagesFiltersSchema.shape),
      response: { 200: z.object({ data: z.array(FeedbackPageSummarySchema), pagination: PaginationSchema }), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const page = resolvePage(req.query);
    const { items, total } = await feedbackPages(app.ctx, req.auth, req.params.projectId, req.query, page);
    return { data: items, pagination: pagination(page, total) };
  });
};
export default feedbackRoutes;
