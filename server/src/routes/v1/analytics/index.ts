/**
 * Analytics of a project (interface-spec.md "Analytics", "Content health"; decisions.md section 7;
 * every read needs `projects:read`, decisions.md section 2). Views are recorded by the server as it
 * serves the site (analytics/buffer.ts): no tracker, no cookie.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses, PaginationSchema } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import {
  AgentTrafficSchema, ChatAnalyticsSchema, ContentHealthSchema, MAX_VIEW_BUCKETS, PageHealthFiltersSchema, PageHealthSchema, RankedQuerySchema,
  SearchAnalyticsSchema, STALE_PAGE_DAYS, TopPageSchema, ViewsQuerySchema, ViewsSchema,
} from '@quire/shared/api/analytics';
import { PageQuerySchema, pagination, resolvePage } from '../../../http/pagination';
import { contentHealth, listPageHealth } from '../../../analytics/health';
import { agentTraffic, chatAnalytics, searchAnalytics, topPages, viewsOverTime } from '../../../analytics/reads';

const RANGE = 'Range: `from` (inclusive) and `to` (a date includes that whole UTC day), each a date YYYY-MM-DD or an ISO 8601 date-time; default the 30 days up to now; 400 invalid_request naming the field for a bad date or `from` after `to`.';
const SCORE_RULE =
  `Score per page (0-100) = freshness (30: updated within ${STALE_PAGE_DAYS} days; linearly less to 0 at 365 days; 15 when unknown) + feedback (20 × share of "helpful" answers; 20 without answers) + broken links (25 with none in the newest production lint report, 15 with one, 5 with two, 0 with more) + completeness (25: title 5, description 5, at least 50 words 10, a heading on pages over 300 words 5).`;

const analyticsRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Analytics'];
  const prefix = '/projects/:projectId/analytics';
  const read = { permission: 'projects:read' as const };

  app.get(`${prefix}/content-health`, {
    config: read,
    schema: {
      tags,
      summary: 'Get content health',
      description:
        `The health of the published site (newest production deployment). \`score\`: the average of the per-page scores (see GET .../analytics/health), 0 before the first production deploy. ${SCORE_RULE} ` +
        `\`stalePages\`: pages whose last update (frontmatter \`lastUpdated\`, else the last commit changing the page) is more than ${STALE_PAGE_DAYS} days ago, oldest first. ` +
        '`gaps`: searches and assistant questions that found no good answer, by normalised topic and source (`search`, `ai_chat`), most frequent first, at most 50. ' +
        '`coveragePercent`: public operations of the repository\'s OpenAPI files (not `x-hidden`, `x-excluded` or `x-internal`) that have a page (generated from the navigation, or an MDX page whose frontmatter `openapi:` names it); 100 when the repository has no OpenAPI operation (nothing is undocumented).',
      params: ProjectParamsSchema,
      response: { 200: dataEnvelope(ContentHealthSchema), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await contentHealth(app.ctx, req.auth, req.params.projectId) }));

  app.get(`${prefix}/health`, {
    config: read,
    schema: {
      tags,
      summary: 'List per-page health',
      description:
        `Every page of the newest production deployment with its health score and what each component adds. ${SCORE_RULE} ` +
        '`owner` is the page\'s owner by the ownership rules (null when none matches). Sorted worst first (`sort=score`, ties by path), or `-score`, or `path`. Pagination: page, pageSize (alias per_page; default 20, above 100 clamped). Empty before the first production deploy.',
      params: ProjectParamsSchema,
      querystring: PageQuerySchema.extend(PageHealthFiltersSchema.shape),
      response: { 200: z.object({ data: z.array(PageHealthSchema), pagination: PaginationSchema }), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const page = resolvePage(req.query);
    const { items, total } = await listPageHealth(app.ctx, req.auth, req.params.projectId, req.query.sort, page);
    return { data: items, pagination: pagination(page, total) };
  });

  app.get(`${prefix}/views`, {
    config: read,
    schema: {
      tags,
      summary: 'Get page views over time',
      description:
        `Page views per bucket (\`interval\`: hour, day (default), week from Monday, month; UTC), split into people and AI agents (known AI and crawler user agents, \`.md\` and \`llms*.txt\` fetches, MCP calls), with unique people per day (counted by a hash of address and user agent salted per day: no cookie; null for hour buckets). ${RANGE} At most ${MAX_VIEW_BUCKETS} buckets (400 naming \`interval\` otherwise). Views of the last seconds may not be counted yet (they are written in batches every 2 s).`,
      params: ProjectParamsSchema,
      querystring: ViewsQuerySchema,
      response: { 200: dataEnvelope(ViewsSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await viewsOverTime(app.ctx, req.auth, req.params.projectId, req.query) }));

  app.get(`${prefix}/top-pages`, {
    config: read,
    schema: {
      tags,
      summary: 'List the most viewed pages',
      description: `The most viewed paths, people and agents together, most first. ${RANGE} \`limit\` 1-100 (default 10).`,
      params: ProjectParamsSchema,
      querystring: RankedQuerySchema,
      response: { 200: dataEnvelope(z.array(TopPageSchema)), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await topPages(app.ctx, req.auth, req.params.projectId, req.query) }));

  app.get(`${prefix}/searches`, {
    config: read,
    schema: {
      tags,
      summary: 'List top searches and searches without results',
      description: `Searches of the site's search dialog, the API and the site's MCP server, by normalised query and UTC day. \`top\`: most searched first; \`withoutResults\`: queries that found nothing, most such searches first. ${RANGE} \`limit\` 1-100 (default 10) per list.`,
      params: ProjectParamsSchema,
      querystring: RankedQuerySchema,
      response: { 200: dataEnvelope(SearchAnalyticsSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await searchAnalytics(app.ctx, req.auth, req.params.projectId, req.query) }));

  app.get(`${prefix}/agents`, {
    config: read,
    schema: {
      tags,
      summary: 'List AI agent traffic',
      description: `Views by AI agents and crawlers per agent, most first, with each agent's five most read paths. ${RANGE} \`limit\` 1-100 agents (default 10).`,
      params: ProjectParamsSchema,
      querystring: RankedQuerySchema,
      response: { 200: dataEnvelope(z.array(AgentTrafficSchema)), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await agentTraffic(app.ctx, req.auth, req.params.projectId, req.query) }));

  app.get(`${prefix}/chat`, {
    config: read,
    schema: {
      tags,
      summary: 'Get assistant question statistics',
      description: `Questions asked to the site's assistant: the count, per UTC day, and the most asked (normalised: lower case, spaces collapsed). ${RANGE} \`limit\` 1-100 questions (default 10).`,
      params: ProjectParamsSchema,
      querystring: RankedQuerySchema,
      response: { 200: dataEnvelope(ChatAnalyticsSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await chatAnalytics(app.ctx, req.auth, req.params.projectId, req.query) }));
};
export default analyticsRoutes;
