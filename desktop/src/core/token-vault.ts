import fs from 'node:fs';
import path from 'node:path';
import { makePrivateDir, makePrivateFile, PRIVATE_FILE_MODE } from './private-files';

/**
 * Where the session token is kept, apart from the store: in Electron the OS keychain through
 * `safeStorage` (src/main), in web mode and tests a file readable by its owner only (mode 0600).
 */
export interface TokenVault {
  /** The saved token, or null. */
  get(): string | null;
  set(token: string): void;
  /** Forgets the token (no error when there is none). */
  clear(): void;
}

/** The file name of the token in the data directory (web mode). */
export const TOKEN_FILE = 'session-token';

/**
 * A vault in `<dataDir>/session-token`, created with mode 0600 (and chmod'ed again, since the
 * umask or an older file could widen it). Written to a temporary file and renamed, so a crash never
 * leaves half a token.
 */
export function fileTokenVault(dataDir: string): TokenVault {
  const file = path.join(dataDir, TOKEN_FILE);
  return {
    get() {
      try {
        const t = fs.readFileSync(file, 'utf8').trim();
        return t || null;
      } catch {
        return null;
      }
    },
    set(token) {
      makePrivateDir(dataDir);
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, token, { mode: PRIVATE_FILE_MODE });
      makePrivateFile(tmp);
      fs.renameSync(tmp, file);
    },
    clear() {
      fs.rmSync(file, { force: true });
    },
  };
}
