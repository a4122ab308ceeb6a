/**
 * Outbound HTTP requests under the address policy (decisions.md section 10: "every outbound
 * connection ... goes through one address policy in shared/: literal addresses in every form ...
 * are classified, names are resolved and the resolved address is the one connected to, redirects
 * to other hosts are not followed"). Outgoing webhook deliveries (decisions.md section 8) send
 * through {@link sendOutbound}; the API checks a destination when it is registered with
 * {@link checkOutboundDestination}.
 *
 * The URL rule without network (scheme, credentials, length, literal hosts) is
 * `@quire/shared/net/outbound-url`; the resolution and address check is ./address-check.ts.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { checkOutboundUrl, type OutboundPolicy, type OutboundUrlAccepted } from '@quire/shared/net/outbound-url';
import { resolveAllowed, type ResolvedAddress, type Resolver } from './address-check';
import { OutboundNetworkError, OutboundRefusedError } from './errors';

export type { OutboundPolicy } from '@quire/shared/net/outbound-url';
export { OutboundNetworkError, OutboundRefusedError } from './errors';
export type { Resolver, ResolvedAddress } from './address-check';

/** What came back. A 3xx is a response like any other: redirects are never followed. */
export interface OutboundResponse {
  statusCode: number;
  /** lowercase names; repeated headers joined with `, ` */
  headers: Record<string, string>;
  /**
   * The first {@link MAX_RESPONSE_BODY_BYTES} bytes of the body as UTF-8 (a character cut at the
   * end is dropped; NUL characters, which a database refuses, become U+FFFD).
   */
  body: string;
}

/** One request to send. */
export interface OutboundRequest {
  /** http:// or https:// (checked with `checkOutboundUrl`) */
  url: string;
  /** `POST` (default, webhook deliveries) or `GET` (checks such as a domain's verification challenge; send `body: ''`) */
  method?: 'POST' | 'GET';
  /** sent as given; `content-length` is added when missing */
  headers: Record<string, string>;
  body: string;
  /**
   * limit of the whole exchange (resolution, connection, TLS, request, response up to the body kept), in milliseconds; default
   * {@link DEFAULT_OUTBOUND_TIMEOUT_MS}
   */
  timeoutMs?: number;
}

/** Dependencies a caller may replace (tests). */
export interface OutboundOptions {
  /** how names are resolved (default getaddrinfo); called once per send */
  resolve?: Resolver;
}

/** Default limit of one exchange, in milliseconds. */
export const DEFAULT_OUTBOUND_TIMEOUT_MS = 15_000;

/** How much of a response body is kept, in bytes (4 KiB). */
export const MAX_RESPONSE_BODY_BYTES = 4096;

/** Time limit of the resolution made when a destination is registered, in milliseconds. */
const DESTINATION_RESOLVE_TIMEOUT_MS = 5_000;

/**
 * POSTs (or other method) to url: http(s) only, literal hosts classified, names resolved (all
 * addresses checked) and the connection made to the checked address (pinned via the `lookup`
 * option so Host/SNI stay the name), redirects never followed (a 3xx is just a response),
 * timeoutMs for the whole exchange. A fresh connection per request (no pooled socket can lead
 * elsewhere). The resolver is called once per send.
 * @throws OutboundRefusedError the address policy refused the URL or an address of its host
 * @throws OutboundNetworkError no response: the name did not resolve, the connection was refused or
 *   reset, TLS failed, or the time limit passed (the message names the host, address and port)
 */
