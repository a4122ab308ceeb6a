import { setMaxListeners } from 'node:events';
import os from 'node:os';
import { Piscina } from 'piscina';
import type { LinkFilesResult, LinkFilesTask, LintTask, LintTaskResult, LoadResult, RenderResult, RenderTask } from './render-task';

/**
 * The build worker pool: piscina threads running render-worker.ts under tsx, one per available
 * core, started on the first build ({@link warmRenderPool}); all but one stop after 30 s without
 * work. One thread stays, so that a push after a quiet hour re-renders its page at once instead of
 * waiting about 1.5 s for a thread to load the renderer. The pool is shared by every build of
 * the process. Everything that parses repository content (the configuration with its `$ref`s,
 * OpenAPI files, pages with their snippets) runs here and never on the server's main thread, so a
 * hostile repository can slow only its own build (decisions.md section 10). Each thread's heap is
 * capped at {@link WORKER_HEAP_MB}: a task that needs more loses its thread, and its build fails
 * naming the file.
 */
let pool: Piscina | undefined;

/** Old-generation heap of each worker thread, in MiB. */
export const WORKER_HEAP_MB = 512;

/** Number of worker threads the pool uses: the available cores (at least 1). */
export function renderPoolSize(): number {
  return Math.max(1, os.availableParallelism());
}

function getPool(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./render-worker.ts', import.meta.url).href,
    execArgv: ['--import', 'tsx'],
    minThreads: 1,
    maxThreads: renderPoolSize(),
    idleTimeout: 30_000,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  return pool;
}

/**
 * Starts the pool's first thread (loading the renderer takes it about 1.5 s) without waiting for it:
 * a build calls this before fetching its repository, so the two overlap.
 */
export function warmRenderPool(): void {
  getPool();
}

/** True when a task failed because its worker thread ran out of heap. */
function isOutOfMemory(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | undefined;
  return e?.code === 'ERR_WORKER_OUT_OF_MEMORY' || /memory limit|out of memory/i.test(e?.message ?? '');
}

/** The message of a task whose thread hit its heap limit. */
export const OUT_OF_MEMORY_MESSAGE = `needed more than ${WORKER_HEAP_MB} MB of memory and was stopped`;

/**
 * Loads a checkout's configuration and navigation (load-project.ts) on a worker thread.
 * @returns the worker's answer; a thread that runs out of heap gives `{ ok: false }` saying so
 * @throws the signal's reason when `signal` aborts (the thread is terminated)
 */
export async function loadInPool(checkoutDir: string, signal: AbortSignal): Promise<LoadResult> {
  try {
    return (await getPool().run(checkoutDir, { name: 'loadProjectTask', signal })) as LoadResult;
  } catch (err) {
    signal.throwIfAborted();
    if (isOutOfMemory(err)) return { ok: false, message: `Loading the configuration ${OUT_OF_MEMORY_MESSAGE}.` };
    throw err;
  }
}

/**
 * Renders every task on the pool, at most one per worker at a time, calling `onResult` as each
 * finishes (in completion order). A task whose thread runs out of heap comes back as
 * `{ ok: false }` naming its file. The first `{ ok: false }` result stops the remaining tasks (it
 * was reported through `onResult`; the promise resolves). Aborting `signal` cancels queued tasks
 * and terminates running ones; the promise then rejects with the signal's reason.
 */
export async function renderAll(
  tasks: RenderTask[],
  onResult: (task: RenderTask, result: RenderResult) => void,
  signal?: AbortSignal,
): Promise<void> {
  if (tasks.length === 0) return;
  const p = getPool();
  const inner = new AbortController();
  setMaxListeners(tasks.length + 10, inner.signal); // piscina listens once per queued task
  const onAbort = () => inner.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  let failed = false;
  const run = async (task: RenderTask): Promise<RenderResult> => {
    try {
      return (await p.run(task, { signal: inner.signal })) as RenderResult;
    } catch (err) {
      if (inner.signal.aborted || !isOutOfMemory(err)) throw err;
      return { ok: false, message: `rendering ${OUT_OF_MEMORY_MESSAGE}`, ...(task.kind === 'page' ? { file: task.filePath } : {}) };
    }
  };
  try {
    await Promise.all(
      tasks.map(async (task) => {
        const result = await run(task);
        if (failed) return;
        onResult(task, result);
        // A page that fails the build stops the others early.
        if (!result.ok) {
          failed = true;
          inner.abort(new Error('render failed'));
        }
      }),
    );
  } catch (err) {
    signal?.throwIfAborted();
    if (!failed) throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Lints a batch of pages on the pool (render-worker.ts `lintPageTask`). A batch whose thread runs out
 * of heap comes back as `{ ok: false }` for each of its pages; aborting `signal` cancels it.
 */
export async function lintInPool(task: LintTask, signal: AbortSignal): Promise<LintTaskResult> {
  try {
    return (await getPool().run(task, { name: 'lintPageTask', signal })) as LintTaskResult;
  } catch (err) {
    if (signal.aborted || !isOutOfMemory(err)) throw err;
    return task.filePaths.map((filePath) => ({ filePath, ok: false as const, message: `${filePath}: linting ${OUT_OF_MEMORY_MESSAGE}` }));
  }
}

/**
 * Links (or copies) files of a previous deployment into a new one on a worker thread
 * (render-worker.ts `linkFilesTask`), so the server's main thread stays free.
 * @throws Error naming the file system failure; the signal's reason when `signal` aborts
 */
export async function linkInPool(task: LinkFilesTask, signal?: AbortSignal): Promise<{ linked: number; copied: number }> {
  const result = (await getPool().run(task, { name: 'linkFilesTask', ...(signal ? { signal } : {}) })) as LinkFilesResult;
  if (!result.ok) throw new Error(`sharing files with the previous deployment failed: ${result.message}`);
  return result;
}

/** Stops the pool's workers (server shutdown, end of a benchmark). Safe to call when none runs. */
export async function closeRenderPool(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.destroy();
}
