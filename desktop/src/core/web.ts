/**
 * `pnpm desktop:web`: Quire Desktop without Electron. Builds the renderer when needed, opens the
 * core on `QUIRE_DESKTOP_DATA_DIR` (the token in a 0600 file there), serves the renderer and the
 * core router on `QUIRE_DESKTOP_PORT`, starts the background sync (outbox push, review pull), and prints one line `Quire Desktop: <url>` when ready.
 */
import { createCore } from './core';
import { startSync } from './sync-client';
import { loadWebConfig } from './env';
import { fileTokenVault } from './token-vault';
import { createWebServer, ensureRendererBuilt } from './web-server';

const config = loadWebConfig();
await ensureRendererBuilt();
const core = createCore({ dataDir: config.dataDir, vault: fileTokenVault(config.dataDir) });
startSync(core);
const server = createWebServer(core);
server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`Quire Desktop: http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}/`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    void core.close().finally(() => process.exit(0));
  });
}
