import type { FastifyPluginAsync } from 'fastify';

/** Mounts every /v1 section. Each section is a folder with an index.ts plugin. */
const v1Routes: FastifyPluginAsync = async (app) => {
  // sections register here, e.g. await app.register(projectsRoutes);
  void app;
};
export default v1Routes;
