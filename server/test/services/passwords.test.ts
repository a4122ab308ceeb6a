import { describe, expect, it } from 'vitest';
import { PasswordSchema } from '@quire/shared/api/members';
import { generatePassword, hashPassword, needsRehash, verifyPassword } from '../../src/services/passwords';

describe('password hashing', () => {
  it('stores a salted scrypt hash that verifies the password and nothing else', async () => {
    const hash = await hashPassword('s3cret-Passphrase');
    expect(hash).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(hash).not.toContain('s3cret');
    expect(await verifyPassword('s3cret-Passphrase', hash)).toBe(true);
    expect(await verifyPassword('s3cret-passphrase', hash)).toBe(false);
    expect(await hashPassword('s3cret-Passphrase')).not.toBe(hash); // fresh salt each time
  });

  it('never accepts any password for the empty hash (an account that cannot sign in) or a malformed one', async () => {
    expect(await verifyPassword('', '')).toBe(false);
    expect(await verifyPassword('anything', '')).toBe(false);
    expect(await verifyPassword('anything', 'scrypt$3$8$1$AAAA$AAAA')).toBe(false);
    expect(await verifyPassword('anything', 'plain-text-password')).toBe(false);
  });

  it('flags hashes made with weaker parameters for an upgrade', async () => {
    const weak = await hashPassword('s3cret-Passphrase', { N: 1024, r: 8, p: 1 });
    expect(await verifyPassword('s3cret-Passphrase', weak)).toBe(true);
    expect(needsRehash(weak)).toBe(true);
    expect(needsRehash(await hashPassword('s3cret-Passphrase'))).toBe(false);
    expect(needsRehash('')).toBe(false);
  });

  it('generates distinct one-time passwords that meet the password policy', () => {
    const passwords = new Set(Array.from({ length: 50 }, generatePassword));
    expect(passwords.size).toBe(50);
    for (const p of passwords) {
      expect(p).toMatch(/^[0-9A-Za-z]{5}(-[0-9A-Za-z]{5}){3}$/);
      expect(PasswordSchema.safeParse(p).success).toBe(true);
    }
  });
});
