import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldPath, invalidInput } from '../../src/api/invalid-input';

const Body = z.strictObject({ title: z.string().min(1), settings: z.object({ aiEnabled: z.boolean() }).optional() });

/** The envelope a client receives for `value` checked against `Body`. */
function refusal(value: Record<string, unknown>, options: Parameters<typeof invalidInput>[1] = {}) {
  const parsed = Body.safeParse(value);
  if (parsed.success) throw new Error('expected a validation failure');
  return invalidInput(parsed.error, options).toEnvelope().error;
}

describe('invalidInput', () => {
  it('answers 400 invalid_request naming the dotted field and zod message', () => {
    const error = refusal({ title: 'x', settings: { aiEnabled: 'yes' } });
    expect(error).toEqual({ code: 'invalid_request', message: `settings.aiEnabled: ${error.details!.issue}`, details: { field: 'settings.aiEnabled', issue: expect.stringContaining('boolean') } });
  });

  it('names the first unknown key as the field', () => {
    expect(refusal({ title: 'x', colour: 'red' }).details).toEqual({ field: 'colour', issue: 'is not a known field' });
  });

  it('says "is required" for a top-level member missing from the given input', () => {
    expect(refusal({}, { input: {} }).details).toEqual({ field: 'title', issue: 'is required' });
    expect(refusal({}).details).toEqual({ field: 'title', issue: expect.not.stringMatching(/^is required$/) });
  });

  it('prefixes fields and words the message as asked', () => {
    const error = refusal({ title: '' }, { prefix: 'body', message: (field, issue) => `Not a page: ${field}: ${issue}.` });
    expect(error.details).toMatchObject({ field: 'body.title' });
    expect(error.message).toBe(`Not a page: body.title: ${error.details!.issue}.`);
  });

  it('names the root field when the issue is about the whole input', () => {
    const parsed = Body.safeParse('text');
    expect(parsed.success).toBe(false);
    expect(invalidInput(parsed.error!, { root: 'query' }).details).toMatchObject({ field: 'query' });
  });

  it('writes a record key that is not a plain name (a path glob) quoted in brackets', () => {
    const Globs = z.object({ globs: z.record(z.string(), z.array(z.string().min(1))) });
    const parsed = Globs.safeParse({ globs: { 'src/*.ts': ['a', ''] } });
    expect(parsed.success).toBe(false);
    expect(invalidInput(parsed.error!).details).toMatchObject({ field: 'globs["src/*.ts"].1' });
    expect(fieldPath(['rules', 'no-dead-links', 0])).toBe('rules.no-dead-links.0');
    expect(fieldPath(['a.b', 'c'])).toBe('["a.b"].c');
  });
});
