/**
 * Errors the builder throws. The build runner shows {@link BuildError} messages to the user as
 * they are (they name the file, line and reason and never quote files from outside the checkout),
 * and treats {@link AbortError} as a cancellation, not a failure.
 */

/** A build that cannot complete because of the repository's content or settings (user fault). */
export class BuildError extends Error {
  override name = 'BuildError';
  constructor(
    message: string,
    /** file path relative to the docs root, when the error concerns one */
    readonly file?: string,
    /** 1-based line in that file */
    readonly line?: number,
  ) {
    super(message);
  }
  /** the build limit (a key of BuildLimits) whose crossing this error reports, if any */
  limit?: string;
}

/** The build was cancelled through its AbortSignal. `name` is `'AbortError'`, like DOM aborts. */
export class AbortError extends Error {
  override name = 'AbortError';
  constructor(message = 'The build was cancelled.') {
    super(message);
  }
}

/** Throws {@link AbortError} when `signal` has fired; call it between steps and inside loops. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError();
}

/** True for an {@link AbortError} or a DOM/Node abort error (piscina, child_process). */
export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || (err as { code?: string }).code === 'ABORT_ERR');
}
