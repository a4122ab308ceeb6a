/**
 * `files.addBinary`: an image a writer pastes, drops or inserts in the editor, added to the opened
 * project as a local change (a server project: bytes in the store, proposed later as a base64 entry;
 * a local folder: the file on disk too). The rule for types, size, naming and place is
 * shared/src/docs/image-files.ts, the one the renderer checks before it sends the bytes.
 */
import { decodeBase64 } from '@quire/shared/base64';
import { imageFileName, imageFileProblem, uniqueFileName } from '@quire/shared/docs/image-files';
import type { Core } from './core';
import { CoreError } from './core-error';
import { docsRootOf } from './docs-root';

/** What `files.addBinary` answers. */
export interface AddedImage {
  /** the repository path the image was written to (its name slugged and made unique) */
  path: string;
  /** its size in bytes */
  size: number;
  /** its URL on the site (`/images/diagram-1.png`), null when the file is outside the docs root (the site does not serve it) */
  url: string | null;
}


/**
 * Adds an image to an opened project: `path` is where the writer wants it (the renderer sends
 * `<docs root>/images/<file name>`); its folder is kept, its name slugged (`My Diagram.PNG` →
 * `my-diagram.png`) and made unique against the project's files, deleted ones included
 * (`diagram-1.png`, ...). Nothing is written when the input is refused.
 * @param contentBase64 the file's bytes, standard padded base64 (shared/src/base64.ts)
 * @throws CoreError NOT_FOUND when the project was not opened; BAD_REQUEST naming `contentBase64` for
 *   bytes that are not base64, or with the shared rule's message for a type that is not an image Quire
 *   takes or a file past 5 MiB (`MAX_IMAGE_BYTES`); what writing a local folder's file throws
 */
export function addImage(core: Core, projectId: string, path: string, contentBase64: string): AddedImage {
  const { docsRoot } = docsRootOf(core, projectId);
  const decoded = decodeBase64(contentBase64);
  if (!decoded) throw new CoreError('BAD_REQUEST', 'contentBase64: must be the file\'s bytes in padded standard base64.');
  const bytes = Buffer.from(decoded.buffer, decoded.byteOffset, decoded.byteLength);
  const problem = imageFileProblem(path, bytes.length);
  if (problem) throw new CoreError('BAD_REQUEST', problem);
  const slash = path.lastIndexOf('/');
  const folder = slash >= 0 ? path.slice(0, slash + 1) : '';
  const name = uniqueFileName(imageFileName(path), (candidate) => core.store.hasPath(projectId, folder + candidate));
  const target = folder + name;
  core.writeBytes(projectId, target, bytes);
  const prefix = docsRoot ? `${docsRoot}/` : '';
  return { path: target, size: bytes.length, url: target.startsWith(prefix) ? `/${target.slice(prefix.length)}` : null };
}
