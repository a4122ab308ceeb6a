import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createCore, type DesktopCore } from '../../src/core/compose';
import { fileTokenVault } from '../../src/core/token-vault';
import { createWebServer } from '../../src/core/web-server';

/** Web mode's HTTP server over a fresh core, listening on 127.0.0.1 at an ephemeral port. */
export interface WebCore {
  core: DesktopCore;
  server: http.Server;
  /** the TCP port the server listens on */
  port: number;
  /** the core's temporary data directory */
  dataDir: string;
  /** Stops the server, closes the core and deletes its data directory. */
  close(): Promise<void>;
}

/** Starts a core on a temporary data directory (named after `prefix`) and web mode's server in front of it. */
export async function startWebCore(prefix: string): Promise<WebCore> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `quire-desktop-${prefix}-`));
  const core = createCore({ dataDir, vault: fileTokenVault(dataDir) });
  const server = createWebServer(core);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const close = async () => {
    await new Promise((r) => server.close(r));
    await core.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { core, server, port, dataDir, close };
}
