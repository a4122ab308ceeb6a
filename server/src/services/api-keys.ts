/**
 * API keys (interface-spec.md "API keys"; decisions.md section 2): generation, storage (SHA-256
 * hash only), listing, revocation and atomic rotation. Authentication of requests by key lives in
 * ./api-key-cache (in-memory, no ORM round trip per request; `ctx.apiKeys`).
 */
import { hash } from 'node:crypto';
import { randomBase62, newId } from '@quire/shared/ids';
import { ApiError } from '@quire/shared/errors';
import {
  PermissionSchema,
  scopeOf,
  type ApiKey,
  type CreatedApiKey,
  type ExpiresIn,
  type KeyMode,
  type Permission,
  type RotatedApiKey,
} from '@quire/shared/api/api-keys';
import type { Models } from '../db/client';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import { recordAudit, type DbClient } from './audit';
import { getProjectForCaller } from './projects';

/** A row of the ApiKey table. */
export type ApiKeyRow = Models.ApiKeyModel;

/** Live keys: `quire_<8>_<secret>`; test keys: `sk_test_<8>_<secret>` (decisions.md section 2). */
const MODE_PREFIX: Record<KeyMode, string> = { live: 'quire_', test: 'sk_test_' };
const SECRET_LENGTH = 40;
const KEY_PATTERN = /^(quire_|sk_test_)([0-9A-Za-z]{8})_[0-9A-Za-z]{32,}$/;

/**
 * SHA-256 (hex) of a full key: the only form in which keys are stored. One-shot `crypto.hash`
 * (Node 20.12+): every authenticated request hashes its key, and a Hash object costs more.
 */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** A fresh random key of the given mode, with its `prefix` (the part before the secret). */
export function generateApiKey(mode: KeyMode): { key: string; prefix: string } {
  const prefix = `${MODE_PREFIX[mode]}${randomBase62(8)}`;
  return { key: `${prefix}_${randomBase62(SECRET_LENGTH)}`, prefix };
}

/**
 * The `prefix` and mode of a key given from outside (QUIRE_ADMIN_KEY): the standard format's
 * prefix, or for a free-form key its first 6 characters (never the secret's bulk).
 */
export function describeKey(key: string): { prefix: string; mode: KeyMode } {
  const m = KEY_PATTERN.exec(key);
  if (m) return { prefix: `${m[1]}${m[2]}`, mode: m[1] === 'sk_test_' ? 'test' : 'live' };
  return { prefix: key.slice(0, 6), mode: key.startsWith('sk_test_') ? 'test' : 'live' };
}

/** The expiry date for an `expiresIn` value counted from `now`; null for `never`. */
export function expiryFrom(expiresIn: ExpiresIn, now = new Date()): Date | null {
  const days = { '30d': 30, '90d': 90, '1y': 365, never: 0 }[expiresIn];
  return days ? new Date(now.getTime() + days * 86_400_000) : null;
}

/** Parses the stored JSON permission list, dropping unknown values. */
export function parsePermissions(json: string): Permission[] {
  const raw: unknown = JSON.parse(json);
  return Array.isArray(raw) ? raw.filter((p): p is Permission => PermissionSchema.safeParse(p).success) : [];
}

/** Input of {@link createApiKey}. */
export interface CreateApiKeyInput {
  orgId: string;
  createdById: string | null;
  name: string;
  permissions: Permission[];
  projectId?: string | null;
  expiresAt?: Date | null;
  mode?: KeyMode;
  /** Register this exact key instead of generating one (bootstrap's QUIRE_ADMIN_KEY). */
  key?: string;
  /** The key this one replaces (rotation). */
  previousKeyId?: string | null;
}

/**
 * Stores a new key (hash only) and returns the row and the full key, which is never retrievable
 * again. Works on the Prisma client or inside a `$transaction` (pass `{ prisma: tx }`).
 * Used by the API, bootstrap and the `quire org create` CLI.
 */
