/**
 * Edits of a docs.json (or mint.json) navigation over the file's TEXT, keeping its formatting and
 * comments: each function parses the text with jsonc-parser, finds what to change and applies
 * minimal edits (`modify` / `applyEdits`), so the rest of the file stays byte for byte as written.
 * Node-free: the desktop renderer uses it.
 *
 * Navigation shapes handled (MINTLIFY-FORMAT.md sections 2-3, docs-json-schema.ts): `navigation.groups`,
 * `navigation.pages` (page paths and groups as objects), divisions holding either at any depth
 * (`tabs`, `anchors`, `dropdowns`, `products`, `versions`, `languages`, `menu`), nested groups
 * (`{"group", "pages"}` objects inside `pages`), a group's `root` page, and mint.json's
 * `navigation` array of groups. Parts split into other files with `$ref` are not followed.
 *
 * Page paths are compared as {@link normalizePagePath} writes them (`/guides/setup.mdx` = `guides/setup`);
 * OpenAPI operation entries (`GET /users`) are never pages. Every refusal throws a {@link NavigationEditError}.
 */
import {
  applyEdits, findNodeAtLocation, getNodeValue, modify, parseTree, printParseErrorCode, type FormattingOptions, type Node as JsonNode, type ParseError,
} from 'jsonc-parser';
import { slug } from 'github-slugger';
import { isOperationEntry, normalizePagePath } from './page-entry';
import { applyTextEdits, insertElementEdits, removeElementEdits } from './json-array-edits';

/** What went wrong in a navigation edit. */
export type NavigationEditErrorCode =
  | 'invalid-config'
  | 'invalid-page'
  | 'group-not-found'
  | 'group-ambiguous'
  | 'group-exists'
  | 'page-not-listed'
  | 'already-listed'
  | 'bad-position';

/** A navigation edit that cannot be made; `message` says why in words a writer understands. */
export class NavigationEditError extends Error {
  override name = 'NavigationEditError';
  constructor(
    readonly code: NavigationEditErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A JSON path inside docs.json, outermost first (`['navigation', 'tabs', 0, 'groups', 1]`). */
export type NavJsonPath = (string | number)[];

/**
 * Names a group: its `group` title and, when several groups share it, titles of what holds it
 * (tabs, anchors, other divisions, parent groups), outermost first; they need not be consecutive.
 */
export interface GroupRef {
  group: string;
  within?: string[];
}

/**
 * Where an entry goes in a `pages` (or `groups`) array: `before` or `after` an entry (a page path
 * or a group name), or at `index` counted in the array after the moved entry left it; none = at the end.
 */
export interface NavPosition {
  index?: number;
  before?: string;
  after?: string;
}

/** A group of the navigation as {@link navigationGroups} lists it. */
export interface NavGroupInfo {
  name: string;
  /** titles of the divisions and groups holding it, outermost first */
  within: string[];
  /** where the group object is in docs.json */
  path: NavJsonPath;
  /** the page paths listed directly in it, in order (operations and nested groups left out) */
  pages: string[];
  /** its `pages` array's entries in order: page paths (normalized), operations as written, nested groups by name */
  entries: string[];
}

/** A redirect of docs.json's `redirects` array (Mintlify: `{source, destination, permanent?}`). */
export interface NavRedirect {
  source: string;
  destination: string;
  permanent?: boolean;
}

/** docs.json keys holding division lists and the key of each item's title (docs-json-schema.ts DIVISION_KEYS). */
const DIVISIONS: Record<string, string> = {
  tabs: 'tab', anchors: 'anchor', dropdowns: 'dropdown', products: 'product', versions: 'version', languages: 'language', menu: 'item',
};

interface GroupSite {
  name: string;
  within: string[];
  path: NavJsonPath;
  node: JsonNode;
}
interface PageSite {
  /** path of the string entry */
  path: NavJsonPath;
  /** where it is in the text (document order) */
  offset: number;
  /** the entry as written */
  value: string;
  page: string;
}
interface ContainerSite {
  /** title path of the division (the root is []) */
  titles: string[];
  path: NavJsonPath;
  node: JsonNode;
}
interface Walk {
  root: JsonNode;
  groups: GroupSite[];
  pages: PageSite[];
  /** group `root` properties: path of the string */
  roots: PageSite[];
  containers: ContainerSite[];
}

function child(node: JsonNode | undefined, key: string): JsonNode | undefined {
  return node?.type === 'object' ? findNodeAtLocation(node, [key]) : undefined;
}

function stringOf(node: JsonNode | undefined): string | undefined {
  return node?.type === 'string' ? (node.value as string) : undefined;
}

/** Line and column (1-based) of `offset` in `text`. */
function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
}

/** Parses docs.json text and finds its groups, page entries and containers. @throws NavigationEditError `invalid-config` */
function walk(text: string): Walk {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length || !root) {
    const e = errors[0];
    const message = e ? `docs.json is not valid JSON (${printParseErrorCode(e.error)} at ${lineCol(text, e.offset)}); fix it first.` : 'docs.json is empty.';
    throw new NavigationEditError('invalid-config', message);
  }
  const nav = child(root, 'navigation');
  if (!nav || (nav.type !== 'object' && nav.type !== 'array')) throw new NavigationEditError('invalid-config', 'docs.json has no "navigation" object.');
  const out: Walk = { root, groups: [], pages: [], roots: [], containers: [] };

