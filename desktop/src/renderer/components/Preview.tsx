import { useCallback, useEffect, useRef } from 'react';

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
 * through `srcdoc` and sandboxed with `allow-scripts` only: the site's own scripts run (diagrams,
 * views, code block toggles, as on the site), in an opaque origin, so nothing in the frame can reach
 * the app or the core (the core refuses calls from another origin). The app scrolls the frame to the
 * editor's line by message (core/preview-frame-script.ts). A parse error shows as a banner over the
 * last good render.
 */
export function Preview({ html, error, rendering = false, topLine = 1 }: PreviewProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const line = useRef(topLine);
  line.current = topLine;

  // the frame's origin is opaque: '*' is the only target origin that reaches it; the message holds a line number only
  const follow = useCallback(() => {
    frame.current?.contentWindow?.postMessage({ type: 'quire-preview-scroll', line: line.current }, '*');
  }, []);

  useEffect(follow, [topLine, follow]);

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
      <iframe ref={frame} title="Preview" sandbox="allow-scripts" srcDoc={html} onLoad={follow} />
    </section>
  );
}
