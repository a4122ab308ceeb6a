/**
 * Outgoing webhooks (decisions.md section 8): a project's endpoints (`/v1/projects/{projectId}/webhooks`,
 * endpoints.ts) and the event history API (`/v1/webhooks/history`, `/event/{id}`, `/calls/{id}`,
 * `/event/send/{id}`; interface-spec.md "Webhook event history API", history.ts). The receivers of
 * git provider webhooks (`/v1/webhooks/github`, `/github-app`) live in ../git-webhooks.
 */
import type { FastifyPluginAsync } from 'fastify';
import endpointRoutes from './endpoints';
import historyRoutes from './history';

const webhookRoutes: FastifyPluginAsync = async (app) => {
  await app.register(endpointRoutes);
  await app.register(historyRoutes);
};
export default webhookRoutes;
