/**
 * The linter's rules against the site as a whole (decisions.md section 9): they need the page
 * inventory (shared/src/docs/page-inventory.ts) and stay silent without one, since a page alone
 * cannot say which pages, files and snippets exist.
 *
 * - `links/broken`: a Markdown link, link definition or JSX `href` to an internal target that is no
 *   page, published file or redirect source (the build's link check, shared/src/docs/link-check.ts,
 *   decides: anchors and queries are ignored, `.md`/`.mdx`/`.html` and a trailing `/` tolerated);
 * - `images/missing`: a Markdown image or a JSX `src`/`img`/`image`/`poster` attribute (of a component,
 *   or of an HTML media tag the site keeps) naming a local file that is not published;
 * - `components/unknown`: a capitalised JSX element the docs engine does not render (not in its
 *   component registry, shared/src/docs/markdown/components, and neither imported nor exported by
 *   the page); the build shows only its children.
 *
 * A link or image differing from an existing target only by letter case or extension gets a fix to
 * that target (root-relative); a component differing from a known one only by case gets a fix to its
 * name (opening and closing tag).
 */
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { checkImageSource, checkLinkTarget, type TargetVerdict } from '../docs/link-check';
import { COMPONENTS } from '../docs/markdown/components/index';
import { isJsxElement, type EsNode, type UNode } from '../docs/markdown/mdx-nodes';
import type { InventoryIndex } from '../docs/page-inventory';
import { parsePage } from './page-tree';
import { lineStarts, positionAt } from './text-positions';
import type { LintFinding, LintFix } from './types';

/** The rule ids of this module, in the order the linter documents them. */
export const NAVIGATION_RULES = ['links/broken', 'images/missing', 'components/unknown'] as const;

/**
 * The parser of `.md` pages for these rules: CommonMark without the GFM extensions the docs engine
 * adds. GFM changes nothing these rules look at (links and images parse the same inside tables;
 * autolink literals are never internal) and costs about 40% of a parse. Without it a footnote
 * definition `[^1]: text` reads as a link definition: those are skipped. MDX pages are read in the
 * renderer's own tree (page-tree.ts).
 */
const markdownProcessor = unified().use(remarkParse).freeze();
/** Text that may hold something these rules check: a link, a definition, a JSX target attribute, a component. */
const CANDIDATE = /\]\(|\]:|\b(?:href|src|img|image|poster)\s*=|<[A-Z]/;
const LINK_ATTRIBUTES = new Set(['href']);
const IMAGE_ATTRIBUTES = new Set(['src', 'img', 'image', 'poster']);
/** HTML tags whose `href`/`src` the site keeps (the sanitizer drops `<script>`, `<link>` and the like). */
const HTML_TARGET_TAGS = new Set(['a', 'img', 'video', 'audio', 'source', 'track', 'picture']);
const knownLower = new Map<string, string[]>();
for (const name of COMPONENTS.keys()) knownLower.set(name.toLowerCase(), [...(knownLower.get(name.toLowerCase()) ?? []), name]);

/**
 * The targets a page's navigation rules looked at, as written: link targets (`links/broken`) and image
 * sources (`images/missing`), external ones included (their verdict: not checked). The findings of these rules change only when the
 * verdict (link-check.ts `checkLinkTarget`, `checkImageSource`) of one of them changes, which lets a
 * build carry a page's findings over while other pages come and go (server lint-pages.ts).
 */
export interface CheckedTargets {
  links: string[];
  images: string[];
}

/**
 * The findings of the navigation rules `enabled` says yes to, on `text` (a page whose file is `path`,
 * relative to the docs root; `.md` is Markdown, anything else MDX, whose tree `tree` is when given:
 * page-tree.ts `parsePage`, positions in `text`). A page that does not parse has none here (the
 * linter reports `mdx/syntax`). With `checked`, every target judged is added to it (in page order).
 */
