/**
 * Base64 (RFC 4648 section 4, the standard alphabet with `=` padding) without Node's `Buffer`, so
 * the desktop renderer, the desktop core and the server decode bytes of a change set by one rule
 * (`atob`/`btoa` exist in browsers and in Node 16+).
 */

/**
 * Canonical padded base64 with {@link isPaddedBase64}'s length check: alphabet characters, then at
 * most two `=`. One character class and no group: a grouped pattern recurses per group in V8 and
 * overflows the stack on a few megabytes of text.
 */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** True for padded standard base64: groups of four alphabet characters, the last one optionally ending in `=` or `==`. */
function isPaddedBase64(text: string): boolean {
  return text.length % 4 === 0 && BASE64.test(text);
}

/** Characters handed to `String.fromCharCode` at once while encoding (well below engines' argument limits). */
const CHUNK = 0x8000;

/**
 * The bytes `text` encodes, or null when it is not padded standard base64 (RFC 4648 section 4: no
 * whitespace, no line breaks, no URL-safe `-`/`_`, length a multiple of 4). The empty string is no bytes.
 */
export function decodeBase64(text: string): Uint8Array | null {
  if (!isPaddedBase64(text)) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The number of bytes padded standard base64 `text` encodes, from its length alone (the text is assumed valid: see {@link decodeBase64}). */
export function base64ByteLength(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

/** `bytes` as padded standard base64 (RFC 4648 section 4). */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}
