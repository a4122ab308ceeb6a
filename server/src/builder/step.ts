import { performance } from 'node:perf_hooks';
import { isAbortError, throwIfAborted } from './errors';

/** What a build step needs from its surroundings: where log lines go and the cancel signal. */
export interface StepContext {
  log: (line: string) => void;
  signal?: AbortSignal;
}

/**
 * Runs one named build step and logs one line with its duration in milliseconds:
 * `✓ rendering pages (412 pages, 380 from cache) 1234 ms`, or `✗ rendering pages 87 ms` when it
 * throws (the error is rethrown unchanged), or `– rendering pages cancelled` when aborted.
 * `summary` turns the step's result into the parenthesised detail (omit it for none).
 * Throws AbortError before starting when the signal has already fired.
 *
 * @example const site = await step(ctx, 'writing site', () => writeSite(...), (r) => `${r.files} files`)
 */
export async function step<T>(
  ctx: StepContext,
  name: string,
  fn: () => Promise<T> | T,
  summary?: (result: T) => string | undefined,
): Promise<T> {
  throwIfAborted(ctx.signal);
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const result = await fn();
    const detail = summary?.(result);
    ctx.log(`✓ ${name}${detail ? ` (${detail})` : ''} ${ms()} ms`);
    return result;
  } catch (err) {
    ctx.log(isAbortError(err) ? `– ${name} cancelled after ${ms()} ms` : `✗ ${name} failed after ${ms()} ms`);
    throw err;
  }
}
