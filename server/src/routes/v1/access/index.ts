/**
 * Access control and preview links under /v1/projects/{projectId} (interface-spec.md
 * "Collaboration": Access control and Preview links rows): `/access-rules`, `/ip-allowlists`,
 * `/access-check`, `/access-logs` (all `admin`, decisions.md section 2) and `/previews` (reads
 * `projects:read`, writes `projects:write`). Closing the app writes the buffered denials of the
 * access log (access/denial-log.ts) before the database closes: this plugin's close hook runs
 * before the app's own.
 */
import type { FastifyPluginAsync } from 'fastify';
import accessRulesRoutes from './access-rules';
import ipAllowlistRoutes from './ip-allowlists';
import accessCheckRoutes from './access-check';
import accessLogRoutes from './access-logs';
import previewRoutes from './previews';

const accessRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onClose', async () => {
    await app.ctx.access.close();
  });
  await app.register(accessRulesRoutes);
  await app.register(ipAllowlistRoutes);
  await app.register(accessCheckRoutes);
  await app.register(accessLogRoutes);
  await app.register(previewRoutes);
};
export default accessRoutes;