export async function createApiKey(db: { prisma: DbClient }, input: CreateApiKeyInput): Promise<{ record: ApiKeyRow; key: string }> {
  const mode = input.mode ?? 'live';
  const { key, prefix } = input.key ? { key: input.key, prefix: describeKey(input.key).prefix } : generateApiKey(mode);
  const record = await db.prisma.apiKey.create({
    data: {
      id: newId('apiKey'),
      orgId: input.orgId,
      projectId: input.projectId ?? null,
      name: input.name,
      prefix,
      hash: hashApiKey(key),
      permissions: JSON.stringify([...new Set(input.permissions)]),
      mode,
      createdById: input.createdById,
      expiresAt: input.expiresAt ?? null,
      previousKeyId: input.previousKeyId ?? null,
    },
  });
  return { record, key };
}

/** The listed (snake_case) form of a key; `lastUsedAt` overrides the stored value (fresher, from memory). */
export function toApiKeyDto(row: ApiKeyRow, lastUsedAt: Date | null = row.lastUsedAt): ApiKey {
  const permissions = parsePermissions(row.permissions);
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    permissions,
    scope: scopeOf(permissions),
    mode: row.mode === 'test' ? 'test' : 'live',
    project_id: row.projectId,
    created_at: row.createdAt.toISOString(),
    last_used_at: lastUsedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
  };
}

/**
 * Keys visible to the caller, oldest first: the organization's active (not revoked) keys; a
 * project-scoped caller sees only keys of its project. Not paginated (spec "Unpaginated lists").
 */
export async function listApiKeys(ctx: AppContext, auth: RequestAuth): Promise<ApiKey[]> {
  const rows = await ctx.db.prisma.apiKey.findMany({
    where: { orgId: auth.orgId, revokedAt: null, ...(auth.projectId ? { projectId: auth.projectId } : {}) },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map((r) => toApiKeyDto(r, ctx.apiKeys.lastUsedAt(r.id) ?? r.lastUsedAt));
}

/**
 * Creates a key through the API for the caller's organization, audited as `api_key.created`.
 * A project-scoped caller can only create keys for its own project; a test key only test keys.
 * @throws ApiError not_found when `projectId` is not a project the caller can see; forbidden for a live key from a test key.
 */
export async function createApiKeyForCaller(
  ctx: AppContext,
  auth: RequestAuth,
  input: { name: string; permissions: Permission[]; projectId?: string; expiresIn: ExpiresIn; mode: KeyMode },
): Promise<CreatedApiKey> {
  const projectId = input.projectId ?? auth.projectId;
  if (projectId) {
    await getProjectForCaller(ctx, auth, projectId);
  }
  if (auth.mode === 'test' && input.mode === 'live') {
    throw new ApiError('forbidden', 'A test key can only create test keys.');
  }
  const created = await ctx.db.prisma.$transaction(async (tx) => {
    const result = await createApiKey({ prisma: tx }, {
      orgId: auth.orgId,
      createdById: auth.userId,
      name: input.name,
      permissions: input.permissions,
      projectId: projectId ?? null,
      expiresAt: expiryFrom(input.expiresIn),
      mode: input.mode,
    });
    await recordAudit(tx, {
      orgId: auth.orgId,
      projectId: projectId ?? null,
      auth,
      action: 'api_key.created',
      resource: { type: 'api_key', id: result.record.id, name: result.record.name },
      metadata: {
        prefix: result.record.prefix,
        scope: scopeOf(input.permissions),
        permissions: input.permissions,
        expiresAt: result.record.expiresAt?.toISOString() ?? null,
      },
    });
    return result;
  });
  return { ...toApiKeyDto(created.record), key: created.key };
}

/** Finds an active key the caller may manage, or throws 404 (unknown, other org, out of scope, revoked). */
async function findManageableKey(
  db: { prisma: DbClient },
  auth: RequestAuth,
  keyId: string,
  projectId: string | null,
): Promise<ApiKeyRow> {
  const row = await db.prisma.apiKey.findUnique({ where: { id: keyId } });
  const scopeProject = projectId ?? auth.projectId;
  if (
    !row ||
    row.orgId !== auth.orgId ||
    row.revokedAt ||
    (scopeProject && row.projectId !== null && row.projectId !== scopeProject) ||
    (auth.projectId && row.projectId !== auth.projectId)
  ) {
    throw new ApiError('not_found', `No active API key ${keyId}.`);
  }
  return row;
}

/**
 * Revokes a key at once (DELETE /v1/api-keys/{keyId}, 204), audited as `api_key.revoked`.
 * @throws ApiError not_found for unknown, other-organization, out-of-scope or already revoked keys.
 */
export async function revokeApiKey(ctx: AppContext, auth: RequestAuth, keyId: string): Promise<void> {
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    const found = await findManageableKey({ prisma: tx }, auth, keyId, null);
    const { count } = await tx.apiKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: new Date() } });
    if (count !== 1) throw new ApiError('not_found', `No active API key ${keyId}.`);
    await recordAudit(tx, {
      orgId: auth.orgId,
      projectId: found.projectId,
      auth,
      action: 'api_key.revoked',
      resource: { type: 'api_key', id: found.id, name: found.name },
      metadata: { prefix: found.prefix, scope: scopeOf(parsePermissions(found.permissions)) },
    });
    return found;
  });
  ctx.events.emit('apiKey.revoked', { keyId: row.id, hash: row.hash });
}

