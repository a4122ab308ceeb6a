/**
 * Opening previews from the desktop app (decisions.md section 11: previews of a project that
 * protects them, the default, or that have a preview link open only through a link). The app shows
 * preview URLs (a preview build's site, a review's preview); to open one, the core asks the server
 * for a member pass (`previews.pass`, server/src/services/preview-passes.ts) and the renderer opens
 * the pass URL in the browser, which then holds the preview's cookie for 12 hours. Every role may
 * ask (the server checks the session's organization and project).
 */
import type { PreviewPass } from '@quire/shared/api/access';
import type { Core } from './core';
import { serverError } from './core-error';

/**
 * A member pass to the preview `url` names (a preview site URL of `projectId`, or a page under it).
 * @returns `{url, previewName, expiresAt}`: `url` opens that page of the preview; it works for 10 minutes
 * @throws CoreError UNAUTHORIZED without a session; the server's BAD_REQUEST (not a preview URL of the
 *   project) or NOT_FOUND; UNAVAILABLE when the server cannot be reached
 */
export async function previewPass(core: Core, projectId: string, url: string): Promise<PreviewPass> {
  const { client } = core.sessionClient();
  try {
    return await client.previews.pass.mutate({ projectId, url });
  } catch (err) {
    throw serverError(err, 'The Quire server cannot be reached; builds need the server.');
  }
}
