import fs from 'node:fs';
import path from 'node:path';
import { safeStorage } from 'electron';
import type { TokenVault } from '../core/token-vault';

/**
 * The session token encrypted with Electron's safeStorage (the OS keychain's key) in
 * `<dataDir>/session-token.enc`, mode 0600. Refuses to store the token when no OS encryption is
 * available rather than keeping it in clear text.
 */
export function safeStorageVault(dataDir: string): TokenVault {
  const file = path.join(dataDir, 'session-token.enc');
  return {
    get() {
      try {
        return safeStorage.decryptString(fs.readFileSync(file));
      } catch {
        return null;
      }
    },
    set(token) {
      if (!safeStorage.isEncryptionAvailable()) throw new Error('The system keychain is not available: the session cannot be kept.');
      fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(file, safeStorage.encryptString(token), { mode: 0o600 });
    },
    clear() {
      fs.rmSync(file, { force: true });
    },
  };
}
