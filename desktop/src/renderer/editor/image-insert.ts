/**
 * Images into a page: files pasted, dropped or chosen ("Insert image") are checked by the shared
 * rule (shared/src/docs/image-files.ts: type, 2 MiB), added to the project under `images/` of the
 * docs root through the core (`files.addBinary`, which names them uniquely), and the Markdown
 * showing each, `![<alt>](/images/<name>)`, is inserted in the editor.
 */
import { IMAGE_FOLDER, IMAGE_TYPES, imageFileName, imageFileProblem, imageMarkdown } from '@quire/shared/docs/image-files';
import { core, errorMessage } from '../trpc';
import { useChanges } from '../store/changes-slice';
import { useUi } from '../store/ui-slice';
import { imageBlockText } from './image-block';
import { monaco } from './monaco-editor';

/** What adding some files gave: the Markdown of each image added, and why the others were not. */
export interface AddedImages {
  markdown: string[];
  problems: string[];
}

/** The bytes of `file` in base64 (a data URL without its head). */
function readBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

/**
 * Adds `files` to the project one by one (their order kept): a file the shared rule refuses is not
 * sent, and the core's refusal of one does not stop the others.
 */
export async function addImageFiles(projectId: string, files: readonly File[]): Promise<AddedImages> {
  const out: AddedImages = { markdown: [], problems: [] };
  let prefix: string | null = null;
  for (const file of files) {
    const name = file.name || `image.${Object.keys(IMAGE_TYPES).find((ext) => IMAGE_TYPES[ext] === file.type) ?? 'png'}`;
    const problem = imageFileProblem(name, file.size);
    if (problem) {
      out.problems.push(problem);
      continue;
    }
    try {
      prefix ??= await core.workspace.docsRoot.query({ projectId }).then((r) => (r.docsRoot ? `${r.docsRoot}/` : ''));
      const added = await core.files.addBinary.mutate({ projectId, path: `${prefix}${IMAGE_FOLDER}/${imageFileName(name)}`, contentBase64: await readBase64(file) });
      out.markdown.push(imageMarkdown(name, added.url ?? `/${added.path}`));
    } catch (err) {
      out.problems.push(`${name} was not added: ${errorMessage(err)}`);
    }
  }
  return out;
}

/**
 * Tells the workspace that `count` images were added to project `projectId`: the changes list and the
 * file tree are read again, and the status says "Image added." / "<n> images added.". Nothing for 0.
 */
export function announceAddedImages(projectId: string, count: number): void {
  if (count === 0) return;
  useChanges.getState().refreshSoon(projectId);
  useUi.getState().treeChanged();
  useUi.getState().setNotice(count === 1 ? 'Image added.' : `${count} images added.`);
}

/**
 * The files a paste or a drop carries, to add as images (the rule judges each); none for a paste that
 * also carries text (copied from a document: the text is pasted as usual).
 */
export function filesOf(data: DataTransfer | null, kind: 'paste' | 'drop'): File[] {
  if (!data || (kind === 'paste' && data.types.includes('text/plain'))) return [];
  return [...data.files];
}

/**
 * Inserts `markdown` (one image a line) at `at` (default: the caret's selection), on lines of its own
 * ({@link imageBlockText}), as one undoable edit, and puts the caret after it.
 */
export function insertMarkdown(editor: monaco.editor.IStandaloneCodeEditor, markdown: readonly string[], at?: monaco.IPosition): void {
  const model = editor.getModel();
  if (!model || markdown.length === 0) return;
  const sel = editor.getSelection();
  const last = model.getLineCount();
  const end = model.getLineMaxColumn(last);
  const range = at ? new monaco.Range(at.lineNumber, at.column, at.lineNumber, at.column) : (sel ?? new monaco.Range(last, end, last, end));
  editor.pushUndoStop();
  const text = imageBlockText(model.getLineContent(range.startLineNumber), range.startColumn, range.endLineNumber === last, markdown);
  editor.executeEdits('quire-insert-image', [{ range, text, forceMoveMarkers: true }]);
  editor.pushUndoStop();
  editor.focus();
}
