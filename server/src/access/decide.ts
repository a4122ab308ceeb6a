/**
 * The one decision of who may read a page of a site, used by the site gate on every request and by
 * `POST /access-check` (so the check answers exactly what the site does). Three layers, in order:
 *
 * 1. the visitor's audience token (`verifyAudienceToken`, services/audience-tokens.ts): the tags it
 *    opens, or why it opens nothing;
 * 2. the project's IP allowlists and access rules (`evaluateAccessPolicy`, access/policy.ts);
 * 3. the page gate (decisions.md section 6): a page with frontmatter `audience` opens only to a
 *    token whose profile's tags include one of the page's tags.
 *
 * A refused layer decides; an invalid token alone refuses nothing (an ungated page stays readable).
 */
import { opensAudience } from '@quire/shared/site/audience';
import type { DenialReason } from '@quire/shared/api/access';
import type { AppContext } from '../context';
import { productionSite } from '../services/deployed-site';
import { verifyAudienceToken, verifyAudienceTokenCached, type AudienceGrant, type TokenRefusal } from '../services/audience-tokens';
import { sitePathOf } from '../deployments/site-path';
import type { DeploymentManifest } from '../deployments/manifest';
import { evaluateAccessPolicy, type AccessVerdict } from './policy';

/** Why the site refuses a page (the denial reasons a page request can have). */
export type SiteDenialReason = Exclude<DenialReason, 'preview_link'>;

/** What the site should do with a page request. */
export interface SiteAccessDecision {
  allowed: boolean;
  /** why it is refused; null when allowed */
  reason: SiteDenialReason | null;
  /** the rule (`acr_`) or allowlist (`ipl_`) that decided (see `AccessVerdict.ruleId`); absent for the page gate */
  ruleId?: string;
  ruleName?: string;
  ruleType?: 'ip_allowlist' | 'access_rule';
  /** the tags the visitor's token opens ([] without a valid token) */
  tags: string[];
  /** the valid token's grant (profile, token id, expiry) */
  grant?: AudienceGrant;
  /** why the token given opens nothing (absent without a token or with a valid one) */
  tokenRefusal?: TokenRefusal;
}

/** What {@link decideSiteAccess} decides on. */
export interface SiteAccessInput {
  projectId: string;
  /** page path without leading slash (`guides/setup`, `index` for home); a leading `/` is ignored */
  path: string;
  /** the visitor's canonical address (`clientIp`) */
  ip: string;
  /** the visitor's audience token (cookie, `_quire_token`, `x-audience-token`), if any */
  token?: string;
  /**
   * the page's audience tags from the served deployment's manifest ([] or absent member: not
   * gated). Omitted: read from the project's production deployment (one database and one store
   * read: for `/access-check`, not for serving).
   */
  pageAudience?: string[];
}

/** A page of the production site as `/access-check` names it. */
export interface ProductionPage {
  path: string;
  /** the page's audience tags; [] when it is not gated */
  audience: string[];
}

/**
 * Finds the page a site path names in a manifest: `/` and `""` are the home page, a trailing
 * `.md` (the Markdown view) or `.html` is dropped, `guides/` may be `guides/index`.
 * @param sitePath as a visitor or an admin writes it (`/guides/setup`, `guides/setup.md`, `/`).
 * @returns the page, or null when the manifest has none by that path (or the path is refused by
 *   `sitePathOf`: `..` segments, control characters).
 */
export function manifestPage(manifest: DeploymentManifest, sitePath: string): ProductionPage | null {
  const target = sitePathOf(sitePath.startsWith('/') ? sitePath : `/${sitePath}`);
  if (!target) return null;
  let path = target.path === '' ? (manifest.home ?? 'index') : target.path;
  path = path.replace(/\.(?:md|html)$/, '');
  const page = manifest.pages.find((p) => p.path === path) ?? manifest.pages.find((p) => p.path === `${path}/index`);
  return page ? { path: page.path, audience: page.audience ?? [] } : null;
}

/**
 * The page of the project's production site at `sitePath` (see {@link manifestPage}); null when the
 * project has no production deployment or no such page.
 * @throws Error when the deployment's manifest cannot be read.
 */
