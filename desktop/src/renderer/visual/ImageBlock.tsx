import { createContext, useContext, useEffect, useState } from 'react';
import type { VisualBlock } from '@quire/shared/docs/visual/index';
import { pagePathOf } from '@quire/shared/docs/nav/index';
import { core } from '../trpc';
import { imageDisplayUrl, type ImageBase } from './image-url';

/** Where the open page's images load from (null until the core has answered); provided by the visual editor. */
export const ImageBaseContext = createContext<ImageBase | null>(null);

/**
 * The {@link ImageBase} of the page at repository path `path` of project `projectId`: the preview's base path
 * (core `preview.basePath`) and the page's path under the docs root (core `workspace.docsRoot`). Null until
 * both answered, and when the page is outside the docs root.
 */
export function useImageBase(projectId: string | null, path: string): ImageBase | null {
  const [base, setBase] = useState<ImageBase | null>(null);
  useEffect(() => {
    let live = true;
    setBase(null);
    if (!projectId) return;
    Promise.all([core.preview.basePath.query({ projectId }), core.workspace.docsRoot.query({ projectId })]).then(
      ([{ basePath }, { docsRoot }]) => {
        const prefix = docsRoot ? `${docsRoot}/` : '';
        if (live && path.startsWith(prefix)) setBase({ basePath, pagePath: pagePathOf(path.slice(prefix.length)) ?? path.slice(prefix.length) });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [projectId, path]);
  return base;
}

/**
 * An image block of the visual mode: the picture as the site shows it (`<img>` with its alt text and title,
 * loaded from the preview's copy of the project's files: image-url.ts), or its Markdown source when it cannot
 * be shown (an unsupported URL, or a file that does not load). A focusable `group` named "Image: <alt>";
 * its alt text and URL are edited in the side form.
 */
export function ImageBlock({ block }: { block: VisualBlock }) {
  const base = useContext(ImageBaseContext);
  const image = block.image ?? { src: '', alt: '', title: null };
  const url = base ? imageDisplayUrl(image.src, base) : null;
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <div className="visual-image" role="group" aria-label={image.alt ? `Image: ${image.alt}` : 'Image'} tabIndex={0}>
      {url !== null && failed !== url ? (
        <p>
          <img src={url} alt={image.alt} title={image.title ?? undefined} onError={() => setFailed(url)} />
        </p>
      ) : (
        <pre className="visual-source">{block.source}</pre>
      )}
    </div>
  );
}
