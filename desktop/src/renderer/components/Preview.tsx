import { useCallback, useEffect, useRef } from 'react';
import { anchorsOf, offsetForLine } from '../editor/scroll-map';

/** Props of {@link Preview}. */
export interface PreviewProps {
  /** the last good render (kept while the page does not parse) */
  html: string;
  /** why the latest text could not be rendered, or null */
  error: string | null;
  /** true when the latest render has taken more than 300 ms so far: a thin "Rendering..." bar shows */
  rendering?: boolean;
  /** the editor's first visible line: the preview scrolls to the block rendered from it */
  topLine?: number;
}

/**
 * The live preview: the page as the published site draws it, in a frame titled "Preview" filled
 * through `srcdoc` and sandboxed without scripts (`allow-same-origin` only, so that the app can
 * scroll it to the editor's line: with no script in the frame and none allowed, nothing in it can
 * use that origin; the page's own iframes keep their sandbox without it). A parse error shows as a
 * banner over the last good render.
 */
export function Preview({ html, error, rendering = false, topLine = 1 }: PreviewProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const line = useRef(topLine);
  line.current = topLine;
  const raf = useRef(0);

  const follow = useCallback(() => {
    cancelAnimationFrame(raf.current);
    raf.current = requestAnimationFrame(() => {
      const doc = frame.current?.contentDocument;
      const win = frame.current?.contentWindow;
      if (!doc || !win || !doc.body) return;
      const anchors = anchorsOf(doc);
      if (anchors.length === 0) return;
      // the site's sticky header covers the top of the page: the block goes just below it
      const header = doc.querySelector('.q-header')?.getBoundingClientRect().height ?? 0;
      const top = line.current <= 1 ? 0 : Math.max(0, offsetForLine(anchors, line.current) - header - 8);
      win.scrollTo({ top, behavior: 'instant' as ScrollBehavior });
    });
  }, []);

  useEffect(follow, [topLine, follow]);
  useEffect(() => () => cancelAnimationFrame(raf.current), []);

  return (
    <section className="preview" aria-label="Preview pane">
      {rendering && (
        <div className="rendering-bar" role="status" aria-label="Rendering">
          Rendering...
        </div>
      )}
      {error && (
        <p role="alert" className="preview-error">
          {error}
        </p>
      )}
      <iframe ref={frame} title="Preview" sandbox="allow-same-origin" srcDoc={html} onLoad={follow} />
    </section>
  );
}