  const visitPages = (arr: JsonNode, path: NavJsonPath, within: string[]) => {
    (arr.children ?? []).forEach((entry, i) => {
      const value = stringOf(entry);
      if (value !== undefined) {
        if (!isOperationEntry(value)) out.pages.push({ path: [...path, i], offset: entry.offset, value, page: normalizePagePath(value) });
      } else if (entry.type === 'object' && stringOf(child(entry, 'group')) !== undefined) visitGroup(entry, [...path, i], within);
    });
  };
  const visitGroup = (node: JsonNode, path: NavJsonPath, within: string[]) => {
    const name = stringOf(child(node, 'group'))!;
    out.groups.push({ name, within, path, node });
    const rootNode = child(node, 'root');
    const rootPage = stringOf(rootNode);
    if (rootPage !== undefined) out.roots.push({ path: [...path, 'root'], offset: rootNode!.offset, value: rootPage, page: normalizePagePath(rootPage) });
    const pages = child(node, 'pages');
    if (pages?.type === 'array') visitPages(pages, [...path, 'pages'], [...within, name]);
  };
  const visitDivision = (node: JsonNode, path: NavJsonPath, titles: string[]) => {
    if (node.type === 'array') {
      // mint.json: navigation is an array of groups
      out.containers.push({ titles, path, node });
      visitPages(node, path, titles);
      return;
    }
    if (node.type !== 'object') return;
    out.containers.push({ titles, path, node });
    const groups = child(node, 'groups');
    if (groups?.type === 'array') {
      groups.children?.forEach((g, i) => {
        if (g.type === 'object' && stringOf(child(g, 'group')) !== undefined) visitGroup(g, [...path, 'groups', i], titles);
      });
    }
    const pages = child(node, 'pages');
    if (pages?.type === 'array') visitPages(pages, [...path, 'pages'], titles);
    for (const [key, titleKey] of Object.entries(DIVISIONS)) {
      const list = child(node, key);
      if (list?.type !== 'array') continue;
      list.children?.forEach((item, i) => {
        const title = stringOf(child(item, titleKey));
        visitDivision(item, [...path, key, i], title ? [...titles, title] : titles);
      });
    }
  };
  visitDivision(nav, ['navigation'], []);
  return out;
}

/** True when every title of `wanted` appears in `titles`, in order. */
function withinMatches(titles: string[], wanted: string[] | undefined): boolean {
  let i = 0;
  for (const t of titles) if (i < (wanted?.length ?? 0) && t === wanted![i]) i++;
  return i === (wanted?.length ?? 0);
}

const describeRef = (ref: GroupRef) => `"${ref.group}"${ref.within?.length ? ` under ${ref.within.map((w) => `"${w}"`).join(' / ')}` : ''}`;

