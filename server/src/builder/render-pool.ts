import { setMaxListeners } from 'node:events';
import os from 'node:os';
import { Piscina } from 'piscina';
import type { RenderResult, RenderTask } from './render-task';

/**
 * The render worker pool (issue 3: "pages render in a worker pool using every core"): piscina
 * threads running render-worker.ts under tsx, one per available core, started on the first task
 * and stopped after 30 s without work. Shared by every build of the process.
 */
let pool: Piscina | undefined;

/**
 * Up to this many tasks render on the calling thread when no worker is running: a one-page rebuild
 * should not wait for workers to boot (the renderer stays loaded in this thread afterwards).
 */
export const INLINE_TASK_LIMIT = 2;

/** Number of worker threads the pool uses: the available cores (at least 1). */
export function renderPoolSize(): number {
  return Math.max(1, os.availableParallelism());
}

function getPool(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./render-worker.ts', import.meta.url).href,
    execArgv: ['--import', 'tsx'],
    minThreads: 0,
    maxThreads: renderPoolSize(),
    idleTimeout: 30_000,
    // Workers hold a highlighter and a build's file index; keep the heap bounded.
    resourceLimits: { maxOldGenerationSizeMb: 512 },
  });
  return pool;
}

/**
 * Renders every task, at most one per worker at a time, calling `onResult` as each finishes
 * (in completion order). When there are at most {@link INLINE_TASK_LIMIT} tasks they run on this
 * thread instead. The first `{ ok: false }` result stops the remaining tasks (it was reported through
 * `onResult`; the promise resolves). Aborting `signal` cancels queued tasks and terminates running
 * ones; the promise then rejects with the signal's reason.
 */
export async function renderAll(
  tasks: RenderTask[],
  onResult: (task: RenderTask, result: RenderResult) => void,
  signal?: AbortSignal,
): Promise<void> {
  if (tasks.length === 0) return;
  // Few tasks: render here, unless the pool's workers are already up (warm).
  if (tasks.length <= INLINE_TASK_LIMIT && !(pool && pool.threads.length > 0)) {
    const { default: render } = await import('./render-worker');
    for (const task of tasks) {
      signal?.throwIfAborted();
      onResult(task, await render(task));
    }
    return;
  }
  const p = getPool();
  const inner = new AbortController();
  setMaxListeners(tasks.length + 10, inner.signal); // piscina listens once per queued task
  const onAbort = () => inner.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  let failed = false;
  try {
    await Promise.all(
      tasks.map(async (task) => {
        const result = (await p.run(task, { signal: inner.signal })) as RenderResult;
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

/** Stops the pool's workers (server shutdown, end of a benchmark). Safe to call when none runs. */
export async function closeRenderPool(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.destroy();
}
