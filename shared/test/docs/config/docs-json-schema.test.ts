import { describe, expect, it } from 'vitest';
import { docsJsonSchema } from '../../../src/docs/config/docs-json-schema';
import { findJsonSyntaxError, locateJsonPath } from '../../../src/docs/config/read-json';

describe('docsJsonSchema', () => {
  it('is a draft 2020-12 JSON Schema requiring theme, name, colors and navigation', () => {
    expect(docsJsonSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(docsJsonSchema.type).toBe('object');
    expect([...(docsJsonSchema.required as string[])].sort()).toEqual(['colors', 'name', 'navigation', 'theme']);
  });

  it('describes recursive groups and nested divisions through $defs', () => {
    const defs = docsJsonSchema.$defs as Record<string, { properties: Record<string, unknown>; required?: string[] }>;
    expect(defs.group!.required).toEqual(['group']);
    expect(JSON.stringify(defs.group!.properties.pages)).toContain('#/$defs/');
    expect(Object.keys(defs.tab!.properties)).toEqual(expect.arrayContaining(['tab', 'groups', 'pages', 'anchors', 'dropdowns', 'openapi']));
    expect(JSON.stringify(docsJsonSchema)).toContain('"pattern"');
  });

  it('survives a JSON round trip (no functions or cycles)', () => {
    expect(JSON.parse(JSON.stringify(docsJsonSchema))).toEqual(docsJsonSchema);
  });
});

describe('findJsonSyntaxError', () => {
  it('points at the first offending character', () => {
    expect(findJsonSyntaxError('{"a": 1,}')).toEqual({ offset: 8, expected: 'a property name in double quotes' });
    expect(findJsonSyntaxError('{"a" 1}')).toEqual({ offset: 5, expected: '":" after the property name' });
    expect(findJsonSyntaxError('[1 2]')).toEqual({ offset: 3, expected: '"," or "]"' });
    expect(findJsonSyntaxError('{"a": "x')?.expected).toBe('a closing quote');
    expect(findJsonSyntaxError('{} x')?.expected).toBe('the end of the file');
    expect(findJsonSyntaxError('{"a": {"b": 1 "c": 2}}')).toEqual({ offset: 14, expected: '"," or "}"' });
  });

  it('refuses what JSON does not allow: comments, single quotes, leading zeros', () => {
    expect(findJsonSyntaxError('// site\n{}')).toEqual({ offset: 0, expected: 'no comment (JSON has none)' });
    expect(findJsonSyntaxError("{'a': 1}")?.offset).toBe(1);
    expect(findJsonSyntaxError('{"a": 01}')).toBeDefined();
  });

  it('accepts valid JSON', () => {
    expect(findJsonSyntaxError('{"a": [1, -2.5e3, true, false, null, "\\u00e9\\n"], "b": {}}')).toBeUndefined();
  });
});

describe('locateJsonPath', () => {
  const text = '{\n  "a": [\n    1,\n    {"b": true}\n  ]\n}';
  it('finds where the value at a path starts', () => {
    expect(locateJsonPath(text, ['a', 1, 'b'])).toEqual({ line: 4, column: 11 });
    expect(locateJsonPath(text, ['a'])).toEqual({ line: 2, column: 8 });
  });

  it('falls back to the deepest existing parent', () => {
    expect(locateJsonPath(text, ['a', 1, 'missing'])).toEqual({ line: 4, column: 5 });
  });
});