/**
 * The active key `keyId` when the caller may manage it (`DELETE /v1/api-keys/{keyId}`'s rule).
 * @throws ApiError not_found for an unknown or revoked key, another organization's key, and for a
 *   project-scoped caller a key of another project or an organization-wide one.
 */
export async function findApiKeyForCaller(ctx: AppContext, auth: RequestAuth, keyId: string): Promise<ApiKeyRow> {
  return findManageableKey(ctx.db, auth, keyId, null);
}

/**
 * Rotates a key in one transaction: the old key is revoked and a new one with the same name,
 * permissions, project scope, mode and expiry is issued (`previousKeyId` = old id). The old key
 * stops working before this returns. An expired key counts as inactive (404).
 * @throws ApiError not_found when the project is not the caller's, or the key does not exist,
 *   belongs to another project or organization, is revoked or expired.
 */
export async function rotateApiKey(ctx: AppContext, auth: RequestAuth, projectId: string, keyId: string): Promise<RotatedApiKey> {
  await getProjectForCaller(ctx, auth, projectId);
  const { old, created } = await ctx.db.prisma.$transaction(async (tx) => {
    const found = await findManageableKey({ prisma: tx }, auth, keyId, projectId);
    if (found.expiresAt && found.expiresAt.getTime() <= Date.now()) throw new ApiError('not_found', `No active API key ${keyId}.`);
    const { count } = await tx.apiKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: new Date() } });
    if (count !== 1) throw new ApiError('not_found', `No active API key ${keyId}.`);
    const permissions = parsePermissions(found.permissions);
    const result = await createApiKey({ prisma: tx }, {
      orgId: found.orgId,
      createdById: auth.userId ?? found.createdById,
      name: found.name,
      permissions,
      projectId: found.projectId,
      expiresAt: found.expiresAt,
      mode: found.mode === 'test' ? 'test' : 'live',
      previousKeyId: found.id,
    });
    await recordAudit(tx, {
      orgId: auth.orgId,
      projectId,
      auth,
      action: 'api_key.rotated',
      resource: { type: 'api_key', id: result.record.id, name: result.record.name },
      metadata: { previousKeyId: found.id, prefix: result.record.prefix, scope: scopeOf(permissions) },
    });
    return { old: found, created: result };
  });
  ctx.events.emit('apiKey.revoked', { keyId: old.id, hash: old.hash });
  const permissions = parsePermissions(created.record.permissions);
  return {
    id: created.record.id,
    name: created.record.name,
    key: created.key,
    prefix: created.record.prefix,
    scope: scopeOf(permissions),
    permissions,
    expiresAt: created.record.expiresAt?.toISOString() ?? null,
    createdAt: created.record.createdAt.toISOString(),
    previousKeyId: old.id,
  };
}
