/**
 * REST shapes of access control and preview links (interface-spec.md "Collaboration": Access control
 * `/access-rules`, `/ip-allowlists`, `/access-check`, `/access-logs`; Preview links `/previews`;
 * decisions.md sections 2 and 9; the payloads are Quire's own and are written into the OpenAPI
 * document), and the one notation of IP addresses and CIDR ranges these rules use.
 *
 * - An **access rule** names a glob over page paths (shared/src/collab/path-glob.ts; a leading `/`
 *   is ignored) and the audience tags and CIDR ranges that may read the pages it matches: a
 *   visitor passes it with a token opening one of its audiences OR an address in one of its ranges.
 * - An **IP allowlist** names CIDR ranges and the page globs it guards (none: the whole site): a
 *   visitor outside its ranges is refused on the paths it guards.
 * - Every enabled rule and allowlist applies on its own: a request must pass all of those matching
 *   its path (none widens what another restricts). A gated page (frontmatter `audience`) still
 *   needs its token on top.
 */
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { TimestampSchema } from './common';
import { validatePathGlob } from '../collab/path-glob';
import { WebhookHistoryFiltersSchema } from './webhooks';

// ---------------------------------------------------------------------------------------------
// IP addresses and CIDR ranges (the one notation every access check uses)
// ---------------------------------------------------------------------------------------------

/** Strict prefix length text: decimal without leading zeros. */
const PREFIX_TEXT = /^(?:0|[1-9]\d{0,2})$/;

/** An IPv6 address without its zone (`fe80::1%eth0` → `fe80::1`). */
function withoutZone(address: ipaddr.IPv6): ipaddr.IPv6 {
  return address.zoneId ? new ipaddr.IPv6(address.parts) : address;
}

/** A parsed address in canonical form: IPv4-mapped IPv6 (`::ffff:1.2.3.4`) becomes the IPv4 address. */
function canonical(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (address.kind() === 'ipv4') return address;
  const v6 = withoutZone(address as ipaddr.IPv6);
  return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
}

/** Parses strict notation: IPv4 in four decimal parts (no `127.1`, no octal or hex), or any IPv6 form. */
function parseStrict(text: string, allowZone: boolean): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!ipaddr.IPv6.isValid(text)) return null;
  const v6 = ipaddr.IPv6.parse(text);
  return v6.zoneId && !allowZone ? null : v6;
}

/**
 * The canonical text of one IP address, the form access rules compare: IPv4 dotted quad
 * (`10.0.0.1`), IPv6 in RFC 5952 compact form (`2001:db8::1`), an IPv4-mapped IPv6 address as
 * its IPv4 address (`::ffff:10.0.0.1` → `10.0.0.1`: a dual-stack socket reports IPv4 clients that
 * way), a zone (`%eth0`) dropped.
 * @param text an address as a socket, a header or a user gives it (no port, no brackets).
 * @returns null when `text` is not an address in strict notation (IPv4 must have four decimal parts).
 */
export function canonicalIp(text: string): string | null {
  const parsed = parseStrict(text, true);
  return parsed ? canonical(parsed).toString() : null;
}

/**
 * The canonical text of one CIDR range: the network address (host bits cleared) and the prefix
 * length, e.g. `10.1.2.3/8` → `10.0.0.0/8`, `2001:DB8::/32` → `2001:db8::/32`. A bare address is
 * a single-address range (`/32` for IPv4, `/128` for IPv6). An IPv4-mapped IPv6 range of prefix
 * 96 or more becomes the IPv4 range it covers (`::ffff:10.0.0.0/104` → `10.0.0.0/8`), so it
 * matches IPv4 clients. Parsed with ipaddr.js `parseCIDR`.
 * @returns null when `text` is not a range in strict notation (IPv4 in four decimal parts, prefix
 *   0..32 or 0..128 without leading zeros, no zone).
 */
