import { describe, expect, it } from 'vitest';
import { pageInventory } from '../../src/docs/page-inventory';
import { createLinter } from '../../src/lint/linter';

const inventory = pageInventory({ pages: ['index', 'guides/setup', 'api/pets/list-pets'], files: ['index.mdx', 'guides/setup.mdx'] });

const docsJson = `{
  "name": "Acme",
  "navigation": {
    "tabs": [
      {
        "tab": "Guides",
        "groups": [
          { "group": "Start", "root": "overview", "pages": ["index", "/guides/setup.mdx", "guides/missing", "GET /pets"] },
          { "group": "Nested", "pages": [{ "group": "Inner", "pages": ["api/pets/list-pets", "gone"] }] }
        ]
      }
    ]
  }
}
`;

describe('the docs.json lint', () => {
  it('reports each navigation entry naming no page at the entry, with its JSON path', async () => {
    const findings = await createLinter({ inventory }).lint(docsJson, 'docs.json');
    expect(findings.map((f) => [f.ruleId, f.line, f.column])).toEqual([
      ['navigation/missing-page', 8, 39],
      ['navigation/missing-page', 8, 91],
      ['navigation/missing-page', 9, 94],
    ]);
    expect(findings.map((f) => f.message)).toEqual([
      'navigation.tabs[0].groups[0].root names the page "overview", which has no file: expected overview.mdx or overview.md.',
      'navigation.tabs[0].groups[0].pages[2] names the page "guides/missing", which has no file: expected guides/missing.mdx or guides/missing.md.',
      'navigation.tabs[0].groups[1].pages[0].pages[1] names the page "gone", which has no file: expected gone.mdx or gone.md.',
    ]);
    expect(findings[1]).toMatchObject({ severity: 'warning', endLine: 8, endColumn: 107 });
  });

  it('applies the project\'s rule settings, and never lints the configuration as prose', async () => {
    const off = createLinter({ inventory, settings: { rules: { 'navigation/missing-page': { enabled: false } } } });
    expect(await off.lint(docsJson, 'docs.json')).toEqual([]);
    const asError = createLinter({ inventory, settings: { rules: { 'navigation/missing-page': { enabled: true, severity: 'error' } } } });
    expect((await asError.lint(docsJson, 'mint.json')).map((f) => f.severity)).toEqual(['error', 'error', 'error']);
    // no inventory: nothing to check against, and no prose or Markdown findings on JSON
    expect(await createLinter({}).lint('{ "name": "the the Acme" }', 'docs.json')).toEqual([]);
  });

  it('fixes a missing pages entry by removing it, keeping the file\'s layout; a group root has no fix', async () => {
    const apply = (text: string, fix: { range: [number, number]; text: string }) => text.slice(0, fix.range[0]) + fix.text + text.slice(fix.range[1]);
    const findings = await createLinter({ inventory }).lint(docsJson, 'docs.json');
    expect(findings[0]!.fix).toBeUndefined();
    expect(apply(docsJson, findings[1]!.fix!)).toBe(docsJson.replace('"guides/missing", ', ''));
    expect(apply(docsJson, findings[2]!.fix!)).toBe(docsJson.replace('"api/pets/list-pets", "gone"', '"api/pets/list-pets"'));

    const lines = '{\n  "navigation": {\n    "pages": [\n      "index",\n      "gone",\n      "guides/setup"\n    ]\n  }\n}\n';
    const [missing] = await createLinter({ inventory }).lint(lines, 'docs.json');
    expect(apply(lines, missing!.fix!)).toBe(lines.replace('      "gone",\n', ''));
    const last = lines.replace('"guides/setup"', '"later"');
    const found = await createLinter({ inventory }).lint(last, 'docs.json');
    expect(apply(last, found[1]!.fix!)).toBe('{\n  "navigation": {\n    "pages": [\n      "index",\n      "gone"\n    ]\n  }\n}\n');
  });

  it('has no findings for text that is not valid JSON', async () => {
    expect(await createLinter({ inventory }).lint('{ "navigation": { "pages": ["gone", ', 'docs.json')).toEqual([]);
  });
});
