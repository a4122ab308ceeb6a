/**
 * Audience access tokens (interface-spec.md "Audience access token", "States and transitions >
 * Audience token"; decisions.md section 6): signing, issuing and verifying.
 *
 * Format: `base64url(JSON payload).base64url(HMAC-SHA256(key, payload part))`, the payload
 * `{v: 1, p: projectId, a: profileId, e: expiry in Unix seconds or null, j: random token id}`, and
 * `c`, the reader's claims, when the token was issued with some (personalised pages:
 * shared/src/site/personalisation.ts; signed, so the site trusts them; readable by the holder).
 * The key is the project's own 32 random bytes, created on first use and stored sealed with the
 * installation's secret key in `Project.audienceSecret` (git/secret-box.ts); it never leaves the
 * server. The token itself is never stored: an `AudienceToken` row (id = `j`) records that it was
 * issued; deleting the profile deletes its rows, and a token without its row opens nothing.
 *
 * A token grants its profile's tags as they are at the moment of the request (the spec: "Changing a
 * profile's `audiences` changes the access of all tokens issued for it"). Verification runs on every
 * gated site request, so profiles, token rows and project keys are cached per app
 * ({@link AudienceTokenCache}); every change announces `audience.changed` (also to other processes),
 * which drops the profile's entry at once. Anything else that deletes AudienceToken rows must emit it too.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { randomBase62 } from '@quire/shared/ids';
import { ApiError } from '@quire/shared/errors';
import type { AppContext } from '../context';
import type { EventBus } from '../events';
import { parseStringList } from '../db/json-columns';
import { readStoredClaims, type ReaderClaims } from '@quire/shared/site/personalisation';
import { openSecret, sealSecret, secretKeyOf, SecretBoxError } from '../git/secret-box';
import { recordAudit, type AuditInput } from './audit';

/** What a verified token grants at this moment. */
export interface AudienceGrant {
  profileId: string;
  tokenId: string;
  /** The profile's current audience tags. */
  tags: string[];
  /** When the token stops working; null: never. */
  expiresAt: Date | null;
  /** The reader's claims signed into the token (name, plan, playground inputs); absent: none. */
  claims?: ReaderClaims;
}

/** Why a token opens nothing. */
export type TokenRefusal = 'malformed' | 'bad_signature' | 'other_project' | 'expired' | 'profile_deleted' | 'revoked';

/** The signed payload of a token (decisions.md section 6). */
export interface AudienceTokenPayload {
  /** Format version. */
  v: 1;
  /** Project id. */
  p: string;
  /** Audience profile id. */
  a: string;
  /** Expiry, Unix seconds; null: never. */
  e: number | null;
  /** Random token id (the AudienceToken row's id). */
  j: string;
  /** The reader's claims (shared/src/site/personalisation.ts `ReaderClaims`); absent: none. */
  c?: ReaderClaims;
}

/** Longest input {@link verifyAudienceToken} looks at (characters); longer input is `malformed` unread. */
export const AUDIENCE_TOKEN_MAX_LENGTH = 2_048;

/** Bytes of a project's signing key. */
const KEY_BYTES = 32;
/** Base64url characters of an HMAC-SHA256 (32 bytes, unpadded). */
const SIGNATURE_LENGTH = 43;
/** Base62 characters of a token id (about 131 bits). */
const TOKEN_ID_LENGTH = 22;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const ID = /^[A-Za-z0-9_]{1,64}$/;

/** The sealing context of a project's key: a sealed key copied to another project does not open. */
function sealContext(projectId: string): string {
  return `audience-secret/${projectId}`;
}

/** base64url(HMAC-SHA256(key, payloadPart)). */
function signaturePart(key: Buffer, payloadPart: string): string {
  return createHmac('sha256', key).update(payloadPart, 'ascii').digest('base64url');
}

/** The token of `payload` signed with `key` (a project's 32-byte key). */
export function signAudienceToken(key: Buffer, payload: AudienceTokenPayload): string {
  const fields = { v: payload.v, p: payload.p, a: payload.a, e: payload.e, j: payload.j, ...(payload.c ? { c: payload.c } : {}) };
  const payloadPart = Buffer.from(JSON.stringify(fields), 'utf8').toString('base64url');
  return `${payloadPart}.${signaturePart(key, payloadPart)}`;
}

