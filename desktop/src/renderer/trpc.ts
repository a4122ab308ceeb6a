import { createTRPCClient, httpLink, type TRPCLink } from '@trpc/client';
import { ipcLink } from 'trpc-electron/renderer';
import type { CoreRouter } from '../core/router';

/**
 * The renderer's only way to the core: over IPC when the Electron preload exposed its bridge
 * (`window.electronTRPC`), else over HTTP at `/trpc` of the page's own origin (`pnpm desktop:web`),
 * every call as a POST.
 */
function link(): TRPCLink<CoreRouter> {
  if ('electronTRPC' in globalThis) return ipcLink<CoreRouter>();
  // Queries as POST too: their input (a whole page's text for lint) would not fit in a URL.
  return httpLink<CoreRouter>({ url: new URL('trpc', document.baseURI).href, methodOverride: 'POST' });
}

/** The typed client of the core router. */
export const core = createTRPCClient<CoreRouter>({ links: [link()] });

/** The message of a failed core call, for the user. */
export function errorMessage(err: unknown): string {
  return (err as Error)?.message || 'Something went wrong.';
}
