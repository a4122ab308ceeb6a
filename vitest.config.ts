import { defineConfig } from 'vitest/config';

// Unit and API tests of shared/, server/, desktop/ and cli/. e2e/ runs under Playwright (pnpm e2e).
export default defineConfig({
  test: {
    include: ['shared/src/**/*.test.ts', 'shared/test/**/*.test.ts', 'server/test/**/*.test.ts', 'desktop/test/**/*.test.ts', 'cli/test/**/*.test.ts'],
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
