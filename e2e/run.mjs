#!/usr/bin/env node
// Runs the Playwright e2e specs in Debian's Chromium. Playwright's own browser download cannot work
// offline, so the specs use the system browser. Without one: skipped with a clear message, except in CI.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const chromium = process.env.QUIRE_E2E_CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  const msg = `e2e: Chromium not found at ${chromium} (install it with: sudo apt-get install chromium, or set QUIRE_E2E_CHROMIUM).`;
  if (process.env.CI) {
    console.error(`${msg} CI must run the e2e specs.`);
    process.exit(1);
  }
  console.log(`${msg} Skipping the e2e specs.`);
  process.exit(0);
}
const cli = fileURLToPath(import.meta.resolve('@playwright/test/cli'));
const result = spawnSync(process.execPath, [cli, 'test', '-c', path.join(here, 'playwright.config.ts'), ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', QUIRE_E2E_CHROMIUM: chromium },
});
process.exit(result.status ?? 1);
