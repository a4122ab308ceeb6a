/**
 * The one error type of the desktop core. Domain classes throw {@link CoreError}s whose messages
 * are meant for the person using the app; the tRPC setup (trpc.ts) alone turns them into tRPC
 * errors, so the services know nothing of the transport.
 */
import { isUnreachable, serverErrorCode } from './server-client';

/**
 * What went wrong, as a small closed set (the names follow the HTTP status classes of RFC 9110
 * section 15, which tRPC's codes mirror):
 * - `BAD_REQUEST`: the input cannot be used (a relative folder path, nothing to propose...)
 * - `UNAUTHORIZED`: nobody is signed in, or the server refused the session
 * - `FORBIDDEN`: the person's role does not allow it
 * - `NOT_FOUND`: the project, file, review or conflict is not known here (or on the server)
 * - `CONFLICT`: the state changed meanwhile or forbids the move (a merged review, a stale fix)
 * - `PRECONDITION_FAILED`: something must be done first
 * - `TOO_MANY_REQUESTS`: the server's rate limit
 * - `UNAVAILABLE`: the Quire server cannot be reached, or answered with an error the core does not know
 * - `INTERNAL`: the computer refused (a disk write failed); the message says what happened
 */
export type CoreErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PRECONDITION_FAILED'
  | 'TOO_MANY_REQUESTS'
  | 'UNAVAILABLE'
  | 'INTERNAL';

/** An error of the desktop core: a {@link CoreErrorCode} and a message shown to the person as it is. */
export class CoreError extends Error {
  override readonly name = 'CoreError';

  /**
   * @param code what went wrong (see {@link CoreErrorCode})
   * @param message the user-facing message (a full sentence)
   * @param options.cause the underlying error, kept for logs
   */
  constructor(
    readonly code: CoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The server's error codes the core passes on as they are; any other becomes `UNAVAILABLE`. */
const PASSED_ON: readonly CoreErrorCode[] = ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'BAD_REQUEST', 'CONFLICT', 'TOO_MANY_REQUESTS'];

/**
 * A failed call to the Quire server as the core's error: a {@link CoreError} is returned as it is;
 * when the server cannot be reached, `UNAVAILABLE` with `unreachableMessage`; else the server's code
 * (when one of {@link PASSED_ON}, otherwise `UNAVAILABLE`) with the server's message.
 */
export function serverError(err: unknown, unreachableMessage: string): CoreError {
  if (err instanceof CoreError) return err;
  if (isUnreachable(err)) return new CoreError('UNAVAILABLE', unreachableMessage, { cause: err });
  const code = serverErrorCode(err) as CoreErrorCode | undefined;
  const message = (err as Error)?.message || 'The server refused the request.';
  return new CoreError(code && PASSED_ON.includes(code) ? code : 'UNAVAILABLE', message, { cause: err });
}
