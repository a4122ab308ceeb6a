/**
 * Member passes to previews (decisions.md section 11: "Previews that have a preview link open only
 * through a link (`settings.protectPreviews`, default true)"). Team members open closed previews
 * without a preview link: the desktop app (Builds, Reviews) and API clients exchange a preview URL
 * the API showed them for a pass URL, `<preview site>/_quire/pass/<pass>`, which sets a member
 * cookie on that preview host and lands on the page asked for (sites/preview-gate.ts). A pass is
 * signed, not stored (access/preview-access.ts), works for 10 minutes and needs `projects:read`
 * (every role), like reading the project's pages through the API.
 */
import { invalidField } from '@quire/shared/errors';
import type { PreviewPass, PreviewPassBody } from '@quire/shared/api/access';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import { secretKeyOf } from '../git/secret-box';
import { hostName, parseSiteHost, previewSiteUrl } from '../deployments/site-host';
import { PASS_PREFIX, passPathOf, previewPassKey, signPreviewPass } from '../access/preview-access';
import { getProjectForCaller, projectSiteUrl } from './projects';

/**
 * A member pass to the preview that `body.url` names, leading to the page of its path.
 * @returns the pass URL on the preview host (as the server addresses it: scheme, port and the
 *   query string of `body.url` are not kept), the preview's name and the pass's expiry.
 * @throws ApiError not_found (project unknown or not the caller's); invalid_request naming `url`
 *   when it is not an absolute URL of one of this project's preview sites.
 */
export async function createPreviewPass(ctx: AppContext, auth: RequestAuth, projectId: string, body: PreviewPassBody): Promise<PreviewPass> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  let url: URL;
  try {
    url = new URL(body.url);
  } catch {
    throw invalidField('url', 'must be an absolute URL', `url: "${body.url}" is not an absolute URL.`);
  }
  const host = parseSiteHost(hostName(url.host), ctx.config.sitesDomain);
  const path = passPathOf(url.pathname);
  if (!host || host.slug !== project.slug || host.previewName === '' || path === null) {
    const shape = `<preview>--${project.slug}-docs.${ctx.config.sitesDomain}`;
    throw invalidField('url', 'must be a preview site URL of this project', `url: ${body.url} is not a preview site of this project (${shape}).`);
  }
  const { pass, expiresAt } = signPreviewPass(previewPassKey(secretKeyOf(ctx.config)), { projectId, previewName: host.previewName, path });
  const site = previewSiteUrl(projectSiteUrl(ctx.config, project.slug), host.previewName);
  return { url: `${site.replace(/\/$/, '')}${PASS_PREFIX}${pass}`, previewName: host.previewName, expiresAt: new Date(expiresAt).toISOString() };
}
