/**
 * The contract between the MDX converter and the component renderers (one file per component family).
 * A component gets its statically known props and ways to render its children, and returns HTML that is
 * sanitized with the rest of the page.
 */
import type { CodeHighlighter } from '../highlight';
import type { HeadingCollector } from '../headings';
import { escapeHtml } from '../html';
import { iconSvgOrFallback, isIconUrl } from '../icons';
import { inlineMarksHtml } from '../inline-marks';
import type { MdxJsxElement, UNode } from '../mdx-nodes';
import { HtmlValue } from '../static-eval';

/** Props as read statically from the JSX attributes (strings, numbers, booleans, arrays, objects, HTML). */
export type Props = Record<string, unknown>;

/** What a component renderer receives. */
export interface ComponentContext {
  /** the element as written, e.g. `Card` or `Tree.Folder` */
  name: string;
  props: Props;
  /** the element itself (to look at child elements, e.g. the `Tab`s of `Tabs`) */
  node: MdxJsxElement;
  /** HTML of all children */
  children(): string;
  /** HTML of some nodes (e.g. one `Tab`'s children) */
  render(nodes: UNode[]): string;
  highlighter: CodeHighlighter;
  /** the page's id allocator (accordion, step and update ids stay unique next to headings) */
  headings: HeadingCollector;
}

/** Renders one component to (unsanitized) HTML. */
export type Component = (ctx: ComponentContext) => string;

/** A prop as text: strings as is, numbers stringified, anything else undefined. */
export function str(props: Props, key: string): string | undefined {
  const v = props[key];
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return undefined;
}

/** A boolean prop: `open`, `open={true}`, `open="true"` → true. */
export function bool(props: Props, key: string): boolean {
  const v = props[key];
  return v === true || v === 'true' || v === '';
}

/** A prop as escaped HTML text, or the HTML of a JSX value (`title={<b>x</b>}`); '' when absent. */
export function html(props: Props, key: string): string {
  const v = props[key];
  if (v instanceof HtmlValue) return v.html;
  const s = str(props, key);
  return s === undefined ? '' : escapeHtml(s);
}

/**
 * A title-like prop as HTML: a string with its inline Markdown marks rendered (code, strong, emphasis;
 * inline-marks.ts, everything else escaped), or the HTML of a JSX value; '' when absent.
 */
export function inlineHtml(props: Props, key: string): string {
  const v = props[key];
  if (v instanceof HtmlValue) return v.html;
  const s = str(props, key);
  return s === undefined ? '' : inlineMarksHtml(s);
}

/**
 * An `icon` prop as HTML: an inline SVG passed as JSX, an image for URLs and paths, the icon set's SVG
 * for names (a neutral glyph for names the set does not know, so sibling cards stay alike; no warning);
 * '' when there is no icon prop.
 */
export function iconHtml(icon: unknown, className = 'q-icon'): string {
  if (icon instanceof HtmlValue) return `<span class="${className}" aria-hidden="true">${icon.html}</span>`;
  if (typeof icon !== 'string' || !icon.trim()) return '';
  if (isIconUrl(icon)) return `<img class="${className} q-icon-img" src="${escapeHtml(icon)}" alt="" />`;
  return iconSvgOrFallback(icon, className);
}

/** The child JSX elements of a node with one of the given names (e.g. the `Tab`s of `Tabs`). */
export function childElements(node: MdxJsxElement, names: string[]): MdxJsxElement[] {
  return (node.children as UNode[]).filter(
    (c): c is MdxJsxElement => (c.type === 'mdxJsxFlowElement' || c.type === 'mdxJsxTextElement') && names.includes(String(c.name)),
  );
}

/** The props the converter stored on a child element. */
export function propsOf(node: MdxJsxElement): Props {
  return node.data?.quireProps ?? {};
}
