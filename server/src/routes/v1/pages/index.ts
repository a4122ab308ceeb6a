/**
 * Pages and Content (interface-spec.md lists the section and leaves its endpoints open;
 * services/pages.ts): the deployed inventory of a version and one page's content. Reads:
 * `projects:read` (decisions.md section 2: GET routes of a project).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses, PaginationSchema } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import { PageDetailSchema, PageParamsSchema, PagesVersionQuerySchema, PageSummarySchema } from '@quire/shared/api/pages';
import { PageQuerySchema, pagination, resolvePage } from '../../../http/pagination';
import { API_TOKEN_HEADER } from '../../../search/api-reader';
import { getPage, listPages } from '../../../services/pages';

/** Who sees which pages, written into both operations. */
const READER =
  'An API key sees every deployed page, gated and hidden ones included (`audience`, `hidden` say which). Send an audience token in the `x-audience-token` header to read as that token\'s reader: gated pages appear only when the token\'s profile opens one of their tags (a token that does not verify opens none).';

const pagesRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Pages'];

  app.get('/projects/:projectId/pages', {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'List deployed pages',
      description:
        'The deployed page inventory of one documentation version, by path: `version` absent (or the default version\'s label) is the production site, another label that version\'s live deployment; a label that is not a version gives 404 not_found. ' +
        'Each page: path, title, version, audience, hidden, owner (ownership rules), lastUpdated (frontmatter `lastUpdated`, else null), contentHash (SHA-256 of its deployed Markdown). ' +
        `Paginated with \`page\` and \`pageSize\` (alias \`per_page\`; default 20, max 100). Before the first deploy the list is empty. ${READER}`,
      params: ProjectParamsSchema,
      querystring: PageQuerySchema.extend(PagesVersionQuerySchema.shape),
      response: { 200: z.object({ data: z.array(PageSummarySchema), pagination: PaginationSchema }), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const page = resolvePage(req.query);
    const { items, total } = await listPages(app.ctx, req.auth, req.params.projectId, req.query.version, req.headers[API_TOKEN_HEADER], page);
    return { data: items, pagination: pagination(page, total) };
  });

  app.get('/projects/:projectId/pages/*', {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'Get a page',
      description:
        'One deployed page by its path (slashes included: `/pages/guides/setup`): the inventory fields plus `frontmatter` (of its source file at the deployed commit), `markdown` (what the site serves at `<page>.md`) and `headings` (depth, id, text of the rendered page, in order). ' +
        `\`version\` as for the list. 404 not_found when the version has no such page or the caller may not read it. ${READER}`,
      params: PageParamsSchema,
      querystring: PagesVersionQuerySchema,
      response: { 200: dataEnvelope(PageDetailSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await getPage(app.ctx, req.auth, req.params.projectId, req.params['*'], req.query.version, req.headers[API_TOKEN_HEADER]) }));
};
export default pagesRoutes;
