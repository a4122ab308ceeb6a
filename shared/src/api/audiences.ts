/**
 * REST shapes of audience profiles and their access tokens (interface-spec.md "Audience profile",
 * "Audience access token", "Endpoints > Audience profiles", "Errors"; decisions.md section 6).
 *
 * Envelopes, read literally from the spec's Conventions: create, update and delete of a profile and
 * token generation answer their object (or `{deleted: true, id}`) WITHOUT `data`; the two reads
 * follow the general rule (`{data: profile}`, and `{data: [profile]}` for the unpaginated list).
 *
 * The spec's own error codes cannot come from schema validation (which always answers 400
 * `invalid_request`), so these schemas let through what the service refuses with them: any string
 * as `slug` (400 `invalid_slug`, see {@link audienceSlugIssue}), a missing, null or empty
 * `audiences` (422 `empty_audiences`), and on PATCH a `slug` (422 `slug_immutable` unless it equals
 * the current one).
 */
import { z } from 'zod';
import { TimestampSchema } from './common';
import { ExpiresInSchema } from './api-keys';

/** Longest audience profile slug (ours; the spec gives none). */
export const AUDIENCE_SLUG_MAX_LENGTH = 100;
/** Longest profile name. */
export const AUDIENCE_NAME_MAX_LENGTH = 200;
/** Longest profile description. */
export const AUDIENCE_DESCRIPTION_MAX_LENGTH = 1_000;
/** Longest audience tag (after trimming). */
export const AUDIENCE_TAG_MAX_LENGTH = 100;
/** Most tags one profile holds. */
export const AUDIENCE_TAGS_MAX = 50;
/** Longest token label. */
export const AUDIENCE_TOKEN_LABEL_MAX_LENGTH = 200;

/** The query parameter of a magic link, `<site>/?_quire_token=<token>` (decisions.md section 6, the spec's `_<brand>_token`). */
export const MAGIC_LINK_PARAMETER = '_quire_token';

/**
 * The spec's slug rule, literally ("lowercase letters/numbers/hyphens"; error `invalid_slug`: "audience
 * slug has characters other than lowercase letters, numbers, hyphens"). Unlike project slugs, an
 * audience slug never becomes a host name, so hyphens may lead, trail or repeat.
 */
export const AUDIENCE_SLUG_PATTERN = /^[a-z0-9-]+$/;

/**
 * Why `slug` is not a valid audience profile slug, or null: empty, longer than
 * {@link AUDIENCE_SLUG_MAX_LENGTH}, or holding a character other than `a-z`, `0-9` and `-`.
 * The service answers the issue as 400 `invalid_slug` with `details: {field: 'slug', issue}`.
 */
export function audienceSlugIssue(slug: string): string | null {
  if (slug.length === 0) return 'must not be empty';
  if (slug.length > AUDIENCE_SLUG_MAX_LENGTH) return `must be at most ${AUDIENCE_SLUG_MAX_LENGTH} characters`;
  if (!AUDIENCE_SLUG_PATTERN.test(slug)) return 'may hold only lowercase letters, numbers and hyphens';
  return null;
}

/** One audience tag: trimmed, 1 to {@link AUDIENCE_TAG_MAX_LENGTH} characters. */
export const AudienceTagSchema = z
  .string()
  .trim()
  .min(1)
  .max(AUDIENCE_TAG_MAX_LENGTH)
  .describe("An audience tag, matched against the `audience` field of a page's frontmatter (exact, case-sensitive, after trimming)");

/**
 * `audiences` of a create or update body: at most {@link AUDIENCE_TAGS_MAX} tags (duplicates are
 * kept once, first occurrence first). Missing, null or `[]` is let through for the service to
 * answer 422 `empty_audiences`.
 */
const AudienceTagsInputSchema = z
  .array(AudienceTagSchema)
  .max(AUDIENCE_TAGS_MAX)
  .nullable()
  .optional()
  .describe(`Audience tags (1 to ${AUDIENCE_TAGS_MAX}; duplicates kept once). Missing, null or empty: 422 empty_audiences`);

const nameField = z.string().trim().min(1).max(AUDIENCE_NAME_MAX_LENGTH);
const descriptionField = z.string().max(AUDIENCE_DESCRIPTION_MAX_LENGTH);

