/**
 * Preview channels (decisions.md section 4): the name a preview deployment is recorded and served
 * under (`<previewName>--<slug>-docs.<sites domain>`, site-host.ts).
 */
import type { Models } from '../db/client';
import { branchSlug } from './site-host';

/**
 * The preview name of a review's preview deployments: `review-<id body, lower case>`, cut (like a
 * branch slug, site-host.ts `branchSlug`) so `<name>--<slug>-docs` fits one DNS label.
 */
export function reviewPreviewName(reviewId: string, projectSlug: string): string {
  return branchSlug(`review-${reviewId.replace(/^rev_/, '')}`, projectSlug);
}

/**
 * The preview channel a build deploys to: its recorded `previewName` (webhooks: `<branch-slug>` or
 * `pr-<n>`), else a review's preview name ({@link reviewPreviewName}), else the branch slug
 * (decisions.md section 4); "" for production.
 */
export function previewChannelOf(build: Pick<Models.BuildModel, 'isPreview' | 'previewName' | 'reviewId' | 'branch'>, projectSlug: string): string {
  if (!build.isPreview) return '';
  if (build.previewName) return build.previewName;
  return build.reviewId ? reviewPreviewName(build.reviewId, projectSlug) : branchSlug(build.branch, projectSlug);
}
