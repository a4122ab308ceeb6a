/**
 * The preview worker thread (started by preview-service.ts under tsx): keeps the files of the
 * projects it previews and renders pages with preview-render.ts, so rendering never blocks the
 * core's thread (and in Electron, the main process).
 * Messages in: `{type: 'load', key, files}`, `{type: 'render', id, key, path, text, theme, glossary, basePath}`;
 * out: `{id, result}`.
 */
import { parentPort } from 'node:worker_threads';
import type { GlossaryEntry } from '@quire/shared/docs/markdown/index';
import { loadPreviewProject, renderPreview, type PreviewProject } from './preview-render';

/** A message to the worker. */
export type PreviewWorkerRequest =
  | { type: 'load'; key: string; files: Record<string, string> }
  | { type: 'render'; id: number; key: string; path: string; text: string; theme: 'light' | 'dark'; glossary: GlossaryEntry[]; basePath: string };

const projects = new Map<string, PreviewProject>();
const MAX_PROJECTS = 4;

parentPort?.on('message', (msg: PreviewWorkerRequest) => {
  if (msg.type === 'load') {
    projects.delete(msg.key);
    if (projects.size >= MAX_PROJECTS) projects.delete(projects.keys().next().value!);
    projects.set(msg.key, loadPreviewProject(msg.files));
    return;
  }
  const project = projects.get(msg.key);
  if (!project) {
    parentPort!.postMessage({ id: msg.id, result: { ok: false, message: 'the project is not loaded' } });
    return;
  }
  renderPreview(project, msg.path, msg.text, { theme: msg.theme, glossary: msg.glossary, basePath: msg.basePath }).then(
    (result) => parentPort!.postMessage({ id: msg.id, result }),
    (err: unknown) => parentPort!.postMessage({ id: msg.id, result: { ok: false, message: (err as Error)?.message ?? String(err) } }),
  );
});
