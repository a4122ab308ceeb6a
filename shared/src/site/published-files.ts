/**
 * Which files of a docs root a site publishes as they are (images, favicon, OpenAPI specs, downloads),
 * at their own path: the builder copies them into a deployment (server/src/builder/site-writer.ts),
 * `quire-docs dev` serves them from the docs folder. Node-free.
 */
import { CONFIG_FILES } from '../docs/config/page-files';
import { ASSET_DIR } from './asset-files';

const CONFIG = new Set<string>(CONFIG_FILES);
const ASSET_TOP = `${ASSET_DIR.split('/')[0]}/`;

/**
 * True for a docs-root file (relative, POSIX) published as it is: not a page (`.md`/`.mdx`), not
 * docs.json/mint.json, nothing under `snippets/`, `_snippets/` or `_quire/` (the site's own URL
 * space), no dotfile or dot-folder, no empty path segment.
 */
export function isStaticFile(file: string): boolean {
  return (
    !/\.mdx?$/i.test(file) &&
    !CONFIG.has(file) &&
    !file.startsWith('snippets/') &&
    !file.startsWith('_snippets/') &&
    !file.startsWith(ASSET_TOP) &&
    !file.split('/').some((seg) => seg.startsWith('.') || seg === '')
  );
}
