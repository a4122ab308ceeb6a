/**
 * `pnpm desktop:web`: Quire Desktop without Electron. Reads its settings (env.ts; a refused
 * setting, such as a `QUIRE_DESKTOP_HOST` other computers can reach without
 * `QUIRE_DESKTOP_ALLOW_REMOTE=1`, prints one line and exits with status 1 before anything is
 * created), builds the renderer when needed, opens the core on `QUIRE_DESKTOP_DATA_DIR` (the token
 * in a 0600 file there), serves the renderer and the core router on `QUIRE_DESKTOP_PORT`, starts the
 * background sync (outbox push, review pull), and prints one line `Quire Desktop: <url>` when ready.
 */
import net from 'node:net';
import { createCore } from './compose';
import { loadWebConfig, type WebConfig } from './env';
import { isLoopbackHost } from '@quire/shared/net/loopback';
import { fileTokenVault } from './token-vault';
import { createWebServer, ensureRendererBuilt } from './web-server';

let config: WebConfig;
try {
  config = loadWebConfig();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
if (!isLoopbackHost(config.host)) {
  console.warn(`Quire Desktop: listening on ${config.host} (QUIRE_DESKTOP_ALLOW_REMOTE=1): whoever reaches this port and calls it localhost acts as you.`);
}
await ensureRendererBuilt();
const core = createCore({ dataDir: config.dataDir, vault: fileTokenVault(config.dataDir) });
core.start();
const server = createWebServer(core);
server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  console.log(`Quire Desktop: http://${net.isIPv6(host) ? `[${host}]` : host}:${port}/`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    void core.close().finally(() => process.exit(0));
  });
}
