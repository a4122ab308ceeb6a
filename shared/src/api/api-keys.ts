/**
 * API keys (interface-spec.md "API key", "Authentication"; decisions.md section 2).
 * Permission and scope vocabularies, the create body, and the three response shapes:
 * list/create use snake_case, rotate uses camelCase (as the spec shows).
 */
import { z } from 'zod';
import { TimestampSchema } from './common';

/** Every permission a key can carry; `admin` implies all others; `webhook:create` allows manual redelivery. */
export const PERMISSIONS = [
  'projects:read',
  'projects:write',
  'builds:read',
  'builds:write',
  'search:read',
  'admin',
  'webhook:create',
] as const;
export const PermissionSchema = z.enum(PERMISSIONS);
/** One permission value, e.g. `builds:write`. */
export type Permission = z.infer<typeof PermissionSchema>;

/** The scope model of the spec: `full`, `build`, `read`. */
export const ScopeSchema = z.enum(['full', 'build', 'read']);
export type Scope = z.infer<typeof ScopeSchema>;

/** decisions.md section 2: what each scope grants. */
export const SCOPE_PERMISSIONS: Readonly<Record<Scope, readonly Permission[]>> = {
  full: ['admin'],
  build: ['projects:read', 'builds:read', 'builds:write'],
  read: ['projects:read', 'builds:read', 'search:read'],
};

/** decisions.md section 2: `full` if the key has `admin`, else `build` if it has `builds:write`, else `read`. */
export function scopeOf(permissions: readonly Permission[]): Scope {
  if (permissions.includes('admin')) return 'full';
  if (permissions.includes('builds:write')) return 'build';
  return 'read';
}

/** True when `granted` allows `needed` (`admin` implies every permission). */
export function hasPermission(granted: readonly Permission[], needed: Permission): boolean {
  return granted.includes('admin') || granted.includes(needed);
}

/** Key lifetime on create (decisions.md section 2); default `never`. */
export const ExpiresInSchema = z.enum(['30d', '90d', '1y', 'never']);
export type ExpiresIn = z.infer<typeof ExpiresInSchema>;

/** `live` keys (`quire_…`) or `test` keys (`sk_test_…`, whose builds are always previews). */
export const KeyModeSchema = z.enum(['live', 'test']);
export type KeyMode = z.infer<typeof KeyModeSchema>;

/** Body of `POST /v1/api-keys`: `permissions` or `scope` (exactly one). */
export const CreateApiKeyBodySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(100).describe('Display name'),
    permissions: z.array(PermissionSchema).min(1).max(PERMISSIONS.length).optional()
      .describe('Permission list; give this or scope'),
    scope: ScopeSchema.optional().describe('full = [admin]; build = [projects:read, builds:read, builds:write]; read = [projects:read, builds:read, search:read]'),
    projectId: z.string().min(1).max(64).optional().describe('Restrict the key to one project (default: organization-wide)'),
    expiresIn: ExpiresInSchema.default('never').describe('Lifetime; default never'),
    mode: KeyModeSchema.default('live').describe('live (quire_ prefix) or test (sk_test_ prefix; builds are previews)'),
  })
  .superRefine((body, ctx) => {
    if (body.permissions && body.scope) {
      ctx.addIssue({ code: 'custom', path: ['scope'], message: 'give either permissions or scope, not both' });
    } else if (!body.permissions && !body.scope) {
      ctx.addIssue({ code: 'custom', path: ['permissions'], message: 'required (or give scope)' });
    }
  });
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBodySchema>;

/** A key as listed (snake_case; never the secret). */
export const ApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('The part of the key before the secret, e.g. quire_ab12cd34'),
  permissions: z.array(PermissionSchema),
  scope: ScopeSchema,
  mode: KeyModeSchema,
  project_id: z.string().nullable(),
  created_at: TimestampSchema,
  last_used_at: TimestampSchema.nullable(),
  expires_at: TimestampSchema.nullable(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** The create response: the listed shape plus the full `key`, shown only this once. */
export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().describe('The full key; returned only now, never retrievable again'),
});
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;

/** The rotate response (camelCase, as the spec shows). */
export const RotatedApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  key: z.string().describe('The new full key; returned only now'),
  prefix: z.string(),
  scope: ScopeSchema,
  permissions: z.array(PermissionSchema),
  expiresAt: TimestampSchema.nullable(),
  createdAt: TimestampSchema,
  previousKeyId: z.string().describe('Id of the key revoked by this rotation'),
});
export type RotatedApiKey = z.infer<typeof RotatedApiKeySchema>;
