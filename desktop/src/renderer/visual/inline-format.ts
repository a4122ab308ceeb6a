/**
 * Inline formatting of the visual mode's editable blocks (EditableText.tsx) by the toolbar's "Bold", "Italic" and
 * "Link" (InlineTools.tsx): the current selection read and restored as character offsets, links set, changed and
 * removed in the block's DOM, and the block asked to hand its text to the page at once. The engine writes the
 * resulting `<b>`, `<i>` and `<a href>` as Markdown (shared/src/docs/visual/html-to-markdown.ts).
 */
import { safeHref } from '@quire/shared/site/escape';

/** Event an EditableText listens for on its element: hand the text on now (not after the typing pause). */
export const COMMIT_NOW_EVENT = 'quire-visual-commit-now';

/** Asks the editable block `el` to hand its HTML to the page now (EditableText's commit). */
export function commitNow(el: HTMLElement): void {
  el.dispatchEvent(new Event(COMMIT_NOW_EVENT));
}

/** A selection inside one editable block, as offsets into the block's text (`textContent`), `start <= end`. */
export interface TextSpan {
  start: number;
  end: number;
}

/** The editable block holding the window's selection and the selection's range, or null (no selection in a block). */
export function selectedEditable(): { el: HTMLElement; range: Range } | null {
  const sel = window.getSelection();
  if (!sel || sel.rangeCount === 0) return null;
  const range = sel.getRangeAt(0);
  const node = range.commonAncestorContainer;
  const el = (node instanceof Element ? node : node.parentElement)?.closest<HTMLElement>('[data-visual-editable]');
  return el ? { el, range } : null;
}

/** `range` (inside `el`) as text offsets of `el`. */
export function spanOf(el: HTMLElement, range: Range): TextSpan {
  const before = document.createRange();
  before.selectNodeContents(el);
  before.setEnd(range.startContainer, range.startOffset);
  const start = before.toString().length;
  return { start, end: start + range.toString().length };
}

/**
 * The range of `el`'s text between the offsets of `span` (clamped to the text). Its start lies in the text node
 * that starts there (so a selection of a whole link starts inside the link), its end in the node that ends there.
 */
export function rangeOf(el: HTMLElement, span: TextSpan): Range {
  const range = document.createRange();
  range.selectNodeContents(el);
  const texts: Text[] = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n as Text);
  if (texts.length === 0) return range;
  const at = (offset: number, preferNext: boolean): [Text, number] => {
    let seen = 0;
    for (const [i, t] of texts.entries()) {
      const end = seen + t.data.length;
      if (offset < end || (offset === end && (!preferNext || i === texts.length - 1))) return [t, Math.max(0, offset - seen)];
      seen = end;
    }
    const last = texts.at(-1)!;
    return [last, last.data.length];
  };
  const [sn, so] = at(span.start, true);
  const [en, eo] = span.end === span.start ? [sn, so] : at(span.end, false);
  range.setStart(sn, so);
  range.setEnd(en, eo);
  return range;
}

/** Focuses `el` and selects `range` in it. */
export function restoreSelection(el: HTMLElement, range: Range): void {
  el.focus();
  const sel = window.getSelection();
  sel?.removeAllRanges();
  sel?.addRange(range);
}

/** The closest element matching `selector` around the start of `range`, inside `el` (the link or mark the caret is in). */
function around(el: HTMLElement, range: Range, selector: string): HTMLElement | null {
  const start = range.startContainer;
  const child = start instanceof Element && !range.collapsed ? start.childNodes[range.startOffset] : null;
  for (const n of [range.commonAncestorContainer, child, start]) {
    const hit = n ? (n instanceof Element ? n : n.parentElement)?.closest<HTMLElement>(selector) : null;
    if (hit && el.contains(hit) && hit !== el) return hit;
  }
  return null;
}

/** The link (`<a>`) the selection `range` of block `el` is in, or null. */
export function linkAt(el: HTMLElement, range: Range): HTMLAnchorElement | null {
  return around(el, range, 'a') as HTMLAnchorElement | null;
}

/** What the toolbar shows about the selection: whether it is bold, italic, in a link. */
export interface InlineState {
  bold: boolean;
  italic: boolean;
  link: boolean;
}

/** The marks around the selection `range` of block `el`. */
export function inlineState(el: HTMLElement, range: Range): InlineState {
  return { bold: !!around(el, range, 'b, strong'), italic: !!around(el, range, 'i, em'), link: !!linkAt(el, range) };
}

/**
 * Why `url` cannot be a link's URL, or null when it can: it must not be empty, and must be a URL the site would
 * link to (`safeHref`, shared/src/site/escape.ts: http, https, mailto and relative URLs; `javascript:`, `data:`
 * and other schemes refused, decisions.md section 10).
 */
export function linkUrlProblem(url: string): string | null {
  if (url.trim() === '') return 'Enter the URL the link goes to.';
  if (safeHref(url) === undefined) return 'This URL cannot be a link: use http, https, mailto or a relative path such as /quickstart.';
  return null;
}

/**
 * Makes the text `span` of block `el` a link to `url` (written as given), or changes the href of the link it is
 * in; a collapsed span not in a link inserts the URL as a linked text. Selects the link's text afterwards and
 * commits the block. `url` must have passed {@link linkUrlProblem}.
 */
export function applyLink(el: HTMLElement, span: TextSpan, url: string): void {
  const range = rangeOf(el, span);
  restoreSelection(el, range);
  const link = linkAt(el, range);
  if (link) {
    link.setAttribute('href', url);
    const r = document.createRange();
    r.selectNodeContents(link);
    restoreSelection(el, r);
  } else if (range.collapsed) {
    const a = document.createElement('a');
    a.setAttribute('href', url);
    a.textContent = url;
    range.insertNode(a);
    const r = document.createRange();
    r.selectNodeContents(a);
    restoreSelection(el, r);
  } else {
    document.execCommand('createLink', false, url);
  }
  commitNow(el);
}

/** Unwraps the link the text `span` of block `el` is in (its text stays, selected) and commits the block. */
export function removeLink(el: HTMLElement, span: TextSpan): void {
  const range = rangeOf(el, span);
  const link = linkAt(el, range);
  if (link) {
    const first = link.firstChild;
    const last = link.lastChild;
    link.replaceWith(...Array.from(link.childNodes));
    const r = document.createRange();
    if (first && last) {
      r.setStartBefore(first);
      r.setEndAfter(last);
    } else r.setStart(el, 0);
    restoreSelection(el, r);
  } else restoreSelection(el, range);
  commitNow(el);
}

/** Toggles bold (`<b>`) or italic (`<i>`) on the selection of block `el` (the browser's command) and commits the block. */
export function toggleMark(el: HTMLElement, mark: 'bold' | 'italic'): void {
  document.execCommand(mark);
  commitNow(el);
}
