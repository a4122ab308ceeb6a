/**
 * Every .md/.mdx page of the three real corpora renders without throwing (issue 3: unknown components,
 * missing snippets and the like are warnings, never a failed build). Prints warnings by kind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCodeHighlighter, type CodeHighlighter } from '../../../src/docs/markdown/highlight';
import { renderPage } from '../../../src/docs/markdown/render-page';
import { CORPUS_DIR, dirFiles } from '../../helpers/dir-files';

let highlighter: CodeHighlighter;
beforeAll(async () => {
  highlighter = await createCodeHighlighter();
});

describe.each(['pezzo', 'agentops', 'trigger-dev'])('corpus %s', (name) => {
  it('renders every page without throwing', { timeout: 240_000 }, async () => {
    const root = path.join(CORPUS_DIR, name);
    expect(fs.existsSync(root)).toBe(true);
    const files = dirFiles(root);
    const pages = files.list().filter((p) => /\.mdx?$/i.test(p) && !p.startsWith('snippets/') && !p.startsWith('_snippets/'));
    expect(pages.length).toBeGreaterThan(10);
    const kinds: Record<string, number> = {};
    const failures: string[] = [];
    let withToc = 0;
    for (const filePath of pages) {
      try {
        const page = await renderPage({ filePath, source: files.read(filePath)!, files, highlighter });
        expect(page.html).not.toMatch(/<script|<style|\son[a-z]+="|(href|src)="\s*javascript:/i);
        if (page.toc.length) withToc++;
        for (const w of page.warnings) kinds[w.kind] = (kinds[w.kind] ?? 0) + 1;
      } catch (e) {
        failures.push(`${filePath}: ${(e as Error).message}`);
      }
    }
    console.log(`[corpus ${name}] ${pages.length} pages, ${withToc} with a toc, warnings: ${JSON.stringify(kinds)}`);
    expect(failures).toEqual([]);
  });
});
