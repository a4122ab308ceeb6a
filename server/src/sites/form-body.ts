import type { IncomingMessage } from 'node:http';
import { readBody } from './site-json';

/** Largest form body a site endpoint reads, in bytes (a token or a password and a path). */
export const MAX_FORM_BYTES = 16 * 1024;

/** Why a form body was not read. */
export type FormRefusal = 'too_large' | 'unsupported_type' | 'aborted';

/**
 * Reads an HTML form post (`application/x-www-form-urlencoded`, WHATWG URL "application/x-www-form-urlencoded
 * parsing") from a raw request, at most {@link MAX_FORM_BYTES}: a longer body (announced or sent)
 * is refused without being kept. Invalid UTF-8 and escapes decode to U+FFFD, never to an error.
 * @returns the fields, or why they were not read
 */
export function readForm(req: IncomingMessage): Promise<URLSearchParams | FormRefusal> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    req.resume();
    return Promise.resolve('unsupported_type');
  }
  return readBody(req, MAX_FORM_BYTES).then((body) => (typeof body === 'string' ? body : new URLSearchParams(body.toString('utf8'))));
}
