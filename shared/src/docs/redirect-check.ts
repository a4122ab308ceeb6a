/**
 * Redirect checks of a site's configuration (docs.json `redirects`, MINTLIFY-FORMAT.md section 7):
 * a redirect whose destination is a path of the same site must lead to a page, a published file or
 * another redirect (the link check's verdict, link-check.ts), and never to itself. Destinations with
 * parameters or wildcards (`/new/:slug*`) and other sites' URLs are not checked. Node-free.
 */
import { checkLinkTarget, lineOf } from './link-check';
import { isSitePathLocation } from './nav/match-redirect';
import { indexInventory, type PageInventory } from './page-inventory';
import type { BuildWarning } from './types';

/**
 * `broken-redirect` warnings for the inventory's redirects, naming `configFile` (docs.json) and the
 * 1-based line of the destination in `configText` when given.
 */
export function checkRedirects(inventory: PageInventory, configFile: string | undefined, configText: string | undefined): BuildWarning[] {
  const index = indexInventory(inventory);
  const warnings: BuildWarning[] = [];
  const where = (needle: string) => ({ ...(configFile ? { file: configFile } : {}), ...(configText ? lineOf(configText, JSON.stringify(needle)) : {}) });
  for (const r of inventory.redirects) {
    const destination = r.destination.replace(/[?#].*$/, '');
    if (!isSitePathLocation(destination) || /[:*]/.test(destination)) continue;
    if (destination.replace(/\/$/, '') === r.source.replace(/\/$/, '')) {
      warnings.push({ ...where(r.destination), kind: 'broken-redirect', message: `${r.source} redirects to itself` });
      continue;
    }
    const verdict = checkLinkTarget(index, 'index.mdx', destination);
    if (verdict && !verdict.ok) {
      const hint = verdict.suggestion ? `; did you mean ${verdict.suggestion}?` : '';
      warnings.push({ ...where(r.destination), kind: 'broken-redirect', message: `${r.source} → ${r.destination}: no page or file${hint}` });
    }
  }
  return warnings;
}
