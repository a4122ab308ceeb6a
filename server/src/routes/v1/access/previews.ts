/**
 * `/v1/projects/{projectId}/previews` (interface-spec.md "Collaboration", Preview links: "GET, POST
 * /previews (optionally password-protected or expiring); PATCH /previews/{previewId} (update or
 * revoke)"; decisions.md section 9). Reads need `projects:read`, writes `projects:write`
 * (decisions.md section 2). The link's token is shown once (`config.oneTimeSecret`). Beside them,
 * `/v1/projects/{projectId}/preview-passes` gives members a pass to a closed preview
 * (services/preview-passes.ts; `projects:read`).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses, PaginationSchema } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import {
  CreatedPreviewLinkSchema,
  PreviewLinkBodySchema,
  PreviewLinkFiltersSchema,
  PreviewLinkParamsSchema,
  PreviewLinkPatchSchema,
  PreviewLinkSchema,
  PreviewPassBodySchema,
  PreviewPassSchema,
  MEMBER_PREVIEW_COOKIE_SECONDS,
  PREVIEW_PASS_SECONDS,
} from '@quire/shared/api/access';
import { PageQuerySchema, pagination, resolvePage } from '../../../http/pagination';
import { ONE_TIME_SECRET_NOTICE } from '../../../services/idempotency';
import { createPreviewLink, listPreviewLinks, updatePreviewLink } from '../../../services/preview-links';
import { createPreviewPass } from '../../../services/preview-passes';
import { PREVIEW_PASSWORD_LIMITS } from '../../../access/preview-links';

const previewRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Preview links'];
  const prefix = '/projects/:projectId/previews';

  app.post(prefix, {
    config: { permission: 'projects:write', oneTimeSecret: 'url' },
    schema: {
      tags,
      summary: 'Create a preview link',
      description:
        'Body {previewName, label?, password?, expiresAt? | expiresIn? (1h, 1d, 7d, 30d)}: a link to the preview channel `previewName` (404 naming previewName when the project has no preview deployment by that name). ' +
        '`url` is `<preview site>/_quire/link/<token>`, shown only in this response (only the token\'s SHA-256 is kept; with Idempotency-Key a replay carries the notice "' +
        ONE_TIME_SECRET_NOTICE +
        '" instead). A password (8–200 characters) is asked for before the preview opens; it is stored hashed. ' +
        `Wrong passwords are limited to ${PREVIEW_PASSWORD_LIMITS.per.link} per link and ${PREVIEW_PASSWORD_LIMITS.per.ip} per client IP (over all links) ` +
        `in ${PREVIEW_PASSWORD_LIMITS.windowMs / 60_000} minutes; ` +
        'past that the link answers 429 with `Retry-After` (a page saying how long to wait) without checking the password, until the window ends. ' +
        'Without an expiry the link works until revoked. From its creation the preview opens only through a preview link or a member pass, ' +
        'whatever `settings.protectPreviews`. Audited as preview_link.created.',
      params: ProjectParamsSchema,
      body: PreviewLinkBodySchema,
      response: { 201: dataEnvelope(CreatedPreviewLinkSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req, reply) => reply.code(201).send({ data: await createPreviewLink(app.ctx, req.auth, req.params.projectId, req.body) }));

  app.get(prefix, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'List preview links',
      description: 'Newest first, never with their token. Filters: previewName; state (active, expired, revoked). Pagination: page, pageSize (alias per_page; default 20, above 100 clamped).',
      params: ProjectParamsSchema,
      querystring: PageQuerySchema.extend(PreviewLinkFiltersSchema.shape),
      response: { 200: z.object({ data: z.array(PreviewLinkSchema), pagination: PaginationSchema }), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => {
    const page = resolvePage(req.query);
    const { items, total } = await listPreviewLinks(app.ctx, req.auth, req.params.projectId, req.query, page);
    return { data: items, pagination: pagination(page, total) };
  });

  app.patch(`${prefix}/:previewId`, {
    config: { permission: 'projects:write' },
    schema: {
      tags,
      summary: 'Update or revoke a preview link',
      description:
        'Body {label?, expiresAt? | expiresIn?, password?} changes those (null removes the label, the expiry or the password), or {revoked: true} revokes the link for good (its URL stops opening the preview at once). ' +
        'A revoked link changes no more (409). Audited as preview_link.updated or preview_link.revoked.',
      params: PreviewLinkParamsSchema,
      body: PreviewLinkPatchSchema,
      response: { 200: dataEnvelope(PreviewLinkSchema), ...errorResponses(400, 401, 403, 404, 409, 429) },
    },
  }, async (req) => ({ data: await updatePreviewLink(app.ctx, req.auth, req.params.projectId, req.params.previewId, req.body) }));

  app.post('/projects/:projectId/preview-passes', {
    config: { permission: 'projects:read', oneTimeSecret: 'url' },
    schema: {
      tags,
      summary: 'Open a preview as a member',
      description:
        'Body {url}: a preview site URL of the project (a preview build\'s `url`, a review\'s `previewUrl`, or a page under one; 400 naming url otherwise). ' +
        'Answers a member pass: `url` is `<preview site>/_quire/pass/<pass>`, which opens that preview in a browser ' +
        `for ${MEMBER_PREVIEW_COOKIE_SECONDS / 3600} hours ` +
        '(an HttpOnly cookie on the preview host) and lands on the page asked for. ' +
        `The pass works for ${PREVIEW_PASS_SECONDS / 60} minutes; it is signed, not stored, and not audited. ` +
        'Closed previews (`settings.protectPreviews`, or a preview with a preview link) open only this way or through a preview link.',
      params: ProjectParamsSchema,
      body: PreviewPassBodySchema,
      response: { 201: dataEnvelope(PreviewPassSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req, reply) => reply.code(201).send({ data: await createPreviewPass(app.ctx, req.auth, req.params.projectId, req.body) }));
};
export default previewRoutes;