function findGroup(w: Walk, ref: GroupRef): GroupSite {
  const found = w.groups.filter((g) => g.name === ref.group && withinMatches(g.within, ref.within));
  if (found.length === 0) throw new NavigationEditError('group-not-found', `There is no group ${describeRef(ref)} in the navigation of docs.json.`);
  if (found.length > 1) {
    const places = found.map((g) => (g.within.length ? g.within.join(' / ') : 'the top level')).join('; ');
    throw new NavigationEditError('group-ambiguous', `Several groups are named "${ref.group}" (in ${places}); say which tab or group holds the one you mean.`);
  }
  return found[0]!;
}

/** The formatting of inserted JSON: the file's own indentation and line ends. */
function formattingOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol };
}

/** One indentation step of the file. */
const unitOf = (text: string) => {
  const f = formattingOf(text);
  return f.insertSpaces ? ' '.repeat(f.tabSize ?? 2) : '\t';
};

/** Sets (or with `undefined` removes) the property at `path`; only for object members, arrays go through {@link insertAt} / {@link removeAt}. */
function edit(text: string, path: NavJsonPath, value: unknown): string {
  return applyEdits(text, modify(text, path, value, { formattingOptions: formattingOf(text) }));
}

function rootOf(text: string): JsonNode {
  return parseTree(text, [], { allowTrailingComma: true })!;
}

/**
 * `value` (or `raw`, a value's text with later lines indented from column 0) inserted at `index` of
 * the array at `arrayPath`, in the array's layout; the array is created when missing.
 */
function insertAt(text: string, arrayPath: NavJsonPath, index: number, value: unknown, raw?: string): string {
  const arr = findNodeAtLocation(rootOf(text), arrayPath);
  if (!arr) return edit(text, arrayPath, [value]);
  const unit = unitOf(text);
  return applyTextEdits(text, insertElementEdits(text, arr, index, raw ?? JSON.stringify(value, null, unit), unit));
}

/** The array element at `path` removed, the array keeping its layout. */
function removeAt(text: string, path: NavJsonPath): string {
  const arr = findNodeAtLocation(rootOf(text), path.slice(0, -1))!;
  return applyTextEdits(text, removeElementEdits(text, arr, path[path.length - 1] as number));
}

/** The index `position` names in `arr` (a `pages` or `groups` array; missing = empty). @throws NavigationEditError `bad-position` */
function indexIn(arr: JsonNode | undefined, position: NavPosition | undefined): number {
  const entries = arr?.children ?? [];
  const anchor = position?.before ?? position?.after;
  if (anchor !== undefined) {
    const i = entries.findIndex((e) => {
      const s = stringOf(e);
      if (s !== undefined) return s === anchor || (!isOperationEntry(s) && normalizePagePath(s) === normalizePagePath(anchor));
      return stringOf(child(e, 'group')) === anchor;
    });
    const side = position?.before !== undefined ? 'before' : 'after';
    if (i < 0) throw new NavigationEditError('bad-position', `"${anchor}" is not listed there, so nothing can go ${side} it.`);
    return position?.before !== undefined ? i : i + 1;
  }
  if (position?.index === undefined) return entries.length;
  if (!Number.isInteger(position.index) || position.index < 0 || position.index > entries.length) {
    throw new NavigationEditError('bad-position', `Position ${position.index} is outside the list (0 to ${entries.length}).`);
  }
  return position.index;
}

function requirePage(page: string): string {
  const p = normalizePagePath(page);
  if (p === '' || isOperationEntry(p)) throw new NavigationEditError('invalid-page', `"${page}" is not a page path (such as guides/setup).`);
  return p;
}

/** A page entry written like `like` (a leading `/`, an `.mdx`/`.md` extension kept). */
function restyle(like: string, page: string): string {
  const ext = /\.(mdx|md)$/i.exec(like.trim())?.[0] ?? '';
  return `${like.trim().startsWith('/') ? '/' : ''}${page}${ext}`;
}

/**
 * The groups of the navigation in document order (nested groups after their parent), for a
 * writer to choose from. @throws NavigationEditError `invalid-config` when the text is not JSON or has no navigation
 */
