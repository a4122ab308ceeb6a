import type { FastifyPluginAsync } from 'fastify';

/** Placeholder: replaced by the section's routes. */
const routes: FastifyPluginAsync = async () => {};
export default routes;
