import type { IncomingMessage } from 'node:http';

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
  const announced = Number(req.headers['content-length'] ?? 0);
  if (announced > MAX_FORM_BYTES) {
    req.resume();
    return Promise.resolve('too_large');
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: URLSearchParams | FormRefusal) => {
      if (done) return;
      done = true;
      resolve(result);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > MAX_FORM_BYTES) {
        chunks.length = 0;
        req.resume();
        finish('too_large');
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => finish(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', () => finish('aborted'));
    req.on('aborted', () => finish('aborted'));
  });
}
