import fp from 'fastify-plugin';

// Placeholder: the in-process build runner (issue 3) starts here when `enabled`.
export default fp<{ enabled: boolean }>(async () => {}, { name: 'jobs' });
