/**
 * A build worker (runs in a piscina worker thread under tsx): loads a checkout's project
 * ({@link loadProjectTask}) or renders one page or one OpenAPI operation per task with the shared
 * docs engine. The code highlighter is created once per worker; the file index and OpenAPI
 * registry once per build (`buildKey`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createCodeHighlighter } from '@quire/shared/docs/markdown/index';
import { loadOpenApiRegistry, type OpenApiRegistry } from '@quire/shared/docs/openapi/index';
import { renderOperationPage, type HighlightFn } from '@quire/shared/docs/openapi/operation-page';
import { renderSitePage } from '@quire/shared/docs/site-page';
import { openDocsFiles, type CheckoutFiles } from './checkout-files';
import { loadProject } from './load-project';
import { createLinter, type Linter } from '@quire/shared/lint/linter';
import type { LinkFilesResult, LinkFilesTask, LintTask, LintTaskResult, LoadResult, RenderResult, RenderTask } from './render-task';

// Started as the thread loads, so that the first page of a build does not wait for it.
let highlighter: ReturnType<typeof createCodeHighlighter> | undefined = createCodeHighlighter();
highlighter.catch(() => undefined); // a failure surfaces where a render awaits it
interface BuildState {
  files: CheckoutFiles;
  registry?: OpenApiRegistry;
  linter?: Linter;
}
/** Per-build state of the builds this worker served last (several projects may build at once). */
const states = new Map<string, BuildState>();
// Two: one build per worker process at a time is the default; a thread lives on between builds (render-pool.ts).
const MAX_STATES = 2;

function stateFor(task: Pick<RenderTask, 'buildKey' | 'checkoutDir' | 'docsRoot'>): BuildState {
  let s = states.get(task.buildKey);
  if (s) {
    states.delete(task.buildKey); // re-insert: most recently used last
  } else {
    s = { files: openDocsFiles(task.checkoutDir, task.docsRoot) };
    if (states.size >= MAX_STATES) states.delete(states.keys().next().value!);
  }
  states.set(task.buildKey, s);
  return s;
}

/** Renders one task; never throws for page problems (they come back as `{ ok: false }`). */
export default async function render(task: RenderTask): Promise<RenderResult> {
  highlighter ??= createCodeHighlighter();
  const hl = await highlighter;
  const highlight: HighlightFn = (code, lang) => hl.highlight(code, lang);
  const s = stateFor(task);
  const registry = () => (s.registry ??= loadOpenApiRegistry(s.files, task.openapi).registry);
  try {
    if (task.kind === 'operation') {
      const page = await renderOperationPage(registry(), task.ref, highlight);
      return page ? { ok: true, page } : { ok: false, message: `OpenAPI operation "${task.ref}" was not found` };
    }
    const source = s.files.read(task.filePath);
    if (source === undefined) return { ok: false, message: 'the file cannot be read', file: task.filePath };
    const page = await renderSitePage({
      filePath: task.filePath,
      source,
      files: s.files,
      highlighter: hl,
      variables: task.variables,
      userFields: task.userFields,
      glossary: task.glossary,
      registry,
    });
    return { ok: true, page };
  } catch (err) {
    const e = err as { name?: string; message?: string; file?: string; line?: number };
    if (e?.name === 'DocsError') {
      return { ok: false, message: e.message ?? 'cannot be parsed', file: e.file ?? (task.kind === 'page' ? task.filePath : undefined), ...(e.line ? { line: e.line } : {}) };
    }
    return { ok: false, message: `the renderer failed: ${e?.message ?? String(err)}`, ...(task.kind === 'page' ? { file: task.filePath } : {}) };
  }
}

/**
 * Loads a checkout's configuration and navigation (piscina task name `loadProjectTask`). Errors
 * come back as `{ ok: false }` with the file and line they name, since a thread boundary keeps
 * only an error's message.
 */
export function loadProjectTask(checkoutDir: string): LoadResult {
  try {
    return { ok: true, project: loadProject(checkoutDir) };
  } catch (err) {
    const e = err as { name?: string; message?: string; file?: string; line?: number; field?: string };
    if (e?.name === 'DocsError') {
      const message = e.field && !String(e.message).includes(e.field) ? `${e.field}: ${e.message}` : (e.message ?? 'cannot be read');
      return { ok: false, message, ...(e.file ? { file: e.file } : {}), ...(e.line ? { line: e.line } : {}) };
    }
    if (e?.name === 'BuildError') return { ok: false, message: e.message ?? 'cannot be built' };
    return { ok: false, message: `Loading the configuration failed: ${e?.message ?? String(err)}` };
  }
}

/**
 * Lints page files with the project's linter (piscina task name `lintPageTask`), the linter compiled
 * once per build. Never throws: a page that cannot be read or linted comes back as `{ ok: false }`.
 */
export async function lintPageTask(task: LintTask): Promise<LintTaskResult> {
  const s = stateFor(task);
  const out: LintTaskResult = [];
  for (const filePath of task.filePaths) {
    const source = s.files.read(filePath);
    if (source === undefined) {
      out.push({ filePath, ok: false, message: `${filePath}: the file cannot be read` });
      continue;
    }
    try {
      s.linter ??= createLinter(task.lint);
      out.push({ filePath, ok: true, ...(await s.linter.lintWithTargets(source, filePath)) });
    } catch (err) {
      out.push({ filePath, ok: false, message: `${filePath}: the linter failed: ${(err as Error)?.message ?? String(err)}` });
    }
  }
  return out;
}

/** Errors after which no hard link will work: another filesystem, or none allowed. */
const NO_LINKS = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP']);

/**
 * Hard-links (or, across filesystems, copies) files of a previous deployment into a new one
 * (piscina task name `linkFilesTask`; output-files.ts). Never throws: a failure comes back as `{ ok: false }`.
 */
export function linkFilesTask(task: LinkFilesTask): LinkFilesResult {
  const made = new Set<string>();
  let linked = 0;
  let copied = 0;
  let links = true;
  try {
    for (const rel of task.files) {
      const from = path.join(task.fromDir, rel);
      const to = path.join(task.toDir, rel);
      const dir = path.dirname(to);
      if (!made.has(dir)) {
        fs.mkdirSync(dir, { recursive: true });
        made.add(dir);
      }
      if (links) {
        try {
          fs.linkSync(from, to);
          linked++;
          continue;
        } catch (err) {
          if (!NO_LINKS.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
          links = false;
        }
      }
      fs.copyFileSync(from, to);
      copied++;
    }
    return { ok: true, linked, copied };
  } catch (err) {
    return { ok: false, message: (err as Error)?.message ?? String(err) };
  }
}
