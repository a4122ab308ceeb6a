/**
 * Audience profiles and their tokens (interface-spec.md "Endpoints > Audience profiles"; permissions
 * per decisions.md section 2: reads `projects:read`, writes and tokens `projects:write`).
 *
 * Envelopes, read literally from the spec's Conventions ("the audience profile endpoints (create,
 * update, delete) and token generation return their object or confirmation directly, without
 * `data`"): POST and PATCH answer the profile itself, DELETE `{deleted: true, id}`, token generation
 * the token result; the reads, which the exception does not name, keep the general `{data: ...}`
 * (the list unpaginated: spec "Limits"). Errors always use the error envelope.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import {
  AudienceProfileParamsSchema,
  AudienceProfileSchema,
  AudienceTokenResultSchema,
  CreateAudienceProfileBodySchema,
  CreateAudienceTokenBodySchema,
  DeletedAudienceProfileSchema,
  UpdateAudienceProfileBodySchema,
} from '@quire/shared/api/audiences';
import {
  createAudienceProfile,
  createAudienceToken,
  deleteAudienceProfile,
  getAudienceProfile,
  listAudienceProfiles,
  updateAudienceProfile,
} from '../../../services/audiences';

/** Why the writes answer without `data`, written into the OpenAPI document. */
const NO_ENVELOPE = 'As the spec\'s Conventions say for this endpoint, the answer is not wrapped in `data`.';

const audienceRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Audiences'];
  const collection = '/projects/:projectId/audiences';
  const item = '/projects/:projectId/audiences/:profileId';

  app.get(collection, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'List audience profiles',
      description:
        'Every audience profile of the project, oldest first, as `{data: [profile]}`. Not paginated (spec "Limits": audiences return all items); the spec leaves the shape open and this keeps the general list envelope without `pagination`.',
      params: ProjectParamsSchema,
      response: { 200: z.object({ data: z.array(AudienceProfileSchema) }), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await listAudienceProfiles(app.ctx, req.auth, req.params.projectId) }));

  app.post(collection, {
    config: { permission: 'projects:write' },
    schema: {
      tags,
      summary: 'Create an audience profile',
      description: `A named set of audience tags that the profile's tokens open (pages whose frontmatter \`audience\` names one of them). Answers 201 with the profile. ${NO_ENVELOPE} Errors: 400 invalid_slug (characters other than lowercase letters, numbers, hyphens; empty; over 100 characters), 422 empty_audiences (audiences missing, null or empty), 409 slug_exists (slug already used in the project), 400 invalid_request for other bad fields (tags are trimmed, 1-100 characters, at most 50; name up to 200, description up to 1,000 characters). Audited as audience.created.`,
      params: ProjectParamsSchema,
      body: CreateAudienceProfileBodySchema,
      response: { 201: AudienceProfileSchema.describe('The new profile (no `data` envelope)'), ...errorResponses(400, 401, 403, 404, 409, 422, 429) },
    },
  }, async (req, reply) => reply.code(201).send(await createAudienceProfile(app.ctx, req.auth, req.params.projectId, req.body)));

  app.get(item, {
    config: { permission: 'projects:read' },
    schema: {
      tags,
      summary: 'Get an audience profile',
      description: 'The profile as `{data: profile}` (the spec\'s envelope exception names only create, update, delete and token generation). 404 profile_not_found when the project has no such profile.',
      params: AudienceProfileParamsSchema,
      response: { 200: dataEnvelope(AudienceProfileSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await getAudienceProfile(app.ctx, req.auth, req.params.projectId, req.params.profileId) }));

  app.patch(item, {
    config: { permission: 'projects:write' },
    schema: {
      tags,
      summary: 'Update an audience profile',
      description: `Only given fields change: \`name\`, \`description\` (null clears), \`audiences\` (replaces every tag; missing it keeps them, null or [] answers 422 empty_audiences). Every token of the profile opens the new tags from now on. The slug is immutable: a \`slug\` other than the current one answers 422 slug_immutable (the current value is accepted and changes nothing). Answers the updated profile. ${NO_ENVELOPE} 404 profile_not_found. Audited as audience.updated (changed fields, from/to); a request that changes nothing is not audited.`,
      params: AudienceProfileParamsSchema,
      body: UpdateAudienceProfileBodySchema,
      response: { 200: AudienceProfileSchema.describe('The updated profile (no `data` envelope)'), ...errorResponses(400, 401, 403, 404, 422, 429) },
    },
  }, async (req) => updateAudienceProfile(app.ctx, req.auth, req.params.projectId, req.params.profileId, req.body));

  app.delete(item, {
    config: { permission: 'projects:write' },
    schema: {
      tags,
      summary: 'Delete an audience profile',
      description: `Deletes the profile; every token issued for it stops working at once. Answers 200 \`{deleted: true, id}\`. ${NO_ENVELOPE} 404 profile_not_found. Audited as audience.deleted.`,
      params: AudienceProfileParamsSchema,
      response: { 200: DeletedAudienceProfileSchema, ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => deleteAudienceProfile(app.ctx, req.auth, req.params.projectId, req.params.profileId));

  app.post(`${item}/token`, {
    config: { permission: 'projects:write', oneTimeSecret: 'token' },
    schema: {
      tags,
      summary: 'Generate an audience access token',
      description: `Issues a token for the profile: \`expiresIn\` \`30d\` (default), \`90d\`, \`1y\` (365 days) or \`never\`; optional \`label\` (up to 200 characters). Answers 201 \`{token, magicLink, expiresAt, audiences, label}\`. ${NO_ENVELOPE} The token is signed with the project's own key (HMAC-SHA256) and is shown only in this answer; \`magicLink\` is the production site (the active custom domain when there is one) with \`?_quire_token=<token>\`. Visitors send it through the magic link (sets a 30-day cookie), the gate form, or the \`x-audience-token\` header. Access follows the profile's tags at each request; deleting the profile ends the token at once. 404 profile_not_found. Audited as audience.token_created (never the token).`,
      params: AudienceProfileParamsSchema,
      body: CreateAudienceTokenBodySchema.nullish(),
      response: { 201: AudienceTokenResultSchema.describe('The token, shown once (no `data` envelope)'), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req, reply) =>
    reply.code(201).send(
      await createAudienceToken(app.ctx, req.auth, req.params.projectId, req.params.profileId, req.body ?? CreateAudienceTokenBodySchema.parse({})),
    ),
  );
};
export default audienceRoutes;
