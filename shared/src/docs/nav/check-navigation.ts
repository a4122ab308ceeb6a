import type { BuildWarning, NavNode } from '../types';
import { walkPages } from './walk';

/** Extensions a page file may have, in the order a page path is resolved (`a` → `a.mdx`, then `a.md`). */
export const PAGE_EXTENSIONS = ['.mdx', '.md'] as const;

/** The page path of a page file (`guides/a.mdx` → `guides/a`), or undefined for other files. */
export function pagePathOf(filePath: string): string | undefined {
  const ext = PAGE_EXTENSIONS.find((e) => filePath.toLowerCase().endsWith(e));
  return ext ? filePath.slice(0, -ext.length) : undefined;
}

/**
 * Checks the navigation against the page files (MINTLIFY-FORMAT.md sections 4 and 10: these are
 * warnings, never a failed build):
 * - `missing-page`: an entry (or a group `root`) names a page with no `.mdx`/`.md` file;
 * - `duplicate-nav-entry`: the same page is listed again within one version/language
 *   (the same page under two versions or languages is allowed).
 * OpenAPI operation entries (`openapi` set) are not checked here (openapi/ resolves them).
 * @param pageFiles file paths of the pages, as {@link listPageFiles} returns them
 * @param configFile the config file named in the warnings (`docs.json`, `mint.json`)
 */
export function checkNavigation(nav: NavNode[], pageFiles: string[], configFile?: string): BuildWarning[] {
  const pages = new Set<string>();
  for (const f of pageFiles) {
    const p = pagePathOf(f);
    if (p !== undefined) pages.add(p);
  }
  const warnings: BuildWarning[] = [];
  const seen = new Set<string>();
  const missingReported = new Set<string>();
  const file = configFile ? { file: configFile } : {};
  for (const { node, ancestors } of walkPages(nav)) {
    if (node.openapi !== undefined || node.path === '') continue;
    const scope = ancestors
      .filter((a) => a.type === 'division' && (a.kind === 'version' || a.kind === 'language'))
      .map((a) => (a.type === 'division' ? `${a.kind}:${a.title}` : ''))
      .join('/');
    const key = `${scope}\u0000${node.path}`;
    if (seen.has(key)) {
      warnings.push({ ...file, kind: 'duplicate-nav-entry', message: `Navigation lists "${node.path}" more than once${where(ancestors)}.` });
      continue;
    }
    seen.add(key);
    if (!pages.has(node.path) && !missingReported.has(node.path)) {
      missingReported.add(node.path);
      warnings.push({
        ...file,
        kind: 'missing-page',
        message: `Navigation entry "${node.path}"${where(ancestors)} has no file: expected ${node.path}.mdx or ${node.path}.md.`,
      });
    }
  }
  return warnings;
}

/** ` (in "Tab" › "Group")` for a message, or '' at the top level. */
function where(ancestors: NavNode[]): string {
  const names = ancestors.map((a) => ('title' in a ? a.title : '')).filter((t) => t !== '');
  return names.length ? ` (in ${names.map((n) => `"${n}"`).join(' › ')})` : '';
}
