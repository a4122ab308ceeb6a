/**
 * Server-sent events of a streamed answer (shared/src/api/chat.ts `ChatStreamEvent`; the
 * `text/event-stream` format of the HTML Living Standard, "Server-sent events") written on a raw
 * Node `ServerResponse`: the API route's hijacked reply and the site's `/_quire/chat`.
 *
 * Headers go out with the first event (so an ask refused before answering, e.g. 403 or 429, is
 * still a plain JSON error): status 200, `Content-Type: text/event-stream; charset=utf-8`,
 * `Cache-Control: no-store`, `X-Accel-Buffering: no` (proxies must not buffer), plus the caller's
 * headers. Each event is written as `event: <name>\ndata: <JSON>\n\n` and flushed at once (Nagle
 * off). When the client goes away the stream reports {@link EventStream.closed} and its `signal`
 * aborts, so the answerer stops.
 */
import type { ServerResponse } from 'node:http';
import type { ChatStreamEvent } from '@quire/shared/api/chat';
import { ApiError } from '@quire/shared/errors';

/** An open event stream. */
export interface EventStream {
  /** writes one event (headers first if none were sent); nothing once closed */
  send(event: ChatStreamEvent): void;
  /** ends the response */
  end(): void;
  /** whether any event was written (headers sent) */
  readonly started: boolean;
  /** whether the client went away or the stream ended */
  readonly closed: boolean;
  /** aborts when the client goes away */
  readonly signal: AbortSignal;
}

/** One event in the wire format. */
export function formatEvent(event: ChatStreamEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/**
 * An event stream on `res` (see the module comment).
 * @param headers more response headers as name/value pairs (security headers, CORS)
 */
export function openEventStream(res: ServerResponse, headers: readonly string[] = []): EventStream {
  const aborter = new AbortController();
  let started = false;
  let closed = false;
  res.on('close', () => {
    closed = true;
    if (!res.writableFinished) aborter.abort();
  });
  return {
    send(event) {
      if (closed || res.destroyed) return;
      if (!started) {
        started = true;
        res.writeHead(200, [
          'Content-Type', 'text/event-stream; charset=utf-8',
          'Cache-Control', 'no-store',
          'X-Accel-Buffering', 'no',
          ...headers,
        ]);
        const socket = res.socket as { setNoDelay?: (on: boolean) => unknown } | null;
        if (typeof socket?.setNoDelay === 'function') socket.setNoDelay(true);
      }
      res.write(formatEvent(event));
    },
    end() {
      if (!closed && !res.writableEnded) res.end();
      closed = true;
    },
    get started() {
      return started;
    },
    get closed() {
      return closed || res.destroyed;
    },
    signal: aborter.signal,
  };
}

/**
 * Runs `run` with an event stream on `res`: events go out as they come. An error before the first
 * event rejects (nothing was written: the caller answers it as JSON with its status); an error after
 * it is sent as the `error` event (an {@link ApiError} as it is, anything else logged and sent as
 * `internal_error`) and the stream ends.
 * @param start called once just before the first event is written; returns more headers
 *   (the API route hijacks its reply there and passes on its rate-limit headers)
 */
export async function respondWithEvents(
  res: ServerResponse,
  start: () => readonly string[],
  run: (emit: (event: ChatStreamEvent) => void, signal: AbortSignal) => Promise<unknown>,
  log: { error(obj: object, msg: string): void },
): Promise<void> {
  let stream: EventStream | undefined;
  const aborter = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) aborter.abort();
  };
  res.on('close', onClose);
  try {
    await run((event) => {
      stream ??= openEventStream(res, start());
      stream.send(event);
    }, aborter.signal);
  } catch (err) {
    if (!stream) throw err;
    const known = err instanceof ApiError ? err : new ApiError('internal_error', 'The answer failed; try again.');
    if (!(err instanceof ApiError)) log.error({ err }, 'a chat answer failed');
    stream.send({ event: 'error', data: known.toEnvelope() });
  } finally {
    res.off('close', onClose);
  }
  stream?.end();
}
