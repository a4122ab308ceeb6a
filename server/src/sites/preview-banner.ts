import { PREVIEW_INFO_FILE, PreviewInfoSchema, previewBannerRenderer, type PreviewBannerInput } from '@quire/shared/site/preview-banner';
import type { DeploymentFiles } from '../storage/deployment-store';

/** Renders the banner of one HTML file of a preview deployment: `pagePath` for pages, undefined for other files (404). */
export type PreviewBanner = (pagePath?: string) => string;

/**
 * The banner of a preview deployment (shared/src/site/preview-banner.ts), from its
 * `_quire/preview.json` (written by the build: deployments/preview-changes.ts). A preview without that
 * file, or with one that cannot be read or parsed (a deployment built before it existed), still
 * gets a banner: one naming only its channel, so a reader always knows it is not production.
 * Only the builder writes under `_quire/` (repository files there are never copied,
 * builder/site-writer.ts `isStaticFile`), so the file cannot come from the repository.
 * @param files the deployment's file list (`DeploymentFiles.list()`)
 * @param channel the preview's name (`feature-login`, `pr-12`, `review-…`)
 */
export async function loadPreviewBanner(source: DeploymentFiles, files: Set<string>, channel: string): Promise<PreviewBanner> {
  let input: PreviewBannerInput = { channel };
  if (files.has(PREVIEW_INFO_FILE)) {
    try {
      const parsed = PreviewInfoSchema.safeParse(JSON.parse((await source.read(PREVIEW_INFO_FILE)).body.toString('utf8')) as unknown);
      if (parsed.success) input = parsed.data;
    } catch {
      // unreadable: the channel-only banner
    }
  }
  return previewBannerRenderer(input);
}

/** The opening `<body ...>` tag (attributes allowed), case-insensitive. */
const BODY_OPEN = /<body(?:\s[^>]*)?>/i;
/** The theme's skip link, which stays the first thing on the page (keyboard users reach it first). */
const SKIP_LINK = /^<a class="q-skip"[^>]*>[^<]*<\/a>/;

/**
 * Inserts `banner` into an HTML document right after its `<body ...>` tag (after the theme's
 * skip link when that comes first). Offsets are found on the latin1 view of the bytes, which maps
 * byte for byte, so UTF-8 content around them is kept intact.
 * @returns the new bytes; `html` itself when it has no `<body>` tag (nothing to put a banner in)
 */
export function injectAfterBody(html: Buffer, banner: string): Buffer {
  const text = html.toString('latin1');
  const open = BODY_OPEN.exec(text);
  if (!open) return html;
  let at = open.index + open[0].length;
  const skip = SKIP_LINK.exec(text.slice(at, at + 512));
  if (skip) at += skip[0].length;
  return Buffer.concat([html.subarray(0, at), Buffer.from(banner, 'utf8'), html.subarray(at)]);
}
