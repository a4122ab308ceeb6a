/**
 * The assets only some pages load (site-look.md "Feel": small CSS and very little JavaScript):
 * KaTeX's stylesheet on pages whose body holds rendered math, the bundled mermaid on pages holding a
 * diagram. Both are the site's own hashed files (`_quire/assets/`), so the site CSP (`script-src 'self'`)
 * allows them; mermaid is deferred and runs before the site script, which draws the diagrams (code.js).
 */
import { MATH_MARKER } from '../docs/markdown/math';
import { MERMAID_MARKER } from '../docs/markdown/code-mermaid';
import type { SiteRendererInput } from './context';
import { escapeHtml } from './escape';

/** The `<head>` tags a page body needs besides the site's own CSS and JS; '' for most pages. */
export function pageAssetTags(assets: SiteRendererInput['assets'], bodyHtml: string): string {
  let tags = '';
  if (assets.katexCss && bodyHtml.includes(MATH_MARKER)) tags += `<link rel="stylesheet" href="${escapeHtml(assets.katexCss)}">`;
  if (assets.mermaidJs && bodyHtml.includes(MERMAID_MARKER)) tags += `<script defer src="${escapeHtml(assets.mermaidJs)}"></script>`;
  return tags;
}
