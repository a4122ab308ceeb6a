import { defineConfig } from '@playwright/test';

/**
 * e2e: a real Quire server (started by global-setup.ts on port E2E_PORT with a temp data dir) builds the
 * pezzo and agentops corpora and the demo docs through the REST API; specs open the sites by host name.
 * Artifacts: e2e/artifacts/{server.log, builds/<slug>.log, screenshots/, results/}. For quick iterations keep
 * a server up with `node --import tsx e2e/serve.ts` and run `QUIRE_E2E_REUSE_SERVER=1 pnpm e2e specs/x.spec.ts`.
 */
export const E2E_PORT = Number(process.env.QUIRE_E2E_PORT ?? 4390);

export default defineConfig({
  testDir: './specs',
  outputDir: './artifacts/results',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  globalSetup: './global-setup.ts',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.QUIRE_E2E_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    // Every spec in Debian's Chromium (desktop specs against `desktop:web`).
    { name: 'chromium', testIgnore: ['electron/**'] },
    // Quire Desktop's Electron shell through Playwright's `_electron` launcher: skipped, saying why,
    // on machines without an Electron binary (desktop/scripts/electron-binary.mjs).
    { name: 'electron', testDir: './specs/electron' },
  ],
});
