/**
 * Audit log (interface-spec.md "Audit entry", "Audit log"): entry shape, list query and export query.
 */
import { z } from 'zod';
import { TimestampSchema } from './common';

/**
 * Resource types of audit entries: the spec's `resource` filter values first, then those of
 * collaboration and access control (every type `recordAudit` is called with can be filtered on).
 */
export const AUDIT_RESOURCE_TYPES = [
  'settings', 'build', 'domain', 'api_key', 'webhook', 'audience',
  'access_rule', 'ip_allowlist', 'preview_link', 'approval', 'approval_gate', 'git_credential', 'glossary_term',
  'linter', 'member', 'ownership_rule', 'review', 'review_comment', 'schedule', 'style_rule',
] as const;
export const AuditResourceTypeSchema = z.enum(AUDIT_RESOURCE_TYPES);
export type AuditResourceType = z.infer<typeof AuditResourceTypeSchema>;

/** One audit entry; the actor's fields are empty strings when the account was deleted. */
export const AuditEntrySchema = z.object({
  id: z.string(),
  action: z.string().describe('e.g. settings.updated, api_key.rotated, build.triggered'),
  actor: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  resource: z.object({ type: z.string(), id: z.string(), name: z.string().optional() }),
  metadata: z.record(z.string(), z.unknown()).describe('Action details, e.g. changes: [changed field names]; secrets appear by name only'),
  createdAt: TimestampSchema,
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** Filters shared by the list and the export. */
const filters = {
  actor: z.string().trim().min(1).max(200).optional().describe('Case-insensitive substring of the actor email'),
  resource: AuditResourceTypeSchema.optional(),
};

/** Query of `GET .../audit-log`: `page` (default 1), `limit` (default 50; above 100 is clamped to 100). */
export const AuditLogQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).default(50).transform((n) => Math.min(n, 100)),
  ...filters,
});
export type AuditLogQuery = z.infer<typeof AuditLogQuerySchema>;

/** Query of `GET .../audit-log/export`: `format` csv (default) or jsonl, plus the list's filters. */
export const AuditExportQuerySchema = z.object({
  format: z.enum(['csv', 'jsonl']).default('csv'),
  ...filters,
});
export type AuditExportQuery = z.infer<typeof AuditExportQuerySchema>;
