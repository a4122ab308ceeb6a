/**
 * Connections that hold a long-lived stream: the server-sent events of tRPC subscriptions (the
 * desktop app's build progress), which last as long as their build runs. A stopping server cannot
 * wait for them (the build is handed back to the queue, not finished, so the stream would outlast
 * the 30 s stop limit), so `buildApp` cuts them when it starts closing. The client sees a dropped
 * connection, not an ended subscription: its subscription link reconnects (to another process, or
 * to this one once it is back; the first update of a new stream repeats the whole log), and the
 * desktop app reads the build by polling meanwhile.
 */
import type { ServerResponse } from 'node:http';

/** The streaming responses this process is serving. */
export class LiveStreams {
  private readonly responses = new Set<ServerResponse>();

  /**
   * Tracks `response` until it is closed (the stream ended, or its client left), so a keep-alive
   * connection that later carries ordinary requests is not cut for them.
   */
  hold(response: ServerResponse): void {
    if (response.destroyed || this.responses.has(response)) return;
    this.responses.add(response);
    response.once('close', () => this.responses.delete(response));
  }

  /** Number of streams held now. */
  get size(): number {
    return this.responses.size;
  }

  /** Cuts the connection of every held stream (without a closing event); returns how many were cut. */
  cutAll(): number {
    const cut = this.responses.size;
    for (const response of this.responses) response.socket?.destroy();
    this.responses.clear();
    return cut;
  }
}