export function navigationGroups(text: string): NavGroupInfo[] {
  const w = walk(text);
  return w.groups.map((g) => {
    const prefix = JSON.stringify([...g.path, 'pages']).slice(0, -1) + ',';
    const pages = w.pages.filter((p) => p.path.length === g.path.length + 2 && JSON.stringify(p.path).startsWith(prefix)).map((p) => p.page);
    const entries = (child(g.node, 'pages')?.children ?? []).map((e) => {
      const value = stringOf(e);
      if (value !== undefined) return isOperationEntry(value) ? value : normalizePagePath(value);
      return stringOf(child(e, 'group')) ?? '';
    });
    return { name: g.name, within: g.within, path: g.path, pages, entries };
  });
}

/** Every page path listed in the navigation (group roots too), each once, in document order. */
export function listedPages(text: string): string[] {
  const w = walk(text);
  return [...new Set([...w.pages, ...w.roots].sort((a, b) => a.offset - b.offset).map((p) => p.page))];
}

function comparePaths(a: NavJsonPath, b: NavJsonPath): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    return typeof a[i] === 'number' && typeof b[i] === 'number' ? (a[i] as number) - (b[i] as number) : String(a[i]).localeCompare(String(b[i]));
  }
  return a.length - b.length;
}

/** A page file name made from a title the way GitHub makes heading ids (github-slugger): lower case, spaces to `-`, punctuation dropped. */
export function pageSlug(title: string): string {
  return slug(title.trim());
}

/**
 * The folder new pages of a group go in: the longest folder all its pages share (`guides` for
 * `guides/a`, `guides/b`), or the slug-like group name lower-cased when it has no page.
 */