/** Body of `POST /v1/projects/{projectId}/audiences`. */
export const CreateAudienceProfileBodySchema = z.strictObject({
  name: nameField.describe('Display name'),
  slug: z
    .string()
    .describe(`Unique within the project; lowercase letters, numbers and hyphens, at most ${AUDIENCE_SLUG_MAX_LENGTH} characters (400 invalid_slug otherwise); immutable`),
  description: descriptionField.nullable().optional(),
  audiences: AudienceTagsInputSchema,
});
export type CreateAudienceProfileBody = z.infer<typeof CreateAudienceProfileBodySchema>;

/** Body of `PATCH /v1/projects/{projectId}/audiences/{profileId}`: only given fields change. */
export const UpdateAudienceProfileBodySchema = z.strictObject({
  name: nameField.optional(),
  description: descriptionField.nullable().optional().describe('null clears it'),
  audiences: AudienceTagsInputSchema.describe('Replaces every tag; cannot be empty (422 empty_audiences)'),
  slug: z
    .string()
    .optional()
    .describe('Slugs are immutable: a value other than the current slug answers 422 slug_immutable (the current value is accepted and changes nothing)'),
});
export type UpdateAudienceProfileBody = z.infer<typeof UpdateAudienceProfileBodySchema>;

/** An audience profile as returned. */
export const AudienceProfileSchema = z.object({
  id: z.string().describe('aud_<id>'),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  audiences: z.array(z.string()).describe('Audience tags; a gated page opens for a token of this profile when one of them is among the page\'s'),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type AudienceProfile = z.infer<typeof AudienceProfileSchema>;

/** Answer of `DELETE /v1/projects/{projectId}/audiences/{profileId}` (spec: `{deleted: true, id}`, no envelope). */
export const DeletedAudienceProfileSchema = z.object({ deleted: z.literal(true), id: z.string() });
export type DeletedAudienceProfile = z.infer<typeof DeletedAudienceProfileSchema>;

/** Body of `POST /v1/projects/{projectId}/audiences/{profileId}/token`. */
export const CreateAudienceTokenBodySchema = z.strictObject({
  expiresIn: ExpiresInSchema.default('30d').describe('Lifetime: 30d (default), 90d, 1y (365 days) or never'),
  label: z.string().trim().max(AUDIENCE_TOKEN_LABEL_MAX_LENGTH).optional().describe('A note of whom the token is for (shown in the audit log)'),
  claims: z
    .record(z.string(), z.union([z.string(), z.record(z.string(), z.record(z.string(), z.string()))]))
    .optional()
    .describe(
      'Who the reader is, for personalised pages (Mintlify-style `{user.name}` in MDX): string fields (`name`, `plan`, fields the site declares in docs.json ' +
        '`personalization.fields`; names of letters, digits and _, at most 16, values up to 200 characters) and optionally `apiPlaygroundInputs` ' +
        '(`{"header": {"X-API-Key": "..."}}`, also `query`, `path`, `server`: values the API playground pre-fills). At most 1,024 bytes in all; ' +
        'signed into the token, so the holder of the token can read them. 400 invalid_request when malformed.',
    ),
});
export type CreateAudienceTokenBody = z.infer<typeof CreateAudienceTokenBodySchema>;

/** The token generation result (spec "Audience access token (generation result)"); no envelope. */
export const AudienceTokenResultSchema = z.object({
  token: z.string().describe('The signed token, base64url(JSON payload).base64url(HMAC-SHA256) (decisions.md section 6); shown only here'),
  magicLink: z.string().describe("The project's production site (its active custom domain when it has one) with `?_quire_token=<token>` (opening it sets the visitor's cookie)"),
  expiresAt: TimestampSchema.nullable().describe('null when the token never expires'),
  audiences: z.array(z.string()).describe("The profile's tags now; the profile's current tags decide access at each request"),
  label: z.string().nullable().describe('The label given, or null'),
});
export type AudienceTokenResult = z.infer<typeof AudienceTokenResultSchema>;

/** Path parameters of `/v1/projects/{projectId}/audiences/{profileId}`. */
export const AudienceProfileParamsSchema = z.object({ projectId: z.string().min(1).max(64), profileId: z.string().min(1).max(64) });
