/**
 * The layers of `server/src`, bottom first (server/README.md, "Layers"). A unit is a top-level
 * folder, a top-level file without `.ts`, or one module (`deployments/deploy`) of a folder that
 * spans two layers: `deployments/` holds the deployment vocabulary the builder writes and sites
 * read (engine), and the two steps that run a deploy against the database and queue (application).
 */
export const LAYERS: { name: string; units: string[] }[] = [
  { name: 'infrastructure', units: ['db', 'queue', 'events', 'net', 'redis', 'env', 'data-paths'] },
  { name: 'engine', units: ['git', 'builder', 'deployments', 'storage'] },
  { name: 'application', units: ['services', 'jobs', 'builds', 'deployments/deploy', 'deployments/after-deploy', 'access', 'analytics', 'chat', 'search', 'versions', 'ops'] },
  { name: 'interface', units: ['routes', 'trpc', 'plugins', 'http', 'sites', 'mcp'] },
  { name: 'composition', units: ['context', 'app', 'server', 'run-server', 'cli'] },
];
