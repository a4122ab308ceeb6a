import { describe, expect, it } from 'vitest';
import { base64ByteLength, decodeBase64, encodeBase64 } from '../src/base64';

describe('base64', () => {
  it('round-trips every byte value, and counts decoded bytes from the text', () => {
    const bytes = Uint8Array.from({ length: 256 * 3 + 1 }, (_, i) => i % 256);
    const text = encodeBase64(bytes);
    expect(text).toBe(Buffer.from(bytes).toString('base64'));
    expect(decodeBase64(text)).toEqual(bytes);
    for (const n of [0, 1, 2, 3, 4]) expect(base64ByteLength(encodeBase64(bytes.subarray(0, n)))).toBe(n);
  });

  it('encodes more bytes than one call can spread', () => {
    const bytes = new Uint8Array(70_000).fill(7);
    expect(decodeBase64(encodeBase64(bytes))).toEqual(bytes);
  });

  it('checks and decodes megabytes (an image of 5 MiB)', () => {
    const bytes = new Uint8Array(5 * 1024 * 1024).fill(200);
    expect(decodeBase64(Buffer.from(bytes).toString('base64'))?.length).toBe(bytes.length);
  });

  it.each(['abc', 'ab c', 'YQ==\n', 'a-_b', '====', 'YQ=a'])('refuses %j', (text) => {
    expect(decodeBase64(text)).toBeNull();
  });
});
