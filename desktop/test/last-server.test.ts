import { describe, expect, it } from 'vitest';
import { lastServerUrl, rememberServerUrl } from '../src/renderer/store/last-server';

/** The sign-in form starts with the server last signed in to on this computer (store/last-server.ts). */
function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const items = new Map<string, string>();
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v) };
}

describe('the last server address', () => {
  it('is none at first, then the address last signed in to', () => {
    const storage = memoryStorage();
    expect(lastServerUrl(storage)).toBeNull();
    rememberServerUrl('https://docs.acme.test', storage);
    rememberServerUrl('http://127.0.0.1:4000', storage);
    expect(lastServerUrl(storage)).toBe('http://127.0.0.1:4000');
  });

  it('is none, without an error, where the storage refuses (private mode, a full disk)', () => {
    const refusing = { getItem: () => { throw new Error('SecurityError'); }, setItem: () => { throw new Error('QuotaExceededError'); } };
    expect(() => rememberServerUrl('http://127.0.0.1:4000', refusing)).not.toThrow();
    expect(lastServerUrl(refusing)).toBeNull();
  });
});
