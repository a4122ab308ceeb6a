/**
 * The preload script (runs sandboxed, with contextIsolation): exposes only the tRPC bridge
 * (`window.electronTRPC` with `sendMessage`/`onMessage` on one channel) through contextBridge.
 * Nothing else of Electron or Node reaches the renderer (architecture.md, rules of direction 3).
 */
import { exposeElectronTRPC } from 'trpc-electron/main';

process.once('loaded', () => {
  exposeElectronTRPC();
});
