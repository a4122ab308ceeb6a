/**
 * Hostile pages that make the MDX resolver multiply what they hold (snippets including snippets
 * many times, doubling `export const` strings, `{children}` repeated at every level): the build stops
 * with an error naming the file instead of spending minutes and gigabytes.
 */
import { describe, expect, it } from 'vitest';
import { MAX_PAGE_EXPANSION_CHARS, MAX_PAGE_STATIC_CHARS, MAX_SNIPPET_DEPTH, MAX_STATIC_VALUE_CHARS } from '../../../src/docs/limits';
import { DocsError } from '../../../src/docs/types';
import { render } from './render-helpers';

/** The DocsError a render rejects with; fails when it resolves or rejects with something else. */
async function rejection(p: Promise<unknown>): Promise<DocsError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof DocsError) return err;
    throw err;
  }
  throw new Error('expected a DocsError');
}

/** Heap growth (bytes) while `fn` runs, after a GC when the runtime exposes one. */
async function heapGrowth(fn: () => Promise<unknown>): Promise<number> {
  const before = process.memoryUsage().heapUsed;
  await fn();
  return process.memoryUsage().heapUsed - before;
}

const MB = 1_000_000;

describe('snippet expansion limits', () => {
  it('stops nested snippet fan-out (each level includes the next ten times) naming the snippet', async () => {
    // 8 levels of 10 inclusions: 10^8 copies of the innermost text on today's code
    const files: Record<string, string> = { 'snippets/s8.mdx': 'leaf text that gets copied\n' };
    for (let i = 7; i >= 1; i--) files[`snippets/s${i}.mdx`] = `import N from './s${i + 1}.mdx'\n\n${'<N/>'.repeat(10)}\n`;
    let err: DocsError | undefined;
    const growth = await heapGrowth(async () => {
      err = await rejection(render(`import A from '/snippets/s1.mdx'\n\n${'<A/>'.repeat(10)}\n`, { files }));
    });
    expect(err!.message).toMatch(/snippet expansion exceeds 5 MB/);
    expect(err!.message).toMatch(/^snippets\/s\d\.mdx(:\d+)?: /);
    expect(err!.file).toMatch(/^snippets\/s\d\.mdx$/);
    expect(growth).toBeLessThan(200 * MB);
    expect(MAX_PAGE_EXPANSION_CHARS).toBe(5 * MB);
  }, 60_000);

  it('stops {children} repeated at every level of nesting', async () => {
    const files = { 'snippets/rep.mdx': `${'{children}'.repeat(10)}\n` };
    const nest = (n: number): string => (n === 0 ? 'x' : `<R>${nest(n - 1)}</R>`);
    let err: DocsError | undefined;
    const growth = await heapGrowth(async () => {
      err = await rejection(render(`import R from '/snippets/rep.mdx'\n\n${nest(9)}\n`, { files }));
    });
    expect(growth).toBeLessThan(200 * MB);
    expect(err!.message).toMatch(/snippet expansion exceeds 5 MB/);
    expect(err!.file).toBe('snippets/rep.mdx');
  }, 60_000);

  it('refuses snippets nested deeper than the limit, naming the innermost file', async () => {
    const files: Record<string, string> = {};
    const depth = MAX_SNIPPET_DEPTH + 2;
    for (let i = 1; i <= depth; i++) files[`snippets/d${i}.mdx`] = i === depth ? 'bottom\n' : `import N from './d${i + 1}.mdx'\n\n<N/>\n`;
    const err = await rejection(render("import A from '/snippets/d1.mdx'\n\n<A/>\n", { files }));
    expect(err.message).toContain(`snippets nested more than ${MAX_SNIPPET_DEPTH} deep`);
    expect(err.file).toBe(`snippets/d${MAX_SNIPPET_DEPTH}.mdx`);
  });

  it('still renders snippets nested a few levels deep and included many times', async () => {
    const files = {
      'snippets/a.mdx': "import B from './b.mdx'\n\n<B/> <B/>\n",
      'snippets/b.mdx': 'bee\n',
    };
    const page = await render(`import A from '/snippets/a.mdx'\n\n${'<A/>\n\n'.repeat(50)}`, { files });
    expect(page.html.match(/bee/g)).toHaveLength(100);
  });
});

describe('static export limits', () => {
  it('stops a doubling chain of export const strings at the line that crosses the limit', async () => {
    const names = 'abcdefghijklmnopqrstuvwxyz'.split('');
    const lines = ['export const a = "xxxxxxxxxxxxxxxx"'];
    for (let i = 1; i < names.length; i++) lines.push(`export const ${names[i]} = ${names[i - 1]} + ${names[i - 1]}`);
    const source = `${lines.join('\n')}\n\n{z}\n`;
    let err: DocsError | undefined;
    const growth = await heapGrowth(async () => {
      err = await rejection(render(source, { filePath: 'guides/bomb.mdx' }));
    });
    // 16 · 2^16 = 1 048 576 > 1 MB: the 17th export ("q") is the first too long
    expect(err!.file).toBe('guides/bomb.mdx');
    expect(err!.line).toBe(17);
    expect(err!.message).toBe(`guides/bomb.mdx:17: export "q" is longer than 1 MB (values built from other values multiply); shorten it`);
    expect(growth).toBeLessThan(200 * MB);
    expect(MAX_STATIC_VALUE_CHARS).toBe(MB);
  });

  it('stops doubling template literals in an imported snippet, naming the snippet', async () => {
    const lines = ['export const v0 = "yyyyyyyyyyyyyyyy"'];
    for (let i = 1; i < 30; i++) lines.push(`export const v${i} = \`\${v${i - 1}}\${v${i - 1}}\``);
    const files = { 'snippets/vars.mdx': `${lines.join('\n')}\n` };
    const err = await rejection(render("import { v29 } from '/snippets/vars.mdx'\n\n{v29}\n", { files }));
    expect(err.file).toBe('snippets/vars.mdx');
    expect(err.message).toMatch(/^snippets\/vars\.mdx:17: export "v16" is longer than 1 MB/);
  });

  it('stops a page that inserts a large constant many times', async () => {
    const big = 'z'.repeat(900_000);
    const files = { 'snippets/big.mdx': `export const big = "${big}"\n` };
    const err = await rejection(render(`import { big } from '/snippets/big.mdx'\n\n${'{big}'.repeat(8)}\n`, { files }));
    expect(err.file).toBe('page.mdx');
    expect(err.message).toMatch(/^page\.mdx:3: snippet expansion exceeds 5 MB/);
  });

  it('stops a page whose snippets export more than the page total, naming the file that crosses it', async () => {
    const files: Record<string, string> = {};
    const imports: string[] = [];
    for (let i = 1; i <= 6; i++) {
      files[`snippets/v${i}.mdx`] = `export const v${i} = "${String(i).repeat(900_000)}"\n`;
      imports.push(`import { v${i} } from '/snippets/v${i}.mdx'`);
    }
    const err = await rejection(render(`${imports.join('\n')}\n\nshort page\n`, { files }));
    // 6 · 900 KB > 5 MB: the sixth snippet's export crosses the page total
    expect(err.file).toBe('snippets/v6.mdx');
    expect(err.message).toBe(`snippets/v6.mdx:1: exported values of this page and its snippets exceed ${MAX_PAGE_STATIC_CHARS / 1_000_000} MB; shorten them`);
  });
});