export async function sendOutbound(request: OutboundRequest, policy: OutboundPolicy, options: OutboundOptions = {}): Promise<OutboundResponse> {
  const target = checkOutboundUrl(request.url, policy);
  if (!target.ok) throw new OutboundRefusedError(target.message);
  const timeoutMs = request.timeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new OutboundNetworkError(`${target.host}:${target.port} did not answer within ${timeoutMs} ms`)), timeoutMs);
  try {
    const addresses = await resolveAllowed(target.host, policy, {
      ...(options.resolve ? { resolve: options.resolve } : {}),
      signal: deadline.signal,
      timeoutMs,
    });
    return await exchange(target, addresses, request, deadline.signal, timeoutMs);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks a URL a customer registers for outgoing webhooks: http:// or https://, no credentials,
 * max 2048 chars, host not non-public in any literal form; then resolves the name and checks
 * every address. A name that does not resolve now is accepted (DNS may be set up later; every
 * delivery resolves and checks again). With `allowPrivateNetwork` nothing is resolved.
 * @throws OutboundRefusedError with a user-facing message (completes "url: ...").
 */
export async function checkOutboundDestination(url: string, policy: OutboundPolicy, options: OutboundOptions = {}): Promise<void> {
  const target = checkOutboundUrl(url, policy);
  if (!target.ok) throw new OutboundRefusedError(target.message);
  if (policy.allowPrivateNetwork || target.isAddress) return;
  try {
    await resolveAllowed(target.host, policy, { ...(options.resolve ? { resolve: options.resolve } : {}), timeoutMs: DESTINATION_RESOLVE_TIMEOUT_MS });
  } catch (err) {
    if (err instanceof OutboundNetworkError) return;
    throw err;
  }
}

/** Sends the request over a connection to one of `addresses` and reads the response. */
function exchange(
  target: OutboundUrlAccepted,
  addresses: ResolvedAddress[],
  request: OutboundRequest,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<OutboundResponse> {
  const where = target.isAddress ? `${target.host} port ${target.port}` : `${target.host} (${addresses.map((a) => a.address).join(', ')}) port ${target.port}`;
  const url = new URL(target.href);
  const headers: Record<string, string> = { ...request.headers };
  if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-length')) headers['content-length'] = String(Buffer.byteLength(request.body));
  return new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      reject(networkError(err, where, signal, timeoutMs));
    };
    const req = (target.scheme === 'https' ? https : http).request({
      protocol: url.protocol,
      hostname: target.host,
      port: target.port,
      path: `${url.pathname}${url.search}`,
      method: request.method ?? 'POST',
      headers,
      agent: false,
      lookup: pinnedLookup(addresses),
      signal,
    });
    req.on('error', fail);
    req.on('response', (res) => {
      const decoder = new StringDecoder('utf8');
      let body = '';
      let kept = 0;
      const finish = () => {
        if (settled) return;
        settled = true;
        resolve({ statusCode: res.statusCode ?? 0, headers: flatHeaders(res.headers), body: body.replace(/\0/g, '\uFFFD') });
        res.destroy();
      };
      res.on('data', (chunk: Buffer) => {
        const part = chunk.subarray(0, MAX_RESPONSE_BODY_BYTES - kept);
        kept += part.length;
        body += decoder.write(part);
        if (kept >= MAX_RESPONSE_BODY_BYTES) finish();
      });
      res.on('end', () => {
        body += decoder.end();
        finish();
      });
      res.on('error', fail);
      res.on('close', () => fail(new Error('the connection closed before the response ended')));
    });
    req.end(request.body);
  });
}

/** A `lookup` for the socket that answers with the checked addresses only (no second resolution). */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    const first = wanted[0];
    if (!first) {
      callback(Object.assign(new Error(`no IPv${options.family} address`), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    if (options.all) callback(null, wanted);
    else callback(null, first.address, first.family);
  };
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** An {@link OutboundNetworkError} saying what went wrong with `where` (host, addresses, port). */
function networkError(err: unknown, where: string, signal: AbortSignal, timeoutMs: number): OutboundNetworkError {
  if (signal.aborted) return new OutboundNetworkError(`${where} did not answer within ${timeoutMs} ms`);
  const inner = err instanceof AggregateError ? (err.errors.find((e: unknown) => (e as { code?: string }).code) ?? err) : err;
  const code = (inner as { code?: string }).code ?? '';
  const message = inner instanceof Error ? inner.message : String(inner);
  if (code === 'ECONNREFUSED') return new OutboundNetworkError(`the connection to ${where} was refused`);
  if (code === 'ECONNRESET' || code === 'EPIPE') return new OutboundNetworkError(`the connection to ${where} was reset`);
  if (code === 'ETIMEDOUT') return new OutboundNetworkError(`the connection to ${where} timed out`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return new OutboundNetworkError(`${where} cannot be reached (${code})`);
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/.test(code) || /\b(SSL|TLS)\b/.test(message)) {
    return new OutboundNetworkError(`TLS failed with ${where}: ${message}`);
  }
  return new OutboundNetworkError(`the exchange with ${where} failed: ${message}${code && !message.includes(code) ? ` (${code})` : ''}`);
}
