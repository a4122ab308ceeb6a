import { useState, type MouseEvent, type ReactNode } from 'react';
import { core, errorMessage } from '../trpc';

/**
 * A link to a preview site (a preview build's URL, a review's preview). Previews are private by
 * default (decisions.md section 11), so a click asks the core for a member pass
 * (`previews.open`, core/preview-pass.ts) and opens that in the browser instead of the bare URL,
 * which shows the link's target on hover; a refusal shows next to the link.
 */
export function OpenPreviewLink({ projectId, url, children }: { projectId: string; url: string; children: ReactNode }) {
  const [error, setError] = useState<string | null>(null);
  const open = async (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    setError(null);
    try {
      const pass = await core.previews.open.mutate({ projectId, url });
      window.open(pass.url, '_blank', 'noopener,noreferrer');
    } catch (err) {
      setError(`The preview cannot be opened: ${errorMessage(err)}`);
    }
  };
  return (
    <>
      <a href={url} target="_blank" rel="noopener noreferrer" onClick={(event) => void open(event)}>
        {children}
      </a>
      {error && <span role="alert">{error}</span>}
    </>
  );
}