export function groupFolder(group: Pick<NavGroupInfo, 'name' | 'pages'>): string {
  if (group.pages.length === 0) return pageSlug(group.name);
  const dirs = group.pages.map((p) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')).split('/') : []));
  const shared: string[] = [];
  for (let i = 0; dirs.every((d) => i < d.length && d[i] === dirs[0]![i]); i++) shared.push(dirs[0]![i]!);
  return shared.join('/');
}

/**
 * Lists `page` in a group at `target`'s position (default: at the end).
 * @throws NavigationEditError `group-not-found` / `group-ambiguous`; `already-listed` when the group lists it; `bad-position`; `invalid-page`
 */
export function addPage(text: string, page: string, target: GroupRef & NavPosition): string {
  const p = requirePage(page);
  const g = findGroup(walk(text), target);
  const pagesPath = [...g.path, 'pages'];
  const arr = child(g.node, 'pages');
  if (arr?.children?.some((e) => stringOf(e) !== undefined && !isOperationEntry(stringOf(e)!) && normalizePagePath(stringOf(e)!) === p)) {
    throw new NavigationEditError('already-listed', `${p} is already listed in the group "${g.name}".`);
  }
  return insertAt(text, pagesPath, indexIn(arr, target), p);
}

/**
 * Takes `page` out of the navigation everywhere it is listed (a group's `root` naming it too).
 * @throws NavigationEditError `page-not-listed` when no entry names it
 */
export function removePage(text: string, page: string): string {
  const p = requirePage(page);
  let out = text;
  let w = walk(out);
  if (!w.pages.some((s) => s.page === p) && !w.roots.some((s) => s.page === p)) {
    throw new NavigationEditError('page-not-listed', `${p} is not listed in the navigation.`);
  }
  for (const r of w.roots.filter((s) => s.page === p)) out = edit(out, r.path, undefined);
  // one entry at a time, reading the text again: each removal moves the later entries' indexes
  w = walk(out);
  for (let site = w.pages.find((s) => s.page === p); site; site = w.pages.find((s) => s.page === p)) {
    out = removeAt(out, site.path);
    w = walk(out);
  }
  return out;
}

/**
 * Renames a page path everywhere the navigation lists it (entries and group roots), each entry
 * keeping its style (leading `/`, extension).
 * @throws NavigationEditError `page-not-listed` when `from` is not listed; `already-listed` when `to` already is
 */
export function renamePage(text: string, from: string, to: string): string {
  const a = requirePage(from);
  const b = requirePage(to);
  const w = walk(text);
  const sites = [...w.pages, ...w.roots].filter((s) => s.page === a);
  if (sites.length === 0) throw new NavigationEditError('page-not-listed', `${a} is not listed in the navigation.`);
  if (a === b) return text;
  if ([...w.pages, ...w.roots].some((s) => s.page === b)) throw new NavigationEditError('already-listed', `${b} is already listed in the navigation.`);
  let out = text;
  for (const s of sites) out = edit(out, s.path, restyle(s.value, b));
  return out;
}

/**
 * Moves `page` to a group (another one, or the same one to reorder it): it leaves every group it is
 * listed in (only `from` when given) and is listed at `target`'s position, written as before.
 * @throws NavigationEditError `page-not-listed`; `group-not-found` / `group-ambiguous`; `already-listed` when the target
 *   lists it and it is not moved from there; `bad-position`
 */
export function movePage(text: string, page: string, target: GroupRef & NavPosition, from?: GroupRef): string {
  const p = requirePage(page);
  let w = walk(text);
  const targetGroup = findGroup(w, target);
  const scope = from ? findGroup(w, from).path : undefined;
  const inScope = (s: PageSite, groupPath: NavJsonPath | undefined) =>
    s.page === p && (groupPath === undefined || (s.path.length === groupPath.length + 2 && comparePaths(s.path.slice(0, groupPath.length), groupPath) === 0));
  const sites = w.pages.filter((s) => inScope(s, scope));
  if (sites.length === 0) {
    throw new NavigationEditError('page-not-listed', `${p} is not listed ${from ? `in the group ${describeRef(from)}` : 'in the navigation'}.`);
  }
  const inTarget = w.pages.filter((s) => inScope(s, targetGroup.path));
  if (inTarget.length && !inTarget.every((s) => sites.includes(s))) {
    throw new NavigationEditError('already-listed', `${p} is already listed in the group "${targetGroup.name}".`);
  }
  const written = sites[0]!.value;
  let out = text;
  // remove one entry at a time, finding the scope group again after each removal (indexes move)
  for (;;) {
    const groupPath = from ? findGroup(w, from).path : undefined;
    const site = w.pages.find((s) => inScope(s, groupPath));
    if (!site) break;
    out = removeAt(out, site.path);
    w = walk(out);
  }
  const g = findGroup(w, target);
  return insertAt(out, [...g.path, 'pages'], indexIn(child(g.node, 'pages'), target), written);
}

/** `raw` (an element's text starting at column `fromColumn`) with `fromColumn` indentation taken off its later lines. */
function reindent(raw: string, fromColumn: number, toColumn: number): string {
  const drop = fromColumn - toColumn;
  return raw
    .split('\n')
    .map((line, i) => (i === 0 ? line : line.slice(Math.min(/^[ \t]*/.exec(line)![0].length, drop))))
    .join('\n');
}

const columnOf = (text: string, offset: number) => offset - (text.lastIndexOf('\n', offset - 1) + 1);

/**
 * Moves a group within the array holding it (`groups` or `pages` of its parent) to `position`
 * (`before` names a sibling group or page). The group's text moves as written, comments inside included.
 * @throws NavigationEditError `group-not-found` / `group-ambiguous`; `bad-position`
 */
export function reorderGroup(text: string, ref: GroupRef, position: NavPosition): string {
  const g = findGroup(walk(text), ref);
  const raw = reindent(text.slice(g.node.offset, g.node.offset + g.node.length), columnOf(text, g.node.offset), 0);
  const parentPath = g.path.slice(0, -1);
  const out = removeAt(text, g.path);
  const index = indexIn(findNodeAtLocation(rootOf(out), parentPath), position);
  return insertAt(out, parentPath, index, getNodeValue(g.node), raw);
}

/**
 * Adds an empty group `{"group": name, "pages": []}` at `position` of a division: the first one
 * whose titles match `within` (all of them when not given) that holds `groups` or `pages`, in
 * document order (so the top level, else the first tab...); into its `groups`, else its `pages`.
 * @throws NavigationEditError `group-exists` when that division already holds a group of that name; `group-not-found` when no division matches `within`
 */
export function addGroup(text: string, name: string, options: { within?: string[] } & NavPosition = {}): string {
  const title = name.trim();
  if (!title) throw new NavigationEditError('invalid-config', 'A group needs a name.');
  const w = walk(text);
  const matching = w.containers.filter((c) => withinMatches(c.titles, options.within));
  const holds = (c: ContainerSite) => c.node.type === 'array' || child(c.node, 'groups')?.type === 'array' || child(c.node, 'pages')?.type === 'array';
  const c = matching.find(holds) ?? matching.find((m) => !Object.keys(DIVISIONS).some((k) => child(m.node, k)));
  if (!c) {
    const names = options.within?.map((t) => `"${t}"`).join(' / ') ?? '';
    throw new NavigationEditError('group-not-found', `There is no tab or division ${names} to add the group to.`);
  }
  const key = c.node.type === 'array' ? undefined : child(c.node, 'groups')?.type === 'array' || child(c.node, 'pages')?.type !== 'array' ? 'groups' : 'pages';
  const listPath = key ? [...c.path, key] : c.path;
  if (w.groups.some((g) => g.name === title && comparePaths(g.path.slice(0, listPath.length), listPath) === 0 && g.path.length === listPath.length + 1)) {
    throw new NavigationEditError('group-exists', `There is already a group "${title}" there.`);
  }
  return insertAt(text, listPath, indexIn(findNodeAtLocation(w.root, listPath), options), { group: title, pages: [] });
}

/** A redirect path as Mintlify matches it: a URL as is, else with a leading `/`. */
function redirectPath(p: string): string {
  const t = p.trim();
  return /^[a-z][a-z0-9+.-]*:/i.test(t) || t.startsWith('/') ? t : `/${t}`;
}

/**
 * Adds a redirect to docs.json's `redirects` array (created when missing), so old links keep
 * working after a page moved (Mintlify "redirects"). Keeps the list free of chains and loops:
 * redirects that led to `source` now lead to `destination` (dropped when that is their own source),
 * and an earlier redirect from `source` is replaced. Adding one that is already there changes nothing.
 * @throws NavigationEditError `invalid-config` when the text is not JSON or `redirects` is not an array; `invalid-page` when
 *   source and destination are the same
 */
export function addRedirect(text: string, redirect: NavRedirect): string {
  const source = redirectPath(redirect.source);
  const destination = redirectPath(redirect.destination);
  if (source === destination) throw new NavigationEditError('invalid-page', `A redirect from ${source} to itself would loop.`);
  const errors: ParseError[] = [];
  let root = parseTree(text, errors, { allowTrailingComma: true });
  if (!root || errors.length || root.type !== 'object') throw new NavigationEditError('invalid-config', 'docs.json is not a valid JSON object; fix it first.');
  let out = text;
  const list = () => child(root, 'redirects');
  if (list() && list()!.type !== 'array') throw new NavigationEditError('invalid-config', 'docs.json "redirects" is not an array.');
  // from the end, so that removing one keeps the earlier indexes
  const items = list()?.children ?? [];
  for (let i = items.length - 1; i >= 0; i--) {
    const r = getNodeValue(items[i]!) as Partial<NavRedirect> | null;
    if (!r || typeof r.source !== 'string' || typeof r.destination !== 'string') continue;
    const rs = redirectPath(r.source);
    const rd = redirectPath(r.destination);
    if (rs === source && rd === destination) return out;
    if (rs === source || (rd === source && rs === destination)) out = removeAt(out, ['redirects', i]);
    else if (rd === source) out = edit(out, ['redirects', i, 'destination'], destination);
  }
  root = parseTree(out, [], { allowTrailingComma: true })!;
  const entry: NavRedirect = { source, destination, ...(redirect.permanent !== undefined ? { permanent: redirect.permanent } : {}) };
  const arr = list();
  return insertAt(out, ['redirects'], arr?.children?.length ?? 0, entry);
}
