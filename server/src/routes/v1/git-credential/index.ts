/**
 * A project's git credential (decisions.md section 9): the write-only HTTPS token or SSH deploy key
 * that merges of reviews push with, stored encrypted. `PUT` sets it, `GET` tells whether one is set
 * (never the secret), `DELETE` removes it. Being a secret, every route needs the `admin` permission.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses } from '@quire/shared/api/common';
import { GitCredentialBodySchema, GitCredentialStatusSchema } from '@quire/shared/api/git-credential';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import { deleteGitCredential, getGitCredentialStatus, putGitCredential } from '../../../services/git-credentials';

const gitCredentialRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['Git credential'];
  const path = '/projects/:projectId/git-credential';

  app.get(path, {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'Show whether a git credential is set',
      description: 'The kind, HTTPS user name and last update of the project\'s git credential, or `{set: false}`. The token or key is never returned.',
      params: ProjectParamsSchema,
      response: { 200: dataEnvelope(GitCredentialStatusSchema), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await getGitCredentialStatus(app.ctx, req.auth, req.params.projectId) }));

  app.put(path, {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'Set the git credential',
      description:
        'Sets or replaces the credential merges push with: `{kind: "https_token", token, username?}` (sent as HTTP Basic; user name default x-access-token) or `{kind: "ssh_key", privateKey}` (an unencrypted OpenSSH or PEM deploy key). Stored encrypted; write-only: no response returns it. Local file:// repositories need none. Audited as git_credential.updated (without the secret).',
      params: ProjectParamsSchema,
      body: GitCredentialBodySchema,
      response: { 200: dataEnvelope(GitCredentialStatusSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req) => ({ data: await putGitCredential(app.ctx, req.auth, req.params.projectId, req.body) }));

  app.delete(path, {
    config: { permission: 'admin' },
    schema: {
      tags,
      summary: 'Remove the git credential',
      description: 'Merges then push without credentials (which works only for repositories that need none). 404 when none is set. Audited as git_credential.deleted.',
      params: ProjectParamsSchema,
      response: { 204: z.null().describe('Removed'), ...errorResponses(401, 403, 404, 429) },
    },
  }, async (req, reply) => {
    await deleteGitCredential(app.ctx, req.auth, req.params.projectId);
    return reply.code(204).send(null);
  });
};
export default gitCredentialRoutes;
