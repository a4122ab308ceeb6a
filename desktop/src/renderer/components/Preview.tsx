/** Props of {@link Preview}. */
export interface PreviewProps {
  /** the last good render (kept while the page does not parse) */
  html: string;
  /** why the latest text could not be rendered, or null */
  error: string | null;
}

/**
 * The live preview: the page as the published site draws it, in a frame titled "Preview" that is
 * sandboxed with no permissions (no scripts, no same-origin access) and filled through `srcdoc`.
 * A parse error shows as a banner over the last good render.
 */
export function Preview({ html, error }: PreviewProps) {
  return (
    <section className="preview" aria-label="Preview pane">
      {error && (
        <p role="alert" className="preview-error">
          {error}
        </p>
      )}
      <iframe title="Preview" sandbox="" srcDoc={html} />
    </section>
  );
}