export function canonicalCidr(text: string): string | null {
  const slash = text.indexOf('/');
  const addressText = slash === -1 ? text : text.slice(0, slash);
  const address = parseStrict(addressText, false);
  if (!address) return null;
  let prefix = address.kind() === 'ipv4' ? 32 : 128;
  if (slash !== -1) {
    const prefixText = text.slice(slash + 1);
    if (!PREFIX_TEXT.test(prefixText)) return null;
    try {
      prefix = ipaddr.parseCIDR(`${addressText}/${prefixText}`)[1];
    } catch {
      return null;
    }
  }
  let base: ipaddr.IPv4 | ipaddr.IPv6 = address;
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    base = (address as ipaddr.IPv6).toIPv4Address();
    prefix -= 96;
  }
  const network =
    base.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${base.toString()}/${prefix}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${base.toString()}/${prefix}`);
  return `${network.toString()}/${prefix}`;
}

/** Most CIDR ranges in one rule or allowlist. */
export const MAX_CIDRS = 100;
/** Most audience tags in one rule. */
export const MAX_RULE_AUDIENCES = 50;
/** Most page globs one allowlist guards. */
export const MAX_ALLOWLIST_PATHS = 50;
/** Most access rules, and most IP allowlists, of one project. */
export const MAX_ACCESS_RULES = 200;

/** One CIDR range (IPv4 or IPv6; a bare address is one address), stored and returned in canonical form ({@link canonicalCidr}). */
export const CidrSchema = z
  .string()
  .max(100, 'at most 100 characters')
  .transform((text, ctx) => {
    const cidr = canonicalCidr(text.trim());
    if (cidr === null) {
      ctx.addIssue({ code: 'custom', message: `"${text}" is not a CIDR range or IP address (e.g. 203.0.113.0/24, 2001:db8::/32, 198.51.100.7)` });
      return z.NEVER;
    }
    return cidr;
  })
  .describe('A CIDR range, IPv4 or IPv6 (`203.0.113.0/24`, `2001:db8::/32`); a bare address means /32 or /128. Returned in canonical form (network address, compact IPv6; IPv4-mapped IPv6 ranges as IPv4)');

/** A list of CIDR ranges, canonical and without duplicates. */
const CidrListSchema = z
  .array(CidrSchema)
  .max(MAX_CIDRS, `at most ${MAX_CIDRS} ranges`)
  .transform((list) => [...new Set(list)]);

/** One IP address (`ip` of `/access-check`), returned in canonical form ({@link canonicalIp}). */
export const IpAddressSchema = z
  .string()
  .max(100, 'at most 100 characters')
  .transform((text, ctx) => {
    const ip = canonicalIp(text.trim());
    if (ip === null) {
      ctx.addIssue({ code: 'custom', message: `"${text}" is not an IPv4 or IPv6 address` });
      return z.NEVER;
    }
    return ip;
  })
  .describe('An IPv4 (four decimal parts) or IPv6 address');

// ---------------------------------------------------------------------------------------------
// Access rules and IP allowlists
// ---------------------------------------------------------------------------------------------

/** One audience tag (a page's frontmatter `audience` value, a profile's `audiences` member). */
export const AudienceTagSchema = z.string().trim().min(1, 'must not be empty').max(100, 'at most 100 characters');

const AudienceListSchema = z
  .array(AudienceTagSchema)
  .max(MAX_RULE_AUDIENCES, `at most ${MAX_RULE_AUDIENCES} audiences`)
  .transform((list) => [...new Set(list)]);

/** The glob rules of page paths, for the OpenAPI document. */
export const PAGE_GLOB_RULES =
  'Globs match page paths as the site serves them, without extension (`guides/setup`, `index` for the home page); a leading `/` is ignored; `*` stays within a folder, `**` crosses folders (`internal/**`, `/admin/*`, `**/secret-*`).';

/**
 * What a refused page leaves out besides itself (decisions.md sections 6 and 9: a rule protects the
 * page wherever the site would name it; server/src/sites/page-filter.ts), for the OpenAPI document.
 */
export const REFUSED_PAGE_HIDDEN =
  'A page a rule or allowlist refuses a visitor is also left out of everything the site shows them: the sidebar, previous/next links, tabs and navbar of the pages they may read, the not-found page and its "Did you mean" suggestions, the gate page, search, the assistant, the MCP server, `llms.txt`, `llms-full.txt` and `sitemap.xml`. What still names a protected page, for a visitor who may read it, is sent `private, no-store`.';

/** One glob over page paths, checked with `validatePathGlob` (shared/src/collab/path-glob.ts). */
export const PageGlobSchema = z
  .string()
  .superRefine((glob, ctx) => {
    const problem = validatePathGlob(glob);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe(`A glob over page paths. ${PAGE_GLOB_RULES}`);

const NameSchema = z.string().trim().min(1, 'must not be empty').max(200, 'at most 200 characters');

const ruleFields = {
  name: NameSchema,
  pathPattern: PageGlobSchema,
  audiences: AudienceListSchema.describe('Audience tags: a visitor whose audience token opens one of them passes the rule'),
  cidrs: CidrListSchema.describe('CIDR ranges: a visitor whose address is in one of them passes the rule'),
  enabled: z.boolean().describe('A disabled rule is kept but never applied'),
};

/** A rule must let someone in: at least one audience or one range. */
function needsAudienceOrCidr(rule: { audiences?: string[]; cidrs?: string[] }, ctx: z.RefinementCtx): void {
  if ((rule.audiences?.length ?? 0) + (rule.cidrs?.length ?? 0) === 0) {
    ctx.addIssue({ code: 'custom', path: ['audiences'], message: 'name at least one audience or one CIDR range' });
  }
}

/** `POST /access-rules`. */
export const AccessRuleBodySchema = z
  .object({
    name: ruleFields.name,
    pathPattern: ruleFields.pathPattern,
    audiences: ruleFields.audiences.default([]),
    cidrs: ruleFields.cidrs.default([]),
    enabled: ruleFields.enabled.default(true),
  })
  .strict()
  .superRefine(needsAudienceOrCidr);
export type AccessRuleBody = z.infer<typeof AccessRuleBodySchema>;

/** `PATCH /access-rules/{ruleId}`: the fields to change (at least one); the result must still name an audience or a range. */
export const AccessRulePatchSchema = z
  .object({
    name: ruleFields.name.optional(),
    pathPattern: ruleFields.pathPattern.optional(),
    audiences: ruleFields.audiences.optional(),
    cidrs: ruleFields.cidrs.optional(),
    enabled: ruleFields.enabled.optional(),
  })
  .strict()
  .refine((patch) => Object.values(patch).some((v) => v !== undefined), { message: 'give at least one field to change' });
export type AccessRulePatch = z.infer<typeof AccessRulePatchSchema>;

/** An access rule as returned. */
export const AccessRuleSchema = z.object({
  id: z.string().describe('acr_<id>'),
  name: z.string(),
  pathPattern: z.string(),
  audiences: z.array(z.string()),
  cidrs: z.array(z.string()),
  enabled: z.boolean(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type AccessRule = z.infer<typeof AccessRuleSchema>;

const allowlistFields = {
  name: NameSchema,
  cidrs: CidrListSchema.describe('CIDR ranges allowed'),
  paths: z
    .array(PageGlobSchema)
    .max(MAX_ALLOWLIST_PATHS, `at most ${MAX_ALLOWLIST_PATHS} globs`)
    .transform((list) => [...new Set(list)])
    .describe('Page globs the allowlist guards; empty: the whole site'),
  enabled: z.boolean().describe('A disabled allowlist is kept but never applied'),
};

/** `POST /ip-allowlists`. */
export const IpAllowlistBodySchema = z
  .object({
    name: allowlistFields.name,
    cidrs: allowlistFields.cidrs.refine((list) => list.length > 0, 'name at least one CIDR range'),
    paths: allowlistFields.paths.default([]),
    enabled: allowlistFields.enabled.default(true),
  })
  .strict();
export type IpAllowlistBody = z.infer<typeof IpAllowlistBodySchema>;

/** `PATCH /ip-allowlists/{allowlistId}`: the fields to change (at least one). */
export const IpAllowlistPatchSchema = z
  .object({
    name: allowlistFields.name.optional(),
    cidrs: allowlistFields.cidrs.refine((list) => list.length > 0, 'name at least one CIDR range').optional(),
    paths: allowlistFields.paths.optional(),
    enabled: allowlistFields.enabled.optional(),
  })
  .strict()
  .refine((patch) => Object.values(patch).some((v) => v !== undefined), { message: 'give at least one field to change' });
export type IpAllowlistPatch = z.infer<typeof IpAllowlistPatchSchema>;

/** An IP allowlist as returned. */
export const IpAllowlistSchema = z.object({
  id: z.string().describe('ipl_<id>'),
  name: z.string(),
  cidrs: z.array(z.string()),
  paths: z.array(z.string()).describe('Guarded page globs; empty: the whole site'),
  enabled: z.boolean(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type IpAllowlist = z.infer<typeof IpAllowlistSchema>;

/** Path parameters of one rule and of one allowlist. */
export const AccessRuleParamsSchema = z.object({ projectId: z.string().min(1).max(64), ruleId: z.string().min(1).max(64).describe('acr_<id>') });
export const IpAllowlistParamsSchema = z.object({ projectId: z.string().min(1).max(64), allowlistId: z.string().min(1).max(64).describe('ipl_<id>') });

// ---------------------------------------------------------------------------------------------
// Decisions: access check and access logs
// ---------------------------------------------------------------------------------------------

/**
 * Why a site request was refused: `gated_page` (the page's audience needs a token that opens it),
 * `invalid_token` (a gated page with a token that opens nothing: malformed, expired, revoked...),
 * `access_rule`, `ip_allowlist`, `preview_link` (a preview link expired, revoked or with a wrong password).
 */
export const DENIAL_REASONS = ['gated_page', 'access_rule', 'ip_allowlist', 'invalid_token', 'preview_link'] as const;
export const DenialReasonSchema = z.enum(DENIAL_REASONS);
export type DenialReason = z.infer<typeof DenialReasonSchema>;

/** Kinds of what decides: a rule, an allowlist, or (in the logs) a preview link. */
export const DecidingRuleTypeSchema = z.enum(['access_rule', 'ip_allowlist', 'preview_link']);
export type DecidingRuleType = z.infer<typeof DecidingRuleTypeSchema>;

/** `POST /access-check`. */
export const AccessCheckBodySchema = z
  .object({
    path: z.string().min(1, 'must not be empty').max(2000, 'at most 2000 characters').describe('A page path of the site (`/guides/setup`, `guides/setup`, `/` for the home page)'),
    ip: IpAddressSchema.describe("The visitor's address"),
    token: z.string().min(1, 'must not be empty').max(4096, 'at most 4096 characters').optional().describe("The visitor's audience token, if any"),
  })
  .strict();
export type AccessCheckBody = z.infer<typeof AccessCheckBodySchema>;

/** What `/access-check` answers: the decision the site would make for that visitor now. */
export const AccessCheckResultSchema = z.object({
  allowed: z.boolean(),
  reason: DenialReasonSchema.nullable().describe('Why the visitor is refused; null when allowed'),
  rule: z
    .object({ id: z.string(), name: z.string(), type: z.enum(['access_rule', 'ip_allowlist']) })
    .nullable()
    .describe('The rule or allowlist that decided: the one refusing, or (when allowed) the narrowest one the visitor passed; null when none applies'),
  audiences: z.array(z.string()).describe('The audience tags the token opens ([] without a valid token)'),
  tokenRefusal: z
    .enum(['malformed', 'bad_signature', 'other_project', 'expired', 'profile_deleted', 'revoked'])
    .nullable()
    .describe('Why the token given opens nothing; null without a token or with a valid one'),
  page: z
    .object({ path: z.string(), audience: z.array(z.string()).describe('Tags of a gated page; [] when it is not gated') })
    .nullable()
    .describe('The page of the production site the path names; null when the site has no such page (rules still apply)'),
});
export type AccessCheckResult = z.infer<typeof AccessCheckResultSchema>;

/** Filters of `GET /access-logs` (the route adds `page`, `pageSize`/`per_page` and checks the range with `checkHistoryRange` of ./webhooks). */
export const AccessLogFiltersSchema = z.object({
  reason: DenialReasonSchema.optional().describe('Only denials for this reason'),
  from: WebhookHistoryFiltersSchema.shape.from.describe('Only denials at or after this ISO 8601 date-time, or from the start of this date (UTC)'),
  to: WebhookHistoryFiltersSchema.shape.to.describe('Only denials at or before this ISO 8601 date-time, or up to the end of this date (UTC)'),
});
export type AccessLogFilters = z.infer<typeof AccessLogFiltersSchema>;

/** One denied site request. */
export const AccessLogEntrySchema = z.object({
  id: z.string().describe('alg_<id>'),
  host: z.string().describe('The Host the request named'),
  path: z.string().describe('The page or file path requested'),
  ip: z.string().describe("The visitor's address (through trusted proxies, QUIRE_TRUSTED_PROXIES)"),
  reason: DenialReasonSchema,
  rule: z
    .object({ id: z.string(), type: DecidingRuleTypeSchema, name: z.string().nullable().describe('null once it was deleted') })
    .nullable()
    .describe('The rule, allowlist or preview link that refused, when one did'),
  createdAt: TimestampSchema.describe('When the request was refused'),
});
export type AccessLogEntry = z.infer<typeof AccessLogEntrySchema>;

// ---------------------------------------------------------------------------------------------
// Preview links
// ---------------------------------------------------------------------------------------------

/** Lifetimes `expiresIn` accepts, in milliseconds. */
export const PREVIEW_LINK_LIFETIMES = { '1h': 3_600_000, '1d': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
export type PreviewLinkLifetime = keyof typeof PREVIEW_LINK_LIFETIMES;

/** Password length bounds of a preview link. */
export const PREVIEW_PASSWORD_MIN = 8;
export const PREVIEW_PASSWORD_MAX = 200;

const PreviewPasswordSchema = z
  .string()
  .min(PREVIEW_PASSWORD_MIN, `at least ${PREVIEW_PASSWORD_MIN} characters`)
  .max(PREVIEW_PASSWORD_MAX, `at most ${PREVIEW_PASSWORD_MAX} characters`)
  .describe(`Visitors must type it before the preview opens (${PREVIEW_PASSWORD_MIN}–${PREVIEW_PASSWORD_MAX} characters; stored hashed, never returned)`);
const LabelSchema = z.string().trim().min(1, 'must not be empty').max(200, 'at most 200 characters');
const ExpiresAtSchema = z.iso.datetime({ offset: true }).describe('ISO 8601 date-time with offset, in the future');
const ExpiresInSchema = z.enum(Object.keys(PREVIEW_LINK_LIFETIMES) as [PreviewLinkLifetime, ...PreviewLinkLifetime[]]).describe('Lifetime from now: 1h, 1d, 7d or 30d');

/** `expiresAt` and `expiresIn` exclude each other. */
function oneExpiry(body: { expiresAt?: string | null; expiresIn?: string }, ctx: z.RefinementCtx): void {
  if (body.expiresAt !== undefined && body.expiresIn !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['expiresIn'], message: 'give expiresAt or expiresIn, not both' });
  }
}

/** `POST /previews`. */
export const PreviewLinkBodySchema = z
  .object({
    previewName: z.string().min(1).max(100).describe('A preview channel of the project with a deployment (`pr-12`, `feature-x`: the first label of its host `<previewName>--<slug>-docs`)'),
    label: LabelSchema.optional().describe('Who or what the link is for'),
    password: PreviewPasswordSchema.optional(),
    expiresAt: ExpiresAtSchema.optional(),
    expiresIn: ExpiresInSchema.optional(),
  })
  .strict()
  .superRefine(oneExpiry);
export type PreviewLinkBody = z.infer<typeof PreviewLinkBodySchema>;

/** `PATCH /previews/{previewId}`: change label, expiry or password (null removes), or `{revoked: true}` (final). */
export const PreviewLinkPatchSchema = z
  .object({
    label: LabelSchema.nullable().optional(),
    password: PreviewPasswordSchema.nullable().optional(),
    expiresAt: ExpiresAtSchema.nullable().optional().describe('ISO 8601 date-time with offset, in the future; null: never expires'),
    expiresIn: ExpiresInSchema.optional(),
    revoked: z.literal(true).optional().describe('true revokes the link for good'),
  })
  .strict()
  .superRefine(oneExpiry)
  .refine((patch) => Object.values(patch).some((v) => v !== undefined), { message: 'give at least one field to change' });
export type PreviewLinkPatch = z.infer<typeof PreviewLinkPatchSchema>;

/** States of a preview link: `expired` once `expiresAt` passed, `revoked` once revoked (both final for its token). */
export const PreviewLinkStateSchema = z.enum(['active', 'expired', 'revoked']);
export type PreviewLinkState = z.infer<typeof PreviewLinkStateSchema>;

/** A preview link as listed (never its token). */
export const PreviewLinkSchema = z.object({
  id: z.string().describe('pvl_<id>'),
  previewName: z.string(),
  previewUrl: z.string().describe('The preview site the link opens (without the link token)'),
  label: z.string().nullable(),
  hasPassword: z.boolean(),
  expiresAt: TimestampSchema.nullable().describe('null: never expires'),
  revoked: z.boolean(),
  state: PreviewLinkStateSchema,
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type PreviewLink = z.infer<typeof PreviewLinkSchema>;

/** `POST /previews` answer: the link with its `url`, shown this once. */
export const CreatedPreviewLinkSchema = PreviewLinkSchema.extend({
  url: z.string().describe('`<preview site>/_quire/link/<token>`: share it; shown only in this response (only a hash of the token is kept)'),
});
export type CreatedPreviewLink = z.infer<typeof CreatedPreviewLinkSchema>;

/** Filters of `GET /previews` (the route adds `page`, `pageSize`/`per_page`). */
export const PreviewLinkFiltersSchema = z.object({
  previewName: z.string().min(1).max(100).optional().describe('Only links of this preview channel'),
  state: PreviewLinkStateSchema.optional().describe('Only links in this state'),
});
export type PreviewLinkFilters = z.infer<typeof PreviewLinkFiltersSchema>;

/** Path parameters of one preview link. */
export const PreviewLinkParamsSchema = z.object({ projectId: z.string().min(1).max(64), previewId: z.string().min(1).max(64).describe('pvl_<id>') });

/** Lifetime of a published site's cookies (audience token, preview access), in seconds: 30 days (interface-spec.md "Limits": audience cookie). */
export const SITE_COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** How long a member pass opens its preview, in seconds: 10 minutes (it is made just before it is opened). */
export const PREVIEW_PASS_SECONDS = 10 * 60;
/** How long a member's preview cookie lasts, in seconds: 12 hours (then the member opens the preview from the app again). */
export const MEMBER_PREVIEW_COOKIE_SECONDS = 12 * 60 * 60;

/**
 * `POST /preview-passes`: a project member's pass to a closed preview (decisions.md section 11:
 * previews of a project that protects them, or that have a preview link, open only through a link;
 * members open them with a pass instead of a link).
 */
export const PreviewPassBodySchema = z
  .object({
    url: z
      .string()
      .min(1)
      .max(2048)
      .describe("A preview site URL of the project as the API shows it (a preview build's `url`, a review's `previewUrl`, or a page under one)"),
  })
  .strict();
export type PreviewPassBody = z.infer<typeof PreviewPassBodySchema>;

/** A member pass: the URL that opens the preview in a browser. */
export const PreviewPassSchema = z.object({
  url: z
    .string()
    .describe(
      `\`<preview site>/_quire/pass/<pass>\`: opens the preview (a cookie for ${MEMBER_PREVIEW_COOKIE_SECONDS / 3600} hours on that preview host) ` +
        `on the page asked for; works for ${PREVIEW_PASS_SECONDS / 60} minutes`,
    ),
  previewName: z.string().describe('The preview channel it opens'),
  expiresAt: TimestampSchema.describe('Until when the URL opens the preview'),
});
export type PreviewPass = z.infer<typeof PreviewPassSchema>;
