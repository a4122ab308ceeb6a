import { useEffect, useRef, useState } from 'react';
import { core, errorMessage } from '../../trpc';
import { countBlocks, diffBlocks, type BlockOp } from './block-diff';
import { changeRuns, foldedRuns, unfoldLabel, type ChangeTarget } from './diff-nav';
import { changeSetImageFor } from './change-set-images';

/** Props of {@link RenderedDiff}. */
export interface RenderedDiffProps {
  projectId: string;
  path: string;
  /** the page before the change (null: the page is new) */
  before: string | null;
  /** the page after the change (null: the page was deleted) */
  after: string | null;
  /** told how many changed blocks (runs of changed top-level blocks) the rendering has, each time it is made */
  onChanges?(count: number): void;
  /** the change to move to ("Next change", F7): scrolled to the middle of the frame, and focused when asked */
  goTo?: ChangeTarget | null;
  /** F7 (1) or Shift+F7 (-1) was pressed inside the frame */
  onStepKey?(step: 1 | -1): void;
  /** the images of the change set by repository path, as `data:` URLs (change-set-images.ts): shown in place of the reader's copies */
  images?: ReadonlyMap<string, string>;
}

const NO_IMAGES: ReadonlyMap<string, string> = new Map();

const darkScheme = () => window.matchMedia('(prefers-color-scheme: dark)').matches;

/** The markers of changed blocks (an outline and a gutter bar; removed blocks struck through), and the site's top bar made to scroll away. */
const DIFF_CSS = `
[data-quire-diff] { position: relative; outline-offset: 4px; border-radius: 2px; }
[data-quire-diff]::before { content: ''; position: absolute; left: -14px; top: 0; bottom: 0; width: 4px; border-radius: 2px; }
[data-quire-diff='added'] { outline: 2px solid #1a7f37; }
[data-quire-diff='added']::before { background: #1a7f37; }
[data-quire-diff='changed'] { outline: 2px solid #bf8700; }
[data-quire-diff='changed']::before { background: #bf8700; }
[data-quire-diff='removed'] { outline: 2px solid #cf222e; text-decoration: line-through; opacity: 0.7; }
[data-quire-diff='removed'] * { text-decoration: line-through; }
[data-quire-diff='removed']::before { background: #cf222e; }
[data-quire-diff] { scroll-margin-top: 24px; }
/* The frame scrolls the whole page: the site's sticky top bar (layout.css .q-header) would cover the
   blocks scrolled under it, so here it scrolls away with the page, and the side columns stick to the top. */
.q-header { position: relative; }
.q-sidebar, .q-toc-inner { top: 0; max-height: 100vh; }
html { scroll-padding-top: 24px; }
.quire-unfold { display: block; width: 100%; margin: 8px 0; padding: 4px 8px; font: inherit; font-size: 13px; cursor: pointer;
  color: inherit; opacity: 0.75; background: transparent; border: 1px dashed currentColor; border-radius: 6px; }
.quire-unfold:hover, .quire-unfold:focus-visible { opacity: 1; }
[data-quire-change]:focus { outline-width: 3px; }
`;

/** The top-level blocks of a rendered page: its header, then the children of the prose. */
function blocksOf(doc: Document): Element[] {
  const header = doc.querySelector('.q-article .q-page-header');
  const prose = doc.querySelector('.q-article .q-prose');
  return [...(header ? [header] : []), ...(prose ? [...prose.children] : [])];
}

/** Renders `text` with the core's preview engine (the site's own); the HTML, or throws the reason it does not render. */
async function render(projectId: string, path: string, text: string): Promise<string> {
  const r = await core.preview.render.mutate({ projectId, path, text, theme: darkScheme() ? 'dark' : 'light' });
  if (!r.ok) throw new Error(`${r.message}${r.line ? ` (line ${r.line})` : ''}`);
  return r.html;
}

/**
 * Builds the diff document: the newer rendering (the older one for a deleted page) with every
 * changed top-level block marked by `data-quire-diff` (added, changed, removed) and the removed
 * blocks of the older rendering put back where they were.
 */
function markDiff(
  beforeHtml: string | null,
  afterHtml: string | null,
  lineCount: number,
  images: ReadonlyMap<string, string>,
): { html: string; summary: string; changes: number } {
  const parser = new DOMParser();
  const beforeDoc = beforeHtml !== null ? parser.parseFromString(beforeHtml, 'text/html') : null;
  const afterDoc = afterHtml !== null ? parser.parseFromString(afterHtml, 'text/html') : null;
  const doc = afterDoc ?? beforeDoc!;
  const beforeBlocks = beforeDoc ? blocksOf(beforeDoc) : [];
  const afterBlocks = afterDoc ? blocksOf(afterDoc) : [];
  const ops = diffBlocks(
    beforeBlocks.map((b) => b.outerHTML),
    afterBlocks.map((b) => b.outerHTML),
  );
  const shown = afterDoc ? afterBlocks : beforeBlocks;
  let anchor: Element | null = null; // the last block placed, in the shown document
  const placed: Element[] = []; // the block of each op, in the shown document
  for (const op of ops) {
    if (op.kind === 'removed') {
      const block = afterDoc ? (doc.importNode(beforeBlocks[op.before]!, true) as Element) : beforeBlocks[op.before]!;
      block.setAttribute('data-quire-diff', 'removed');
      block.setAttribute('title', 'Removed');
      if (afterDoc) {
        const parent = anchor?.parentElement ?? doc.querySelector('.q-article .q-prose');
        if (anchor && anchor.parentElement) anchor.after(block);
        else parent?.prepend(block);
      }
      anchor = block;
      placed.push(block);
      continue;
    }
    const block = shown[op.after]!;
    if (op.kind !== 'same') {
      block.setAttribute('data-quire-diff', op.kind);
      block.setAttribute('title', op.kind === 'added' ? 'Added' : 'Changed');
    }
    anchor = block;
    placed.push(block);
  }
  const runs = changeRuns(ops);
  runs.forEach(([start, end], k) => placed.slice(start, end).forEach((b) => b.setAttribute('data-quire-change', String(k))));
  foldUnchanged(doc, ops, placed, lineCount);
  if (afterDoc) {
    for (const img of afterDoc.querySelectorAll('img')) {
      const url = changeSetImageFor(images, img.getAttribute('src'));
      if (url) img.setAttribute('src', url);
    }
  }
  const style = doc.createElement('style');
  style.textContent = DIFF_CSS;
  doc.head.append(style);
  const c = countBlocks(ops);
  const summary = c.added + c.changed + c.removed === 0 ? 'No rendered block changed.' : `${c.added} added, ${c.changed} changed, ${c.removed} removed blocks.`;
  return { html: `<!doctype html>\n${doc.documentElement.outerHTML}`, summary, changes: runs.length };
}