export function runNavigationChecks(
  text: string,
  path: string,
  index: InventoryIndex,
  enabled: (ruleId: string) => boolean,
  tree?: UNode,
  checked?: CheckedTargets,
): LintFinding[] {
  const on = NAVIGATION_RULES.filter(enabled);
  if (on.length === 0 || !CANDIDATE.test(text)) return [];
  let root: UNode;
  if (path.endsWith('.md')) {
    // Front matter is blanked, not removed, so offsets stay those of the page.
    root = markdownProcessor.parse(text.replace(/^---\r?\n[\s\S]*?\r?\n---[ \t]*(?=\r?\n|$)/, (fm) => fm.replace(/[^\r\n]/g, ' '))) as unknown as UNode;
  } else {
    const parsed = tree ?? parsePage(text, path).tree;
    if (!parsed) return [];
    root = parsed;
  }
  const findings: LintFinding[] = [];
  const starts = lineStarts(text);
  const at = (offset: number) => positionAt(starts, offset);
  const report = (ruleId: (typeof NAVIGATION_RULES)[number], range: [number, number], message: string, fix?: LintFix) => {
    const start = at(range[0]);
    const end = at(Math.max(range[1], range[0] + 1));
    findings.push({ ruleId, severity: 'warning', message, line: start.line, column: start.column, endLine: end.line, endColumn: end.column, ...(fix ? { fix } : {}) });
  };
  const target = (kind: 'link' | 'image', value: string, node: UNode) => {
    const ruleId = kind === 'link' ? 'links/broken' : 'images/missing';
    if (!enabled(ruleId)) return;
    checked?.[kind === 'link' ? 'links' : 'images'].push(value);
    const verdict: TargetVerdict | null = kind === 'link' ? checkLinkTarget(index, path, value) : checkImageSource(index, path, value);
    if (!verdict || verdict.ok) return;
    const range = valueRange(text, node, value);
    const what = kind === 'link' ? `The link "${value}" points to no page or file of the site` : `The image "${value}" is not a file of the site`;
    const suggestion = verdict.suggestion;
    report(ruleId, range.exact ?? range.node, suggestion ? `${what}; did you mean "${suggestion}"?` : `${what}.`, suggestion && range.exact ? { range: range.exact, text: suggestion } : undefined);
  };

  const declared = enabled('components/unknown') ? declaredNames(root) : new Set<string>();
  const visit = (node: UNode) => {
    if (node.type === 'link' || (node.type === 'definition' && !String(node.label ?? '').startsWith('^'))) {
      if (typeof node.url === 'string') target('link', node.url, node);
    } else if (node.type === 'image') {
      if (typeof node.url === 'string') target('image', node.url, node);
    } else if (isJsxElement(node)) {
      const checked = node.name !== null && (/^[A-Z]/.test(node.name) || HTML_TARGET_TAGS.has(node.name));
      for (const attr of checked ? node.attributes : []) {
        if (attr.type !== 'mdxJsxAttribute' || typeof attr.value !== 'string') continue;
        if (LINK_ATTRIBUTES.has(attr.name)) target('link', attr.value, node);
        else if (IMAGE_ATTRIBUTES.has(attr.name)) target('image', attr.value, node);
      }
      if (node.name && /^[A-Z]/.test(node.name) && enabled('components/unknown')) unknownComponent(node.name, node);
    }
    for (const child of node.children ?? []) visit(child);
  };
  const unknownComponent = (name: string, node: UNode) => {
    if (COMPONENTS.has(name) || name === 'Snippet' || declared.has(name.split('.')[0]!)) return;
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) return;
    const nameRange: [number, number] = [start + 1, start + 1 + name.length];
    const similar = knownLower.get(name.toLowerCase()) ?? [];
    let fix: LintFix | undefined;
    if (similar.length === 1 && text.slice(nameRange[0], nameRange[1]) === name) {
      const source = text.slice(start, end);
      const closing = `</${name}>`;
      const renamed = `<${similar[0]}${source.slice(1 + name.length, source.endsWith(closing) ? -closing.length : undefined)}${source.endsWith(closing) ? `</${similar[0]}>` : ''}`;
      fix = { range: [start, end], text: renamed };
    }
    const message = `The component <${name}> is not one the docs engine knows: the site shows only its content${similar.length === 1 ? `; did you mean <${similar[0]}>?` : '.'}`;
    report('components/unknown', nameRange, message, fix);
  };
  visit(root);
  return findings;
}

/** Names the page imports or exports itself (its own components and snippets). */
function declaredNames(root: UNode): Set<string> {
  const names = new Set<string>();
  for (const node of root.children ?? []) {
    if (node.type !== 'mdxjsEsm') continue;
    const program = (node.data?.estree ?? null) as EsNode | null;
    for (const stmt of (program?.body as EsNode[] | undefined) ?? []) {
      if (stmt.type === 'ImportDeclaration') {
        for (const s of (stmt.specifiers as EsNode[] | undefined) ?? []) names.add(String((s.local as EsNode).name));
      } else if (stmt.type === 'ExportNamedDeclaration' || stmt.type === 'ExportDefaultDeclaration') {
        const decl = stmt.declaration as EsNode | null | undefined;
        if (decl?.type === 'VariableDeclaration') for (const d of (decl.declarations as EsNode[]) ?? []) names.add(String((d.id as EsNode).name));
        else if (decl && (decl.id as EsNode | null | undefined)?.name) names.add(String((decl.id as EsNode).name));
      }
    }
  }
  return names;
}

/**
 * Where `value` is written inside `node`: the exact range of its last occurrence in the node's
 * source (a link's URL comes after its text) when found, and the node's own range.
 */
function valueRange(text: string, node: UNode, value: string): { exact?: [number, number]; node: [number, number] } {
  const start = node.position?.start.offset ?? 0;
  const end = node.position?.end.offset ?? start;
  const source = text.slice(start, end);
  // JSX attributes are written as they are; a Markdown URL may also be written in `<...>`.
  const i = isJsxElement(node) ? source.search(new RegExp(`=\\s*["']${escape(value)}["']`)) : source.lastIndexOf(value);
  if (i < 0) return { node: [start, end] };
  const offset = isJsxElement(node) ? start + i + source.slice(i).indexOf(value) : start + i;
  return { exact: [offset, offset + value.length], node: [start, end] };
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

