import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryFiles } from '@quire/shared/docs/files';
import type { RenderedPage } from '@quire/shared/docs/types';
import { openPageCache, rendererVersion } from '../../src/builder/page-cache';

const page = (html: string, dependencies: string[] = []): RenderedPage => ({
  html,
  toc: [],
  frontmatter: {},
  title: 'T',
  markdown: '# T',
  text: 'T',
  links: [],
  assets: [],
  dependencies,
  warnings: [],
});

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cache-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('page cache', () => {
  it('returns the stored page while the file and its dependencies are unchanged', () => {
    const dir = tmp();
    const v1 = memoryFiles({ 'a.mdx': 'A', 'snippets/s.mdx': 'S' });
    openPageCache(dir, v1, {}, 'r1').store('a.mdx', page('<p>A</p>', ['snippets/s.mdx']));
    expect(openPageCache(dir, v1, {}, 'r1').lookup('a.mdx')?.html).toBe('<p>A</p>');
  });

  it('misses when the page, a dependency, the variables or the renderer change', () => {
    const dir = tmp();
    const files = { 'a.mdx': 'A', 'snippets/s.mdx': 'S' };
    openPageCache(dir, memoryFiles(files), { v: '1' }, 'r1').store('a.mdx', page('<p>A</p>', ['snippets/s.mdx']));
    expect(openPageCache(dir, memoryFiles({ ...files, 'a.mdx': 'A2' }), { v: '1' }, 'r1').lookup('a.mdx')).toBeUndefined();
    expect(openPageCache(dir, memoryFiles({ ...files, 'snippets/s.mdx': 'S2' }), { v: '1' }, 'r1').lookup('a.mdx')).toBeUndefined();
    expect(openPageCache(dir, memoryFiles({ 'a.mdx': 'A' }), { v: '1' }, 'r1').lookup('a.mdx')).toBeUndefined();
    expect(openPageCache(dir, memoryFiles(files), { v: '2' }, 'r1').lookup('a.mdx')).toBeUndefined();
    expect(openPageCache(dir, memoryFiles(files), { v: '1' }, 'r2').lookup('a.mdx')).toBeUndefined();
    expect(openPageCache(dir, memoryFiles({ ...files, 'other.mdx': 'new page' }), { v: '1' }, 'r1').lookup('a.mdx')).toBeDefined();
  });

  it('prunes entries of pages that are gone and survives a corrupt entry', () => {
    const dir = tmp();
    const files = memoryFiles({ 'a.mdx': 'A', 'b.mdx': 'B' });
    const cache = openPageCache(dir, files, {}, 'r1');
    cache.store('a.mdx', page('a'));
    cache.store('b.mdx', page('b'));
    cache.prune(['a.mdx']);
    expect(fs.readdirSync(dir)).toHaveLength(1);
    expect(cache.lookup('b.mdx')).toBeUndefined();
    fs.writeFileSync(path.join(dir, fs.readdirSync(dir)[0]!), '{not json');
    expect(cache.lookup('a.mdx')).toBeUndefined();
  });

  it('fingerprints the renderer source', () => {
    expect(rendererVersion()).toMatch(/^[0-9a-f]{16}$/);
  });
});