/** The source line a rendered block came from (`data-line`, preview renders), or null. */
function lineOf(block: Element | undefined): number | null {
  const n = Number(block?.getAttribute('data-line'));
  return Number.isInteger(n) && n > 0 ? n : null;
}

/**
 * Folds the unchanged runs of blocks of diff-nav.ts `foldedRuns`: their blocks get `hidden` and
 * `data-quire-fold="<k>"`, and a button `data-quire-unfold="<k>"` before them reads "Show N unchanged
 * lines" (the source lines those blocks were rendered from, by their `data-line`; blocks when unknown,
 * or when `lineCount` is 0). The frame's script (core/review-diff-frame-script.ts) unfolds on click.
 */
function foldUnchanged(doc: Document, ops: readonly BlockOp[], placed: readonly Element[], lineCount: number): void {
  foldedRuns(ops).forEach(([from, to], k) => {
    let next: number | null = lineCount + 1;
    for (let j = to; j < ops.length; j++) {
      if (ops[j]!.kind === 'removed') continue;
      next = lineOf(placed[j]);
      break;
    }
    const first = from === 0 ? 1 : lineOf(placed[from]);
    const lines = lineCount > 0 && first !== null && next !== null && next > first ? next - first : null;
    const button = doc.createElement('button');
    button.type = 'button';
    button.className = 'quire-unfold';
    button.setAttribute('data-quire-unfold', String(k));
    button.textContent = lines !== null ? unfoldLabel(lines) : unfoldLabel(to - from, 'block');
    placed[from]!.before(button);
    for (const block of placed.slice(from, to)) {
      block.setAttribute('hidden', '');
      block.setAttribute('data-quire-fold', String(k));
    }
  });
}

/**
 * The rendered diff of one page (desktop-look.md "Reviews"): both sides rendered by the core with
 * the same engine and theme as the published site, top-level blocks compared, and the newer
 * rendering shown in a frame titled "Rendered diff: <path>", sandboxed with `allow-scripts` only (the
 * site's scripts draw diagrams and views as on the site, in an opaque origin; the change set's images are
 * shown from the review, as the reader's copy of the project does not hold them), with added
 * blocks outlined green, changed amber and removed red (struck through). Works offline.
 */
export function RenderedDiff({ projectId, path, before, after, onChanges, goTo = null, onStepKey, images = NO_IMAGES }: RenderedDiffProps) {
  const [state, setState] = useState<{ html: string; summary: string; changes: number } | { error: string } | null>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const stepKey = useRef(onStepKey);
  stepKey.current = onStepKey;
  const counted = useRef(onChanges);
  counted.current = onChanges;

  useEffect(() => {
    let cancelled = false;
    setState(null);
    Promise.all([before !== null ? render(projectId, path, before) : null, after !== null ? render(projectId, path, after) : null])
      .then(([b, a]) => {
        if (cancelled) return;
        const marked = markDiff(b, a, (after ?? before ?? '').split('\n').length, images);
        setState(marked);
        counted.current?.(marked.changes);
      })
      .catch((err: unknown) => !cancelled && setState({ error: `This page cannot be rendered: ${errorMessage(err)}. The source diff shows the change.` }));
    return () => {
      cancelled = true;
    };
  }, [projectId, path, before, after, images]);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: string; shift?: boolean } | null;
      if (event.source !== frame.current?.contentWindow || data?.type !== 'quire-diff-key') return;
      stepKey.current?.(data.shift ? -1 : 1);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  useEffect(() => {
    if (!goTo || !frame.current) return;
    if (goTo.focus) frame.current.focus();
    frame.current.contentWindow?.postMessage({ type: 'quire-diff-change', index: goTo.index, focus: goTo.focus }, '*');
  }, [goTo]);

  if (!state) return <p className="note">Rendering both versions...</p>;
  if ('error' in state) return <p role="alert">{state.error}</p>;
  return (
    <div className="rendered-diff">
      <p className="note rendered-diff-summary" aria-live="polite">
        <span className="legend legend-added">added</span> <span className="legend legend-changed">changed</span> <span className="legend legend-removed">removed</span> {state.summary}
      </p>
      <iframe ref={frame} title={`Rendered diff: ${path}`} sandbox="allow-scripts" srcDoc={state.html} />
    </div>
  );
}
