/**
 * JSON in and out of the site's own endpoints under `/_quire/` (search, feedback, chat) and the MCP
 * server, on the raw Node request: bodies read with a size cap, answers in the API's envelope
 * (`{data}` / `{error: {code, message, details?}}`, interface-spec.md "Errors") with the site's
 * security headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '@quire/shared/errors';
import { findUnstorableText } from '@quire/shared/text';
import { SECURITY_HEADERS } from './security-headers';

/** Largest JSON body a site endpoint reads, in bytes. */
export const MAX_SITE_JSON_BYTES = 64 * 1024;

/**
 * Reads a body of at most `max` bytes: the bytes, `too_large` when it is longer (announced or sent;
 * the rest is drained, not kept), or `aborted` when the client went away.
 */
export function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too_large' | 'aborted'> {
  const announced = Number(req.headers['content-length'] ?? 0);
  if (announced > max) {
    req.resume();
    return Promise.resolve('too_large');
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: Buffer | 'too_large' | 'aborted') => {
      if (done) return;
      done = true;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > max) {
        chunks.length = 0;
        req.resume();
        finish('too_large');
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => finish(Buffer.concat(chunks)));
    req.on('error', () => finish('aborted'));
    req.on('aborted', () => finish('aborted'));
  });
}

/**
 * Reads a JSON object body (`Content-Type: application/json`), at most `max` bytes.
 * @throws ApiError invalid_request (400) for another content type, a body that is not a JSON object,
 *   or text a database would refuse (NUL, lone surrogates: `details.field`); 413-sized bodies are
 *   refused as invalid_request with `details.issue` `too_large`.
 */
export async function readJsonBody(req: IncomingMessage, max = MAX_SITE_JSON_BYTES): Promise<Record<string, unknown>> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    req.resume();
    throw new ApiError('invalid_request', 'Send the body as application/json.', { field: 'body', issue: 'unsupported_type' });
  }
  const bytes = await readBody(req, max);
  if (bytes === 'too_large') throw new ApiError('invalid_request', `The body is larger than ${max} bytes.`, { field: 'body', issue: 'too_large' });
  if (bytes === 'aborted') throw new ApiError('invalid_request', 'The body was not received completely.', { field: 'body', issue: 'aborted' });
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ApiError('invalid_request', 'The body is not valid JSON.', { field: 'body', issue: 'invalid_json' });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ApiError('invalid_request', 'The body must be a JSON object.', { field: 'body', issue: 'not_an_object' });
  for (const [field, v] of Object.entries(value)) {
    if (typeof v !== 'string') continue;
    const bad = findUnstorableText(v);
    if (bad) throw new ApiError('invalid_request', `${field}: ${bad.issue}`, { field, issue: bad.issue });
  }
  return value as Record<string, unknown>;
}

/**
 * Sends a JSON answer. `personal`: the answer depends on the reader (`private, no-store`), else
 * `no-store` as well for anything but GET (answers of writes are never cached) and `no-cache` for GET.
 * @param extraHeaders more header name/value pairs (e.g. CORS)
 */
export function sendSiteJson(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: unknown,
  personal: boolean,
  extraHeaders: readonly string[] = [],
): void {
  sendSiteJsonText(req, res, status, JSON.stringify(body), personal, extraHeaders);
}

/** {@link sendSiteJson} of a body already serialised (`json`: JSON text, such as a stored answer replayed). */
export function sendSiteJsonText(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  json: string,
  personal: boolean,
  extraHeaders: readonly string[] = [],
): void {
  const bytes = Buffer.from(json, 'utf8');
  res.writeHead(status, [
    'Content-Type', 'application/json; charset=utf-8',
    'Cache-Control', personal ? 'private, no-store' : req.method === 'GET' || req.method === 'HEAD' ? 'no-cache' : 'no-store',
    'Vary', 'Cookie, X-Audience-Token',
    'Content-Length', String(bytes.length),
    ...SECURITY_HEADERS,
    ...extraHeaders,
  ]);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/** Sends an {@link ApiError} in the error envelope (never cached). */
export function sendSiteError(req: IncomingMessage, res: ServerResponse, err: ApiError, extraHeaders: readonly string[] = []): void {
  sendSiteJson(req, res, err.status, err.toEnvelope(), true, extraHeaders);
}

/** 405 `method_not_allowed` with `Allow` (the request's body is drained, not read). */
export function sendSiteMethodNotAllowed(req: IncomingMessage, res: ServerResponse, allow: string): void {
  req.resume();
  sendSiteError(req, res, new ApiError('method_not_allowed', `Use ${allow} on this endpoint.`), ['Allow', allow]);
}
