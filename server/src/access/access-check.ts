/**
 * `POST /access-check` (interface-spec.md "Collaboration", Access control; decisions.md section 9:
 * "`/access-check` answers for a given path and visitor"): what the project's production site
 * would decide right now for a visitor at an address with an optional token, through the very
 * function the site uses ({@link decideSiteAccess}). Nothing is recorded.
 */
import { ApiError } from '@quire/shared/errors';
import type { AccessCheckBody, AccessCheckResult } from '@quire/shared/api/access';
import type { AppContext } from '../context';
import type { RequestAuth } from './request-auth';
import { getProjectForCaller } from '../services/projects';
import { decideSiteAccess, productionPage, type ProductionPage } from './decide';

/** The page path rules see for a site path the manifest does not list: leading and trailing `/` and a `.md`/`.html` view dropped. */
function plainPath(sitePath: string): string {
  const trimmed = sitePath.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? 'index' : trimmed.replace(/\.(?:md|html)$/, '');
}

/**
 * Decides for `body` (`ip` already canonical, from `AccessCheckBodySchema`).
 * @returns `{allowed, reason, rule, audiences, tokenRefusal, page}` (see `AccessCheckResultSchema`).
 * @throws ApiError not_found (project unknown or not the caller's); service_unavailable when the
 *   production deployment's manifest cannot be read.
 */
export async function checkAccess(ctx: AppContext, auth: RequestAuth, projectId: string, body: AccessCheckBody): Promise<AccessCheckResult> {
  await getProjectForCaller(ctx, auth, projectId);
  let page: ProductionPage | null;
  try {
    page = await productionPage(ctx, projectId, body.path);
  } catch (err) {
    ctx.log.error({ err, projectId }, 'the production site cannot be read for an access check');
    throw new ApiError('service_unavailable', "The production site's manifest cannot be read; retry shortly.");
  }
  const decision = await decideSiteAccess(ctx, {
    projectId,
    path: page?.path ?? plainPath(body.path),
    ip: body.ip,
    ...(body.token !== undefined ? { token: body.token } : {}),
    pageAudience: page?.audience ?? [],
  });
  return {
    allowed: decision.allowed,
    reason: decision.reason,
    rule: decision.ruleId && decision.ruleType ? { id: decision.ruleId, name: decision.ruleName ?? '', type: decision.ruleType } : null,
    audiences: decision.tags,
    tokenRefusal: decision.tokenRefusal ?? null,
    page,
  };
}