/** The two parts and the payload of a well-formed token, or null (nothing checked cryptographically). */
function parseToken(token: string): { payloadPart: string; signature: string; payload: AudienceTokenPayload } | null {
  const dot = token.indexOf('.');
  if (dot <= 0 || dot !== token.lastIndexOf('.')) return null;
  const payloadPart = token.slice(0, dot);
  const signature = token.slice(dot + 1);
  if (!BASE64URL.test(payloadPart) || !BASE64URL.test(signature)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payloadPart, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { v, p, a, e, j, c } = value as Record<string, unknown>;
  const claims = c === undefined ? undefined : readStoredClaims(c);
  if (c !== undefined && !claims) return null;
  if (v !== 1 || typeof p !== 'string' || !ID.test(p) || typeof a !== 'string' || !ID.test(a) || typeof j !== 'string' || !ID.test(j)) return null;
  if (e !== null && !(typeof e === 'number' && Number.isSafeInteger(e) && e >= 0)) return null;
  return { payloadPart, signature, payload: { v: 1, p, a, e: e as number | null, j, ...(claims ? { c: claims } : {}) } };
}

/** A cached profile: its project, tags, and what is known of its token rows (true: the row exists). */
interface ProfileEntry {
  projectId: string;
  tags: string[];
  tokens: Map<string, boolean>;
}
/** A cached project key; `key: null` (no key yet, or unreadable) is trusted only until `until` (ms). */
type KeyEntry = { key: Buffer } | { key: null; until: number };

/** Profiles kept in memory (most recently used). */
const MAX_CACHED_PROFILES = 10_000;
/** Project keys kept in memory. */
const MAX_CACHED_KEYS = 10_000;
/** Tokens whose signature this process checked, remembered for the synchronous path ({@link verifyAudienceTokenCached}). */
const MAX_VERIFIED_TOKENS = 10_000;
/** Token rows remembered per profile; past this the profile's memory of rows starts again. */
const MAX_TOKENS_PER_PROFILE = 10_000;
/**
 * How long "this project has no key" is believed (ms). Tokens are only issued after the key exists and
 * their issue announces `audience.changed`, so this only bounds the database reads garbage tokens for
 * a project without tokens can cause (one per project per interval), and covers an event still in flight.
 */
const MISSING_KEY_TTL_MS = 1_000;

/**
 * What {@link verifyAudienceToken} keeps in memory for one app: project keys, profiles (project,
 * current tags, or a marker for a deleted profile) and, per profile, whether token rows exist. A profile's
 * entry is dropped on `audience.changed`, a deleted project's entries on `project.changed`, and
 * everything on `reconnected` (events of other processes may have been missed). A read that started
 * before an invalidation is not stored, so a stale row never outlives the event that replaced it.
 * One per app context: {@link createAudienceTokenCache}.
 */
export class AudienceTokenCache {
  private readonly keys = new LRUCache<string, KeyEntry>({ max: MAX_CACHED_KEYS });
  private readonly profiles = new LRUCache<string, ProfileEntry | { deleted: true }>({ max: MAX_CACHED_PROFILES });
  /**
   * Payloads of tokens (the exact string) whose format and signature were checked: only the
   * stateless half of a verification is remembered; the profile and token row are looked up in
   * {@link profiles} on every use, so a change or deletion still takes effect at once.
   */
  private readonly verified = new LRUCache<string, AudienceTokenPayload>({ max: MAX_VERIFIED_TOKENS });
  /** Bumped by every invalidation; a load stores its result only if this did not move meanwhile. */
  private generation = 0;

  constructor(events: EventBus) {
    events.on('audience.changed', ({ projectId, profileId }) => {
      this.generation++;
      this.profiles.delete(profileId);
      const key = this.keys.get(projectId);
      if (key && key.key === null) this.keys.delete(projectId);
    });
    events.on('project.changed', ({ projectId, deleted }) => {
      if (!deleted) return;
      this.generation++;
      this.keys.delete(projectId);
      for (const [id, entry] of this.profiles.entries()) if ('projectId' in entry && entry.projectId === projectId) this.profiles.delete(id);
    });
    events.on('reconnected', () => {
      this.generation++;
      this.keys.clear();
      this.profiles.clear();
      this.verified.clear();
    });
  }

  /** Remembers that `token`'s format and signature are good (see {@link verified}). */
  rememberVerified(token: string, payload: AudienceTokenPayload): void {
    this.verified.set(token, payload);
  }

  /**
   * The verification of a token answered from memory alone, or undefined when anything it needs
   * (the checked signature, the profile, the token row) is not in memory.
   */
  peek(projectId: string, token: string): VerifyResult | undefined {
    const payload = this.verified.get(token);
    if (!payload || payload.p !== projectId) return undefined;
    if (payload.e !== null && payload.e * 1000 <= Date.now()) return { ok: false, reason: 'expired' };
    const profile = this.profiles.get(payload.a);
    if (!profile || 'deleted' in profile || profile.projectId !== projectId) return undefined;
    if (profile.tokens.get(payload.j) !== true) return undefined;
    return { ok: true, grant: grantOf(payload, profile) };
  }

  /** The project's signing key, or null when it has none (or it cannot be opened: logged). */
  async key(ctx: AppContext, projectId: string): Promise<Buffer | null> {
    const hit = this.keys.get(projectId);
    if (hit && (hit.key !== null || hit.until > Date.now())) return hit.key;
    const generation = this.generation;
    const key = await readProjectKey(ctx, projectId).catch((err: unknown) => {
      if (!(err instanceof SecretBoxError)) throw err;
      ctx.log.warn({ projectId }, "the project's audience token key cannot be opened with this installation's secret key (QUIRE_SECRET_KEY or <data dir>/secret-key); its tokens are refused");
      return null;
    });
    if (generation === this.generation) this.keys.set(projectId, key ? { key } : { key: null, until: Date.now() + MISSING_KEY_TTL_MS });
    return key;
  }

  /** The profile with its current tags, or null when it no longer exists. */
  async profile(ctx: AppContext, profileId: string): Promise<ProfileEntry | null> {
    const hit = this.profiles.get(profileId);
    if (hit) return 'deleted' in hit ? null : hit;
    const generation = this.generation;
    const row = await ctx.db.prisma.audienceProfile.findUnique({ where: { id: profileId }, select: { projectId: true, audiences: true } });
    const entry: ProfileEntry | null = row ? { projectId: row.projectId, tags: parseStringList(row.audiences) ?? [], tokens: new Map() } : null;
    if (generation === this.generation) this.profiles.set(profileId, entry ?? { deleted: true });
    return entry;
  }

  /** Whether the token row `tokenId` of `profile` (as returned by {@link profile}) exists. */
  async tokenExists(ctx: AppContext, profileId: string, profile: ProfileEntry, tokenId: string): Promise<boolean> {
    const known = profile.tokens.get(tokenId);
    if (known !== undefined) return known;
    const generation = this.generation;
    const row = await ctx.db.prisma.audienceToken.findUnique({ where: { id: tokenId }, select: { profileId: true } });
    const exists = row?.profileId === profileId;
    if (generation === this.generation) {
      if (profile.tokens.size >= MAX_TOKENS_PER_PROFILE) profile.tokens.clear();
      profile.tokens.set(tokenId, exists);
    }
    return exists;
  }
}

/** A new, empty {@link AudienceTokenCache} listening on `events` (for `createAppContext`). */
export function createAudienceTokenCache(events: EventBus): AudienceTokenCache {
  return new AudienceTokenCache(events);
}

/** The context with the cache member `createAppContext` gives it (see {@link tokenCache}). */

/**
 * The app's token cache: `ctx.audienceTokens`, created on first use when the context was built without
 * one (it then lives on that context object, so it is still one per app).
 */
function tokenCache(ctx: AppContext): AudienceTokenCache {
  return ctx.audienceTokens;
}

/** Reads and opens the project's key; null when the project or its key does not exist. @throws SecretBoxError. */
async function readProjectKey(ctx: AppContext, projectId: string): Promise<Buffer | null> {
  const row = await ctx.db.prisma.project.findUnique({ where: { id: projectId }, select: { audienceSecret: true } });
  if (!row?.audienceSecret) return null;
  return Buffer.from(openSecret(secretKeyOf(ctx.config), row.audienceSecret, sealContext(projectId)), 'base64');
}

/**
 * Verifies a token for a project: format base64url(JSON payload).base64url(HMAC-SHA256) (decisions.md
 * section 6), signature with the project's key (compared in constant time, and only the canonical
 * encoding is accepted), project id, expiry, profile still existing, token row still existing; the
 * profile's CURRENT tags are returned. Input longer than {@link AUDIENCE_TOKEN_MAX_LENGTH} characters
 * is `malformed` without being read; surrounding white space (a pasted token) is ignored.
 * Fast: after a token's first use everything comes from the app's cache, without a database round
 * trip; a change or deletion of the profile (`audience.changed`, also from other processes) takes
 * effect at once. Never throws for any input (database errors aside).
 * @param projectId the project whose site is being read.
 */
export async function verifyAudienceToken(ctx: AppContext, projectId: string, token: string): Promise<VerifyResult> {
  if (typeof token !== 'string' || token.length > AUDIENCE_TOKEN_MAX_LENGTH) return { ok: false, reason: 'malformed' };
  const known = tokenCache(ctx).peek(projectId, token);
  if (known) return known;
  const parsed = parseToken(token.trim());
  if (!parsed) return { ok: false, reason: 'malformed' };
  const { payload } = parsed;
  if (payload.p !== projectId) return { ok: false, reason: 'other_project' };
  const cache = tokenCache(ctx);
  const key = await cache.key(ctx, projectId);
  if (!key || parsed.signature.length !== SIGNATURE_LENGTH) return { ok: false, reason: 'bad_signature' };
  const expected = signaturePart(key, parsed.payloadPart);
  if (!timingSafeEqual(Buffer.from(parsed.signature, 'ascii'), Buffer.from(expected, 'ascii'))) return { ok: false, reason: 'bad_signature' };
  cache.rememberVerified(token, payload);
  if (payload.e !== null && payload.e * 1000 <= Date.now()) return { ok: false, reason: 'expired' };
  const profile = await cache.profile(ctx, payload.a);
  if (!profile || profile.projectId !== projectId) return { ok: false, reason: 'profile_deleted' };
  if (!(await cache.tokenExists(ctx, payload.a, profile, payload.j))) return { ok: false, reason: 'revoked' };
  return { ok: true, grant: grantOf(payload, profile) };
}

/**
 * {@link verifyAudienceToken} answered synchronously from the app's memory, as the site's hot path
 * wants it: the same result whenever this token was verified before and its profile and token row
 * are still cached (a change to either drops them, so the answer is never staler than the async
 * one's); undefined when the async verification must run.
 */
export function verifyAudienceTokenCached(ctx: AppContext, projectId: string, token: string): VerifyResult | undefined {
  if (typeof token !== 'string' || token.length > AUDIENCE_TOKEN_MAX_LENGTH) return { ok: false, reason: 'malformed' };
  return tokenCache(ctx).peek(projectId, token);
}

/** The outcome of verifying an audience token. */
export type VerifyResult = { ok: true; grant: AudienceGrant } | { ok: false; reason: TokenRefusal };

function grantOf(payload: AudienceTokenPayload, profile: ProfileEntry): AudienceGrant {
  return {
    profileId: payload.a,
    tokenId: payload.j,
    tags: [...profile.tags],
    expiresAt: payload.e === null ? null : new Date(payload.e * 1000),
    ...(payload.c ? { claims: payload.c } : {}),
  };
}

/**
 * The project's signing key, created (32 random bytes, sealed into `Project.audienceSecret`) on first
 * use. Of concurrent first uses, in any process, one key wins and every caller gets that one. The
 * project's `updatedAt` is kept: the key is not part of the project as shown.
 * @throws ApiError not_found when the project does not exist; service_unavailable when the stored key
 *   cannot be opened (the installation's secret key changed).
 */
export async function projectAudienceKey(ctx: AppContext, projectId: string): Promise<Buffer> {
  const { prisma } = ctx.db;
  const secretKey = secretKeyOf(ctx.config);
  for (let attempt = 0; attempt < 2; attempt++) {
    const row = await prisma.project.findUnique({ where: { id: projectId }, select: { audienceSecret: true, updatedAt: true } });
    if (!row) throw new ApiError('not_found', `No project ${projectId}.`);
    if (row.audienceSecret) {
      try {
        return Buffer.from(openSecret(secretKey, row.audienceSecret, sealContext(projectId)), 'base64');
      } catch (err) {
        if (!(err instanceof SecretBoxError)) throw err;
        throw new ApiError(
          'service_unavailable',
          "The project's audience token key cannot be decrypted with this installation's secret key (QUIRE_SECRET_KEY or <data dir>/secret-key); restore that key.",
        );
      }
    }
    const key = randomBytes(KEY_BYTES);
    const sealed = sealSecret(secretKey, key.toString('base64'), sealContext(projectId));
    const claimed = await prisma.project.updateMany({
      where: { id: projectId, audienceSecret: null },
      data: { audienceSecret: sealed, updatedAt: row.updatedAt },
    });
    if (claimed.count === 1) return key;
    // Another request stored a key first: use that one.
  }
  throw new ApiError('service_unavailable', "The project's audience token key could not be stored; retry.");
}

/** What {@link issueAudienceToken} issues. */
export interface IssueAudienceTokenInput {
  orgId: string;
  projectId: string;
  profileId: string;
  /** Expiry (whole seconds are kept); null: never. May lie in the past (tests). */
  expiresAt: Date | null;
  label: string | null;
  /** Who issues it, for the audit entry (null: the system). */
  auth: AuditInput['auth'];
  /** Extra audit metadata, e.g. `{expiresIn: '30d'}`. */
  metadata?: Record<string, unknown>;
  /** The reader's claims to sign into the token (validated: shared/src/site/personalisation.ts `parseReaderClaims`). */
  claims?: ReaderClaims;
}

/**
 * Issues a token for a profile of a project: records its AudienceToken row and the audit entry
 * `audience.token_created` (resource type `audience`, the profile; metadata `jti`, expiry, label,
 * never the token) in one transaction, then announces `audience.changed`.
 * @returns the token (shown once), its expiry as recorded and the profile's tags at issue.
 * @throws ApiError profile_not_found when the profile is not one of the project's; see
 *   {@link projectAudienceKey}.
 */
export async function issueAudienceToken(
  ctx: AppContext,
  input: IssueAudienceTokenInput,
): Promise<{ token: string; tokenId: string; expiresAt: Date | null; tags: string[] }> {
  const key = await projectAudienceKey(ctx, input.projectId);
  const expiresAt = input.expiresAt === null ? null : new Date(Math.floor(input.expiresAt.getTime() / 1000) * 1000);
  const tokenId = randomBase62(TOKEN_ID_LENGTH);
  const notFound = () => new ApiError('profile_not_found', `No audience profile ${input.profileId} in this project.`);
  const tags = await ctx.db.prisma.$transaction(async (tx) => {
    const profile = await tx.audienceProfile.findFirst({ where: { id: input.profileId, projectId: input.projectId }, select: { name: true, audiences: true } });
    if (!profile) throw notFound();
    try {
      await tx.audienceToken.create({ data: { id: tokenId, projectId: input.projectId, profileId: input.profileId, label: input.label, expiresAt } });
    } catch (err) {
      // P2003, foreign key: the profile was deleted by another request since the read above.
      if ((err as { code?: unknown } | null)?.code === 'P2003') throw notFound();
      throw err;
    }
    await recordAudit(tx, {
      orgId: input.orgId,
      projectId: input.projectId,
      auth: input.auth,
      action: 'audience.token_created',
      resource: { type: 'audience', id: input.profileId, name: profile.name },
      // the claims' names only: their values (an API key) never reach the audit log
      metadata: {
        ...input.metadata,
        jti: tokenId,
        expiresAt: expiresAt?.toISOString() ?? null,
        label: input.label,
        ...(input.claims ? { claims: Object.keys(input.claims.fields).concat(input.claims.apiPlaygroundInputs ? ['apiPlaygroundInputs'] : []) } : {}),
      },
    });
    return parseStringList(profile.audiences) ?? [];
  });
  ctx.events.emit('audience.changed', { projectId: input.projectId, profileId: input.profileId });
  const token = signAudienceToken(key, {
    v: 1,
    p: input.projectId,
    a: input.profileId,
    e: expiresAt === null ? null : expiresAt.getTime() / 1000,
    j: tokenId,
    ...(input.claims ? { c: input.claims } : {}),
  });
  return { token, tokenId, expiresAt, tags };
}
