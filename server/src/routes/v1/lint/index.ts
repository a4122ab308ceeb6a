/**
 * The style linter of a project (interface-spec.md "Collaboration", style rules and linter;
 * decisions.md section 9): `GET/PUT /linter` (settings), `/style-rules` CRUD, `POST /lint` (the
 * findings of a page's text), `GET /lint-results` (of the published site) and `POST /lint/auto-fix` (the fixed text and its edits). Reads and
 * linting need `projects:read`; changing settings and rules `projects:write`.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses } from '@quire/shared/api/common';
import {
  AutoFixBodySchema,
  AutoFixResultSchema,
  LintBodySchema,
  LintResultsQuerySchema,
  LintResultsSchema,
  LinterSettingsBodySchema,
  LintResultSchema,
  StyleRuleBodySchema,
  StyleRuleDtoSchema,
  StyleRuleParamsSchema,
} from '@quire/shared/api/lint';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import {
  createStyleRule,
  deleteStyleRule,
  getLinterSettings,
  listStyleRules,
  projectLinter,
  putLinterSettings,
  toStyleRuleDto,
  updateStyleRule,
} from '../../../services/style-rules';
import { latestLintResults } from '../../../services/lint-results';

const lintRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Style rules and linter'];
  const prefix = '/projects/:projectId';

  app.get(`${prefix}/linter`, {
    config: { permission: 'projects:read' },
    schema: { tags, summary: 'Get the linter settings', description: 'Per rule id (markdown/…, prose/…, style/<name>, glossary/<term>): enabled and severity. Rules not listed run at their default severity.', params: ProjectParamsSchema, response: { 200: dataEnvelope(LinterSettingsBodySchema), ...errorResponses(401, 403, 404, 429) } },
  }, async (req) => ({ data: await getLinterSettings(app.ctx, req.auth, req.params.projectId) }));

  app.put(`${prefix}/linter`, {
    config: { permission: 'projects:write' },
    schema: { tags, summary: 'Replace the linter settings', description: 'Audited as linter.updated.', params: ProjectParamsSchema, body: LinterSettingsBodySchema, response: { 200: dataEnvelope(LinterSettingsBodySchema), ...errorResponses(400, 401, 403, 404, 429) } },
  }, async (req) => ({ data: await putLinterSettings(app.ctx, req.auth, req.params.projectId, req.body) }));

  app.get(`${prefix}/style-rules`, {
    config: { permission: 'projects:read' },
    schema: { tags, summary: 'List style rules', description: 'Oldest first; not paginated.', params: ProjectParamsSchema, response: { 200: z.object({ data: z.array(StyleRuleDtoSchema) }), ...errorResponses(401, 403, 404, 429) } },
  }, async (req) => ({ data: (await listStyleRules(app.ctx, req.auth, req.params.projectId)).map(toStyleRuleDto) }));

  app.post(`${prefix}/style-rules`, {
    config: { permission: 'projects:write' },
    schema: {
      tags,
      summary: 'Add a style rule',
      description: 'A rule in one of Vale\'s shapes: existence, substitution, occurrence, capitalization, repetition, sentence-length. Tokens are RE2 regular expressions matched on whole words (no backreferences or lookaround; linear time). 400 with details.field for a pattern RE2 refuses; 409 when the name is taken. Audited as style_rule.created.',
      params: ProjectParamsSchema,
      body: StyleRuleBodySchema,
      response: { 201: dataEnvelope(StyleRuleDtoSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (req, reply) => reply.code(201).send({ data: toStyleRuleDto(await createStyleRule(app.ctx, req.auth, req.params.projectId, req.body)) }));

  app.patch(`${prefix}/style-rules/:ruleId`, {
    config: { permission: 'projects:write' },
    schema: {
      tags,
      summary: 'Replace a style rule',
      description: 'Takes a whole definition (a rule\'s type decides its fields). Audited as style_rule.updated.',
      params: StyleRuleParamsSchema,
      body: StyleRuleBodySchema,
      response: { 200: dataEnvelope(StyleRuleDtoSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (req) => ({ data: toStyleRuleDto(await updateStyleRule(app.ctx, req.auth, req.params.projectId, req.params.ruleId, req.body)) }));

  app.delete(`${prefix}/style-rules/:ruleId`, {
    config: { permission: 'projects:write' },
    schema: { tags, summary: 'Delete a style rule', description: 'Audited as style_rule.deleted.', params: StyleRuleParamsSchema, response: { 204: z.null().describe('Deleted'), ...errorResponses(401, 403, 404, 429) } },
  }, async (req, reply) => {
    await deleteStyleRule(app.ctx, req.auth, req.params.projectId, req.params.ruleId);
    return reply.code(204).send(null);
  });

  app.post(`${prefix}/lint`, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'Lint a page',
      description: 'The findings of the project\'s linter (settings, style rules, glossary, built-in structure and prose rules) on the given text; `.md` paths are linted as Markdown, others as MDX. A page that does not parse gives one mdx/syntax finding; `{{name}}` is replaced by the published site\'s docs.json variables first, as its build did. Once the project has a production deployment, links/broken, images/missing and components/unknown check the page against the published site (its pages, files and redirects; `path` is the page file relative to the docs root); before that they find nothing. The configuration file (`path` docs.json or mint.json) gets only navigation/missing-page: navigation entries naming no page of the published site, with their JSON path. Lines and columns are 1-based; fix ranges are UTF-16 offsets into the text.',
      params: ProjectParamsSchema,
      body: LintBodySchema,
      response: { 200: dataEnvelope(LintResultSchema), ...errorResponses(400, 401, 403, 404, 413, 429) },
    },
  }, async (req) => {
    const linter = await projectLinter(app.ctx, req.auth, req.params.projectId, { withInventory: true });
    return { data: { path: req.body.path, findings: await linter.lint(req.body.text, req.body.path) } };
  });

  app.get(`${prefix}/lint-results`, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'Lint results of the published site',
      description: 'The findings of the newest deployed production build\'s lint step, page by page (pages without findings left out), with counts per rule; `path` keeps one page, `rule` one rule. 404 until a production build deployed.',
      params: ProjectParamsSchema,
      querystring: LintResultsQuerySchema,
      response: { 200: dataEnvelope(LintResultsSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await latestLintResults(app.ctx, req.auth, req.params.projectId, req.query) }));

  app.post(`${prefix}/lint/auto-fix`, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'Fix a page',
      description: 'Applies the fixes of the findings of `rules` (default: every fixable finding) and answers the fixed text and the edits, pass by pass (ranges in the text each pass was applied to). Nothing is stored.',
      params: ProjectParamsSchema,
      body: AutoFixBodySchema,
      response: { 200: dataEnvelope(AutoFixResultSchema), ...errorResponses(400, 401, 403, 404, 413, 429) },
    },
  }, async (req) => {
    const linter = await projectLinter(app.ctx, req.auth, req.params.projectId, { withInventory: true });
    const fixed = await linter.autoFix(req.body.text, req.body.path, req.body.rules);
    return { data: { path: req.body.path, ...fixed } };
  });
};
export default lintRoutes;
