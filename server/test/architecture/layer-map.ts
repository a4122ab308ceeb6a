/**
 * The layers of `server/src`, bottom first (server/README.md, "Layers"). A unit is a top-level
 * folder, or a top-level file without `.ts`.
 */
export const LAYERS: { name: string; units: string[] }[] = [
  { name: 'infrastructure', units: ['db', 'queue', 'events', 'net', 'redis', 'env', 'data-paths'] },
  { name: 'engine', units: ['git', 'builder', 'deployments', 'storage'] },
  { name: 'application', units: ['services', 'jobs', 'access', 'analytics', 'chat', 'search', 'versions', 'ops'] },
  { name: 'interface', units: ['routes', 'trpc', 'plugins', 'http', 'sites', 'mcp'] },
  { name: 'composition', units: ['context', 'app', 'server', 'run-server', 'cli'] },
];
