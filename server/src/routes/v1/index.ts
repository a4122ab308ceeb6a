import type { FastifyPluginAsync } from 'fastify';
import projectsRoutes from './projects/index';
import apiKeysRoutes from './api-keys/index';
import auditLogRoutes from './audit-log/index';
import buildsRoutes from './builds/index';
import usageRoutes from './usage/index';
import lintRoutes from './lint/index';
import glossaryRoutes from './glossary/index';
import approvalsRoutes from './approvals/index';
import schedulesRoutes from './schedules/index';
import reviewsRoutes from './reviews/index';
import ownershipRoutes from './ownership/index';
import gitCredentialRoutes from './git-credential/index';
import gitWebhookRoutes from './git-webhooks/index';
import webhookRoutes from './webhooks/index';

/** Mounts every /v1 section. Each section is a folder with an index.ts plugin. */
const v1Routes: FastifyPluginAsync = async (app) => {
  await app.register(projectsRoutes);
  await app.register(apiKeysRoutes);
  await app.register(auditLogRoutes);
  await app.register(buildsRoutes);
  await app.register(usageRoutes);
  await app.register(lintRoutes);
  await app.register(glossaryRoutes);
  await app.register(approvalsRoutes);
  await app.register(schedulesRoutes);
  await app.register(reviewsRoutes);
  await app.register(ownershipRoutes);
  await app.register(gitCredentialRoutes);
  await app.register(gitWebhookRoutes);
  await app.register(webhookRoutes);
};
export default v1Routes;
