import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeSecretKey, openSecret, sealSecret, secretKeyOf, SecretBoxError } from '../../src/git/secret-box';
import { loadConfig, ConfigError } from '../../src/env';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-secret-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('secret box', () => {
  const key = randomBytes(32);

  it('seals to v1.<iv>.<tag>.<ciphertext> and opens back, with a fresh IV each time', () => {
    const sealed = sealSecret(key, 'ghp_token-ü', 'prj_1');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    expect(sealed).not.toContain('ghp_token');
    expect(openSecret(key, sealed, 'prj_1')).toBe('ghp_token-ü');
    expect(sealSecret(key, 'ghp_token-ü', 'prj_1')).not.toBe(sealed);
  });

  it('refuses a tampered value, another key, another context and a malformed value', () => {
    const sealed = sealSecret(key, 'secret', 'prj_1');
    const [v, iv, tag, ct] = sealed.split('.') as [string, string, string, string];
    const flipped = Buffer.from(ct, 'base64');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => openSecret(key, [v, iv, tag, flipped.toString('base64')].join('.'), 'prj_1')).toThrow(SecretBoxError);
    const badTag = Buffer.from(tag, 'base64');
    badTag[3] = badTag[3]! ^ 0x80;
    expect(() => openSecret(key, [v, iv, badTag.toString('base64'), ct].join('.'), 'prj_1')).toThrow(SecretBoxError);
    expect(() => openSecret(randomBytes(32), sealed, 'prj_1')).toThrow(SecretBoxError);
    expect(() => openSecret(key, sealed, 'prj_2')).toThrow(SecretBoxError);
    expect(() => openSecret(key, 'v2.a.b.c', 'prj_1')).toThrow(SecretBoxError);
    expect(() => openSecret(key, 'not sealed', 'prj_1')).toThrow(SecretBoxError);
  });

  it('generates the key file once with mode 0600 when QUIRE_SECRET_KEY is unset, and reuses it', () => {
    const dataDir = tempDir();
    const first = secretKeyOf({ dataDir, secretKey: undefined });
    const file = path.join(dataDir, 'secret-key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(first).toHaveLength(32);
    expect(decodeSecretKey(fs.readFileSync(file, 'utf8'))).toEqual(first);
    expect(secretKeyOf({ dataDir, secretKey: undefined })).toEqual(first);
    // what one process sealed, another process with the same data directory opens
    const sealed = sealSecret(first, 'shared', 'ctx');
    expect(openSecret(decodeSecretKey(fs.readFileSync(file, 'utf8'))!, sealed, 'ctx')).toBe('shared');
  });

  it('uses QUIRE_SECRET_KEY (hex or base64) and writes no key file then', () => {
    const dataDir = tempDir();
    const raw = randomBytes(32);
    expect(secretKeyOf({ dataDir, secretKey: raw.toString('hex') })).toEqual(raw);
    expect(secretKeyOf({ dataDir, secretKey: raw.toString('base64') })).toEqual(raw);
    expect(fs.existsSync(path.join(dataDir, 'secret-key'))).toBe(false);
  });

  it('refuses a QUIRE_SECRET_KEY that is not 32 bytes at start, naming the variable', () => {
    expect(() => loadConfig({ QUIRE_DATA_DIR: '/tmp/x', QUIRE_SECRET_KEY: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ QUIRE_DATA_DIR: '/tmp/x', QUIRE_SECRET_KEY: 'short' })).toThrow(/QUIRE_SECRET_KEY/);
    expect(loadConfig({ QUIRE_DATA_DIR: '/tmp/x', QUIRE_SECRET_KEY: 'ab'.repeat(32) }).secretKey).toBe('ab'.repeat(32));
  });
});
