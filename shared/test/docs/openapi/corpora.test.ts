/**
 * The real corpora: every page whose frontmatter has `openapi:` resolves to an operation of the
 * repository's specs (pezzo: lowercase methods, default spec; trigger-dev: specs named by stem).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { DocsFiles } from '../../../src/docs/types';
import { loadOpenApiRegistry, renderOperation } from '../../../src/docs/openapi';
import { CORPUS_DIR, dirFiles } from '../../helpers/dir-files';

/** `openapi:` frontmatter values of every .md/.mdx page, by file path. */
function openapiPages(files: DocsFiles): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of files.list()) {
    if (!/\.mdx?$/.test(f)) continue;
    const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(files.read(f) ?? '');
    if (!m) continue;
    const fm = parseYaml(m[1]!) as Record<string, unknown> | null;
    if (typeof fm?.openapi === 'string') out.set(f, fm.openapi);
  }
  return out;
}

describe.each([
  // corpus, specs declared by its config, pages with `openapi:` counted in the corpus
  ['pezzo', ['/openapi.json'], 5],
  ['trigger-dev', ['openapi.yml', 'v3-openapi.yaml'], 62],
])('corpus %s', (corpus, declared, pageCount) => {
  const files = dirFiles(path.join(CORPUS_DIR, corpus));
  const { registry, warnings } = loadOpenApiRegistry(files, declared);
  const pages = openapiPages(files);

  it('loads its specs without warnings', () => {
    expect(registry.specFiles.length).toBeGreaterThan(0);
    expect(warnings).toEqual([]);
  });

  it(`resolves all ${pageCount} openapi: pages`, () => {
    expect(pages.size).toBe(pageCount);
    const missing = [...pages].filter(([, ref]) => registry.resolve(ref) === undefined);
    expect(missing).toEqual([]);
  });

  it('renders every operation of its specs', async () => {
    for (const op of registry.operations()) {
      const html = await renderOperation(op);
      expect(html).toContain(`q-method-${op.method}`);
    }
  });
});

describe('corpus specs: details', () => {
  it('pezzo: the lowercase form finds the operation and its request body schema', async () => {
    const { registry } = loadOpenApiRegistry(dirFiles(path.join(CORPUS_DIR, 'pezzo')), ['/openapi.json']);
    const op = registry.resolve('post /cache/v1/request/save')!;
    expect(op).toMatchObject({ specFile: 'openapi.json', title: 'Save request to cache', tags: ['Cache'] });
    const html = await renderOperation(op, { baseUrl: 'https://api.pezzo.ai' });
    expect(html).toContain('https://api.pezzo.ai');
    expect(html).toMatch(/data-section="body"/);
  });

  it('trigger-dev: the two specs are told apart by stem', () => {
    const { registry } = loadOpenApiRegistry(dirFiles(path.join(CORPUS_DIR, 'trigger-dev')), []);
    expect(registry.resolve('openapi POST /api/v3/batches')?.specFile).toBe('openapi.yml');
    expect(registry.resolve('v3-openapi GET /api/v1/runs/{runId}/events')?.specFile).toBe('v3-openapi.yaml');
  });
});
