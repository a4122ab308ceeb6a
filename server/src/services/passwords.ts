import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { randomBase62 } from '@quire/shared/ids';

/**
 * Password hashing with scrypt from node:crypto (decisions.md section 2: never stored plain).
 *
 * Stored format (schema.prisma `User.passwordHash`): `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>`.
 * The cost parameters travel with each hash, so raising them later keeps old hashes verifiable.
 * The empty string is the hash of an account that cannot sign in (the bootstrap owner, until an
 * operator runs `pnpm quire user password <email>`).
 */

/** scrypt cost parameters; see {@link DEFAULT_SCRYPT_PARAMS}. */
export interface ScryptParams {
  /** CPU/memory cost, a power of two. Memory used is 128 * N * r bytes. */
  N: number;
  /** Block size. */
  r: number;
  /** Parallelisation (computed sequentially by Node; multiplies CPU time only). */
  p: number;
}

/**
 * OWASP's scrypt row "N=2^15, r=8, p=3": 32 MiB of memory, about 0.4 s of one core on a small
 * server, run on libuv's thread pool so the event loop keeps serving.
 */
export const DEFAULT_SCRYPT_PARAMS: Readonly<ScryptParams> = { N: 2 ** 15, r: 8, p: 3 };

const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Hashes with parameters above these are refused as corrupt (bounds the work a bad row can cause). */
const MAX_N = 2 ** 20;
const MAX_RP = 64;

function derive(password: string, salt: Buffer, params: ScryptParams, length: number): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/**
 * Hashes `password` with a fresh 16-byte salt.
 * @returns the stored form `scrypt$N$r$p$salt$hash` (base64 parts).
 * @throws Error when `password` is empty (an empty hash is reserved for "cannot sign in").
 */
export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<string> {
  if (password.length === 0) throw new Error('hashPassword: the password is empty');
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params, KEY_BYTES);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64');
  const key = Buffer.from(parts[5]!, 'base64');
  const powerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > MAX_N || !(r >= 1 && r <= MAX_RP) || !(p >= 1 && p <= MAX_RP)) return null;
  if (salt.length === 0 || key.length === 0) return null;
  return { params: { N, r, p }, salt, key };
}

/** A stored hash used when there is no real one, so a missing account costs as much time as a wrong password. */
let dummyHash: Promise<string> | undefined;

/**
 * Checks `password` against a stored hash in constant time (`timingSafeEqual`).
 * An empty or malformed `stored` never matches, but still costs one default-cost derivation,
 * so callers answering "wrong e-mail" and "wrong password" alike also take the same time.
 * @returns true only when the password matches.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) {
    dummyHash ??= hashPassword('quire-dummy-password');
    const dummy = parseHash(await dummyHash)!;
    await derive(password || ' ', dummy.salt, dummy.params, dummy.key.length);
    return false;
  }
  const key = await derive(password, parsed.salt, parsed.params, parsed.key.length);
  return timingSafeEqual(key, parsed.key);
}

/**
 * True when `stored` was made with weaker parameters than `params` (re-hash it after a successful sign-in).
 * An empty or malformed hash is not "stale": there is nothing to upgrade.
 */
export function needsRehash(stored: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): boolean {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  return parsed.params.N < params.N || parsed.params.r < params.r || parsed.params.p < params.p;
}

/**
 * A one-time password for a new account or a reset: 4 groups of 5 base62 characters joined by
 * hyphens (about 119 bits), e.g. `aZ3kd-9QwP2-...`. Shown once, then only its hash is kept.
 */
export function generatePassword(): string {
  return randomBase62(20).match(/.{5}/g)!.join('-');
}
