import fp from 'fastify-plugin';

// Placeholder: filled in by the issue work that owns this plugin.
export default fp(async () => {}, { name: 'index' });
