/**
 * The server address the sign-in form last signed in to, kept in the renderer's localStorage (the
 * core keeps no settings, and forgets its session's server on sign-out), so the form starts with it.
 */
const KEY = 'quire.lastServerUrl';

/** The address shown when none was used yet: a Quire server on this computer (`pnpm start`'s default port). */
export const DEFAULT_SERVER_URL = 'http://localhost:4000';

/** The last server signed in to, or null (none yet, or storage unavailable). */
export function lastServerUrl(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): string | null {
  try {
    return storage?.getItem(KEY) || null;
  } catch {
    return null;
  }
}

/** Remembers `url` as the last server signed in to (silently does nothing where storage is unavailable). */
export function rememberServerUrl(url: string, storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(KEY, url);
  } catch {
    // private mode or storage full: the form falls back to its default next time
  }
}
