import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Config } from '../env';
import { dataPaths } from '../data-paths';

/**
 * Sealing secrets stored in the database (decisions.md section 9: git credentials are "stored
 * encrypted"): AES-256-GCM with a 12-byte random IV and a 16-byte tag, optionally bound to a context
 * string (additional authenticated data, e.g. the project id, so a sealed value copied to another
 * row does not open). Stored form: `v1.<iv base64>.<tag base64>.<ciphertext base64>`.
 *
 * The key is `QUIRE_SECRET_KEY` (32 bytes, base64 or hex), or else the key in
 * `<data dir>/secret-key` (mode 0600), generated on first use. Every process of an installation must
 * use the same key (README, configuration).
 */

/** A sealed value that cannot be opened: tampered with, another key, or not in the stored form. */
export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** Decodes a key given as 64 hex digits or base64 of 32 bytes; null for anything else. */
export function decodeSecretKey(text: string): Buffer | null {
  const value = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : /^[A-Za-z0-9+/]{43}=$/.test(value) ? Buffer.from(value, 'base64') : null;
  return key && key.length === KEY_BYTES ? key : null;
}

const keys = new Map<string, Buffer>();

/**
 * The installation's secret key: `config.secretKey` when set, else the one in `<data dir>/secret-key`,
 * which is created (32 random bytes, base64, mode 0600) when missing. Several processes starting at
 * once agree on one key (exclusive create; the losers read the winner's file).
 * @throws SecretBoxError when the key file exists but does not hold a valid key.
 */
export function secretKeyOf(config: Pick<Config, 'dataDir' | 'secretKey'>): Buffer {
  if (config.secretKey) {
    const key = decodeSecretKey(config.secretKey);
    if (!key) throw new SecretBoxError('QUIRE_SECRET_KEY must be 32 bytes as base64 (44 characters) or 64 hex digits.');
    return key;
  }
  const file = dataPaths(config.dataDir).secretKey;
  const cached = keys.get(file);
  if (cached) return cached;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    fs.mkdirSync(config.dataDir, { recursive: true });
    const generated = `${randomBytes(KEY_BYTES).toString('base64')}\n`;
    try {
      fs.writeFileSync(file, generated, { mode: 0o600, flag: 'wx' });
      fs.chmodSync(file, 0o600);
      text = generated;
    } catch (writeErr) {
      if ((writeErr as NodeJS.ErrnoException).code !== 'EEXIST') throw writeErr;
      text = fs.readFileSync(file, 'utf8');
    }
  }
  const key = decodeSecretKey(text);
  if (!key) throw new SecretBoxError(`${file} does not hold a 32-byte key (base64 or hex); restore it or set QUIRE_SECRET_KEY.`);
  keys.set(file, key);
  return key;
}

/**
 * Seals `plaintext` (UTF-8) with `key` (32 bytes), bound to `context` (default none).
 * @returns `v1.<iv>.<tag>.<ciphertext>`, each part base64.
 */
export function sealSecret(key: Buffer, plaintext: string, context = ''): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ciphertext.toString('base64')].join('.');
}

/**
 * Opens a value sealed by {@link sealSecret} with the same key and context.
 * @throws SecretBoxError when the value is not in the stored form, was altered, or was sealed with
 *   another key or context.
 */
export function openSecret(key: Buffer, sealed: string, context = ''): string {
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError('The sealed value is not in the v1.<iv>.<tag>.<ciphertext> form.');
  const [, iv, tag, ciphertext] = parts.map((p) => Buffer.from(p, 'base64')) as [Buffer, Buffer, Buffer, Buffer];
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError('The sealed value is not in the v1.<iv>.<tag>.<ciphertext> form.');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError('The sealed value cannot be opened: it was altered or sealed with another key.');
  }
}