export async function productionPage(ctx: AppContext, projectId: string, sitePath: string): Promise<ProductionPage | null> {
  const site = await productionSite(ctx, projectId);
  return site ? manifestPage(site.manifest, sitePath) : null;
}

type TokenOutcome = { tags: string[]; grant?: AudienceGrant; refusal?: TokenRefusal };
const NO_TOKEN: TokenOutcome = { tags: [] };

/** The decision of most site requests (no token, no rule deciding, an ungated page): one shared object, never changed. */
const ALLOWED_PUBLIC: SiteAccessDecision = Object.freeze({ allowed: true, reason: null, tags: Object.freeze([]) as unknown as string[] });

/** The three layers combined (see the module comment). */
function combine(verdict: AccessVerdict, pageAudience: readonly string[], token: TokenOutcome): SiteAccessDecision {
  if (token === NO_TOKEN && verdict.allowed && !verdict.ruleId && pageAudience.length === 0) return ALLOWED_PUBLIC;
  const tokenPart = {
    tags: token.tags,
    ...(token.grant ? { grant: token.grant } : {}),
    ...(token.refusal ? { tokenRefusal: token.refusal } : {}),
  };
  const rulePart = verdict.ruleId ? { ruleId: verdict.ruleId, ruleName: verdict.ruleName, ruleType: verdict.ruleType } : {};
  if (!verdict.allowed) return { allowed: false, reason: verdict.reason ?? 'access_rule', ...rulePart, ...tokenPart };
  if (!opensAudience(token.tags, pageAudience)) {
    return { allowed: false, reason: token.refusal ? 'invalid_token' : 'gated_page', ...tokenPart };
  }
  return { allowed: true, reason: null, ...rulePart, ...tokenPart };
}

/** Layers 2 and 3 once the token is known; synchronous when the policy is cached and the page audience given. */
function decideWith(ctx: AppContext, input: SiteAccessInput, token: TokenOutcome): SiteAccessDecision | Promise<SiteAccessDecision> {
  const verdict = evaluateAccessPolicy(ctx, { projectId: input.projectId, path: input.path, ip: input.ip, tags: token.tags });
  const audience = input.pageAudience ?? productionPage(ctx, input.projectId, input.path).then((page) => page?.audience ?? []);
  if (!(verdict instanceof Promise) && !(audience instanceof Promise)) return combine(verdict, audience, token);
  return Promise.all([verdict, audience]).then(([v, a]) => combine(v, a, token));
}

/**
 * Decides whether a visitor may read a page of a project's site (see the module comment). The site
 * gate calls it for every page request (passing the served page's `pageAudience`); `POST
 * /access-check` calls it to answer for a given visitor.
 * @returns `{allowed, reason: 'gated_page'|'access_rule'|'ip_allowlist'|'invalid_token'|null,
 *   ruleId?, ruleName?, ruleType?, tags, grant?, tokenRefusal?}`; synchronous when the token (if
 *   any) was verified before and is still cached (`verifyAudienceTokenCached`), the project's rules
 *   are cached and `pageAudience` is given, else a promise. A token
 *   that cannot be verified for a database error counts as no token (logged): gated pages stay
 *   closed. Never rejects, except when `pageAudience` is omitted and the production manifest
 *   cannot be read.
 */
export function decideSiteAccess(ctx: AppContext, input: SiteAccessInput): SiteAccessDecision | Promise<SiteAccessDecision> {
  const token = input.token?.trim();
  if (!token) return decideWith(ctx, input, NO_TOKEN);
  const known = verifyAudienceTokenCached(ctx, input.projectId, token);
  if (known) return decideWith(ctx, input, known.ok ? { tags: known.grant.tags, grant: known.grant } : { tags: [], refusal: known.reason });
  return verifyAudienceToken(ctx, input.projectId, token)
    .then(
      (result): TokenOutcome => (result.ok ? { tags: result.grant.tags, grant: result.grant } : { tags: [], refusal: result.reason }),
      (err: unknown): TokenOutcome => {
        ctx.log.error({ err, projectId: input.projectId }, 'an audience token could not be verified; it opens nothing');
        return NO_TOKEN;
      },
    )
    .then((outcome) => decideWith(ctx, input, outcome));
}
