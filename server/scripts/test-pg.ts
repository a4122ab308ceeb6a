// `pnpm test:pg`: the API test suite again, each test app on its own PostgreSQL database
// (QUIRE_TEST_DB=postgres, see server/test/helpers/app.ts). Without a reachable PostgreSQL it skips
// with a message, except on CI (`CI` set), where it fails (the rule of server/test/helpers/services.ts).
import { spawnSync } from 'node:child_process';
import { requirePostgres } from '../test/helpers/services';

/**
 * The test folders that run on PostgreSQL: every one that builds apps through createTestApp.
 * (server/test/db and server/test/platform/cluster.test.ts create their own PostgreSQL databases
 * and already run in the default `vitest run`.)
 */
const FOLDERS = ['server/test/routes', 'server/test/plugins', 'server/test/services', 'server/test/jobs', 'server/test/trpc', 'server/test/git/git-credential-routes.test.ts', 'server/test/platform/restart.test.ts', 'server/test/analytics', 'server/test/db/analytics-rows.test.ts', 'server/test/chat/chat-api.test.ts', 'server/test/chat/chat-site.test.ts', 'server/test/mcp'];

if (!(await requirePostgres())) process.exit(0);
const result = spawnSync('npx', ['vitest', 'run', ...FOLDERS, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, QUIRE_TEST_DB: 'postgres' },
});
process.exit(result.status ?? 1);
