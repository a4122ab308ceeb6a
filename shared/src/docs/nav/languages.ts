/**
 * The `languages` division of the navigation (MINTLIFY-FORMAT.md section 3; Mintlify's
 * organize/navigation "Languages"): language codes as tags and names, which language each page
 * belongs to, and the page of another language (or version) that matches the page being read.
 */
import type { NavDivision, NavNode } from '../types';
import { walkPages } from './walk';

/** Mintlify's language codes that are not BCP 47 tags (organize/navigation lists `cn` Chinese, `jp` Japanese). */
const MINTLIFY_CODES: Readonly<Record<string, string>> = { cn: 'zh-Hans', jp: 'ja' };

/**
 * The BCP 47 tag of a Mintlify language code, for `<html lang>` and `hreflang`: `jp` → `ja`,
 * `cn` → `zh-Hans`, `pt-BR` stays; `und` (undetermined) for a value that is no language tag.
 */
export function languageTag(code: string): string {
  const c = MINTLIFY_CODES[code.trim().toLowerCase()] ?? code.trim();
  try {
    return Intl.getCanonicalLocales(c)[0] ?? 'und';
  } catch {
    return 'und';
  }
}

/**
 * A language's name in that language, as a language switcher shows it (`fr` → `Français`,
 * `jp` → `日本語`, `pt-BR` → `Português (Brasil)`); the code itself when it names no language.
 */
export function languageName(code: string): string {
  const tag = languageTag(code);
  if (tag === 'und') return code;
  try {
    const name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag);
    if (!name || name === tag) return code;
    return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
  } catch {
    return code;
  }
}

/**
 * The folder a language's own files go in (`fr` → `fr/llms.txt`): the code when it is a plain
 * path segment (letters, digits, `-`, `_`), undefined otherwise.
 */
export function languageFolder(code: string): string | undefined {
  return /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(code) ? code : undefined;
}

/** The innermost `language` division among a node's ancestors, if any. */
function languageOf(ancestors: readonly NavNode[]): NavDivision | undefined {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const a = ancestors[i]!;
    if (a.type === 'division' && a.kind === 'language') return a;
  }
  return undefined;
}

/**
 * The language code of every page listed under a `language` division (its first listing wins;
 * pages outside any language are absent). Group roots and hidden entries count.
 * @returns page path → the language division's code (`fr`)
 */
export function pageLanguages(nav: NavNode[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const { node, ancestors } of walkPages(nav)) {
    if (!node.path || out.has(node.path)) continue;
    const lang = languageOf(ancestors);
    if (lang) out.set(node.path, lang.title);
  }
  return out;
}

/**
 * Which language a page is in: the language it is listed under ({@link pageLanguages}), else, for
 * a page outside the navigation, the language whose code is the first folder of its path
 * (`fr/old-page` → `fr`); undefined for a site without languages and for other pages.
 */
export function languageResolver(nav: NavNode[]): (pagePath: string) => string | undefined {
  const listed = pageLanguages(nav);
  const byFolder = new Map(languageDivisions(nav).map((d) => [d.title.toLowerCase(), d.title]));
  return (pagePath) => listed.get(pagePath) ?? byFolder.get(pagePath.split('/', 1)[0]!.toLowerCase());
}

/** Every `language` division of the tree (at any depth), in reading order. */
export function languageDivisions(nav: NavNode[]): NavDivision[] {
  const out: NavDivision[] = [];
  const visit = (nodes: NavNode[]) => {
    for (const n of nodes) {
      if (n.type !== 'division' && n.type !== 'group') continue;
      if (n.type === 'division' && n.kind === 'language') out.push(n);
      visit(n.children);
    }
  };
  visit(nav);
  return out;
}

/**
 * Page paths that may hold, in the division titled `to`, the page read at `pagePath` in the division
 * titled `from` (sibling languages or versions, whose translated pages mirror each other under a
 * folder named by the code): the path with its `from` segment replaced by `to` (`fr/guides/a` →
 * `en/guides/a`), then without it (the target's pages at the root), then with `to` in front (the
 * current pages at the root), then the path itself (a page listed in both). Segments compare
 * without regard to case. The caller keeps the first that exists, else the target's first page.
 */
export function counterpartPaths(pagePath: string, from: string, to: string): string[] {
  const segs = pagePath.split('/');
  const i = segs.findIndex((s) => s.toLowerCase() === from.toLowerCase());
  const out: string[] = [];
  if (i >= 0) {
    const before = segs.slice(0, i);
    const after = segs.slice(i + 1);
    out.push([...before, to, ...after].join('/'));
    if (to.toLowerCase() !== to) out.push([...before, to.toLowerCase(), ...after].join('/'));
    out.push([...before, ...after].join('/'));
  } else {
    out.push(`${to}/${pagePath}`);
    if (to.toLowerCase() !== to) out.push(`${to.toLowerCase()}/${pagePath}`);
  }
  out.push(pagePath);
  return [...new Set(out.filter((p) => p !== ''))];
}

/**
 * The navigation with every default `language` and `version` division moved in front of its
 * siblings (Mintlify's organize/navigation: `default: true` marks the one served by default, else
 * the first listed), so the first page in reading order is the default language's (the site's
 * home when there is no `index` page). Returns a new list when something moved; nodes are shared.
 */
export function defaultFirst(nav: NavNode[]): NavNode[] {
  const isDefault = (n: NavNode) => n.type === 'division' && (n.kind === 'language' || n.kind === 'version') && n.default === true;
  const sorted = nav.some(isDefault) ? [...nav.filter(isDefault), ...nav.filter((n) => !isDefault(n))] : nav;
  let changed = sorted !== nav && sorted.some((n, i) => n !== nav[i]);
  const out = sorted.map((n) => {
    if (n.type !== 'division' && n.type !== 'group') return n;
    const children = defaultFirst(n.children);
    if (children === n.children) return n;
    changed = true;
    return { ...n, children };
  });
  return changed ? out : nav;
}
