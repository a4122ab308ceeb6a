/**
 * Starts the e2e server with its three built sites and keeps it up until Ctrl-C, so specs can be
 * iterated on quickly: `node --import tsx e2e/serve.ts` in one terminal, then
 * `QUIRE_E2E_REUSE_SERVER=1 pnpm e2e specs/x.spec.ts` in another.
 */
import globalSetup from './global-setup';
import { siteUrl } from './fixtures/sites';

const stop = await globalSetup();
console.log(`e2e sites ready: ${['demo', 'pezzo', 'agentops', 'versions'].map((s) => siteUrl(s)).join(' ')} (Ctrl-C stops)`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void stop().then(() => process.exit(0));
  });
}
