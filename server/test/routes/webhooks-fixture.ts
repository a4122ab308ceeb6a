/**
 * Helpers of the outgoing webhook tests: a local receiver (an HTTP server on 127.0.0.1 answering
 * each request with a chosen status, so the app needs QUIRE_ALLOW_PRIVATE_NETWORK=1 to reach it),
 * endpoint registration and polling of the history API.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { bearer } from '../helpers/app';

/** One request the receiver got. */
export interface ReceivedRequest {
  headers: Record<string, string>;
  body: string;
}

/** A local webhook receiver. */
export interface Receiver {
  /** `http://127.0.0.1:<port>/hook` */
  url: string;
  /** What arrived, in order. */
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * Starts a receiver whose answer to its n-th request (0-based) is `statusFor(n)`, with the body
 * `answer <n>`.
 */
export async function startReceiver(statusFor: (n: number) => number = () => 200): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = requests.length;
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      requests.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(statusFor(n), { 'content-type': 'text/plain' });
      res.end(`answer ${n}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Registers an endpoint through the API; returns its id and secret. @throws when not 201. */
export async function registerEndpoint(
  app: FastifyInstance,
  key: string,
  projectId: string,
  body: Record<string, unknown>,
): Promise<{ id: string; secret: string }> {
  const res = await app.inject({ method: 'POST', url: `/v1/projects/${projectId}/webhooks`, headers: bearer(key), payload: body });
  if (res.statusCode !== 201) throw new Error(`webhook create failed: ${res.statusCode} ${res.body}`);
  return res.json().data as { id: string; secret: string };
}

/** Polls `check` every 50 ms until it returns a value other than undefined; @throws after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** An event as the history API lists it. */
export interface ListedEvent {
  id: string;
  type: string;
  status: string;
  attemptCount: number;
  projectId: string;
  webhookId: string;
  [k: string]: unknown;
}

/** `GET /v1/webhooks/history<query>` with the spec's `Api-Key` header; returns the response. */
export function history(app: FastifyInstance, key: string, query = '') {
  return app.inject({ url: `/v1/webhooks/history${query}`, headers: { 'api-key': key } });
}

/** Polls the history until the event of `webhookId` of `type` has one of `statuses`; returns it. */
export async function waitForEvent(app: FastifyInstance, key: string, webhookId: string, type: string, statuses: string[]): Promise<ListedEvent> {
  return waitFor(`a ${type} event of ${webhookId} with status ${statuses.join('|')}`, async () => {
    const res = await history(app, key, `?webhook_id=${webhookId}&event_type=${type}`);
    const event = (res.json().data as ListedEvent[])[0];
    return event && statuses.includes(event.status) ? event : undefined;
  });
}
