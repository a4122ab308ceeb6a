/** Code blocks: shiki in light and dark themes, title bar, line highlights, copy button, text blocks. */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createCodeHighlighter, MAX_HIGHLIGHT_LINE_LENGTH, type CodeHighlighter } from '../../../src/docs/markdown/highlight';
import { parseFenceMeta } from '../../../src/docs/markdown/fence-meta';

let hl: CodeHighlighter;
beforeAll(async () => {
  hl = await createCodeHighlighter();
});

describe('createCodeHighlighter', () => {
  it('colors tokens for both themes (light inline, dark as --shiki-dark)', async () => {
    const html = await hl.highlight('const answer = 42;', 'ts', '');
    expect(html).toContain('shiki-themes github-light github-dark');
    expect(html).toMatch(/--shiki-dark-bg:#24292e/i);
    // `const` (keyword) and `42` (constant) get different light colors on the very first use of the grammar
    const colors = [...html.matchAll(/<span style="color:(#[0-9A-F]+);--shiki-dark:#[0-9A-F]+">([^<]*)<\/span>/gi)].map((m) => [m[2]!.trim(), m[1]]);
    const byToken = Object.fromEntries(colors);
    expect(byToken.const).toBe('#D73A49');
    expect(byToken['42']).toBe('#005CC5');
  });

  it('adds a title bar holding the copy button, and highlighted lines, from the fence meta', async () => {
    const html = await hl.highlight('a\nb\nc\n', 'js', 'title="app.js" {1,3}');
    expect(html).toMatch(/<figcaption class="q-code-title"><span class="q-code-title-text">app\.js<\/span><button [^>]*data-q-copy/);
    expect(html.match(/class="line highlighted"/g)).toHaveLength(2);
    expect(html).toContain('data-q-copy');
    expect(await hl.highlight('x', 'js', 'nocopy')).not.toContain('data-q-copy');
  });

  it('renders unknown languages as escaped plain text', async () => {
    const html = await hl.highlight('<b>&</b>', 'no-such-language', '');
    expect(html).toContain('data-lang="no-such-language"');
    expect(html).not.toContain('<b>');
  });

  it('renders mermaid as a labelled diagram source and math with KaTeX', async () => {
    const mermaid = await hl.highlight('graph TD; A-->B', 'mermaid', '');
    expect(mermaid).toContain('q-textblock-mermaid');
    expect(mermaid).toContain('data-q-mermaid');
    expect(mermaid).toContain('Diagram (Mermaid)');
    expect(mermaid).toContain('A--&gt;B');
    const math = await hl.highlight('x^2', 'math', '');
    expect(math).toContain('class="katex-display"');
    expect(math).toContain('<annotation encoding="application/x-tex">x^2</annotation>');
  });
});

/** Light color of each token of one line (`class="line"` span number `line`, 1-based) of a code block. */
function lightColors(html: string, line: number): Record<string, string> {
  const lines = html.split('<span class="line').slice(1);
  const spans = [...lines[line - 1]!.matchAll(/<span style="color:(#[0-9A-F]+);--shiki-dark:#[0-9A-F]+">([^<]*)<\/span>/gi)];
  return Object.fromEntries(spans.map((m) => [m[2]!.trim(), m[1]!.toUpperCase()]));
}

/** Deterministic shuffle (mulberry32) so a failure names a reproducible order. */
function shuffled<T>(items: T[], seed: number): T[] {
  let a = seed;
  const rand = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Simulates a heavily loaded worker: every clock read is one second after the previous one, so any
 * time-limited step of the tokenizer runs out of time at once. Restored after `run`.
 */
async function onSlowMachine<T>(run: () => Promise<T>): Promise<T> {
  let now = Date.now();
  const spy = vi.spyOn(Date, 'now').mockImplementation(() => (now += 1000));
  try {
    return await run();
  } finally {
    spy.mockRestore();
  }
}

const SERVER_TS = "import { buildApp } from './app';\n\nconst app = await buildApp(config);\nawait app.listen({ port: 4000 });\n";

const BLOCKS: { lang: string; code: string; meta?: string }[] = [
  { lang: 'ts', code: SERVER_TS, meta: 'server.ts {3}' },
  { lang: 'ts', code: 'export async function load(id: string): Promise<number> {\n  const n = await fetchCount(id);\n  return n * 2;\n}\n' },
  { lang: 'js', code: "const res = await fetch('http://127.0.0.1:4000/v1/projects');\nconsole.log(await res.json());\n" },
  { lang: 'tsx', code: 'export const App = () => <div className="x">{count + 1}</div>;\n' },
  { lang: 'python', code: 'import os, requests\nr = requests.get("http://x", headers={"A": f"B {os.environ[\'K\']}"})\nprint(r.json())\n' },
  { lang: 'bash', code: 'curl http://127.0.0.1:4000/v1/projects -H "Authorization: Bearer $QUIRE_KEY"\n' },
  { lang: 'json', code: '{ "name": "demo", "port": 4000, "tags": [true, null] }\n' },
  { lang: 'yaml', code: 'services:\n  app:\n    image: quire:latest\n    ports: [4000]\n' },
  { lang: 'go', code: 'func main() {\n\tapp := buildApp(cfg)\n\tlog.Fatal(app.Listen(":4000"))\n}\n' },
  { lang: 'vue', code: '<template><p>{{ msg }}</p></template>\n<script setup lang="ts">\nconst msg = await load(1);\n</script>\n' },
];

describe('code colors are a function of the code only', () => {
  it('colors line 3 of a ts block like line 4 even when the machine is slow (first use of the grammar)', async () => {
    const html = await onSlowMachine(async () => (await createCodeHighlighter()).highlight(SERVER_TS, 'ts', 'server.ts {3}'));
    const line3 = lightColors(html, 3);
    expect(line3).toMatchObject({ const: '#D73A49', app: '#005CC5', '=': '#D73A49', await: '#D73A49', buildApp: '#6F42C1' });
    expect(lightColors(html, 4).await).toBe('#D73A49');
  });

  it('leaves a very long line uncolored (bounded work) and colors the lines around it', async () => {
    const long = '<x>'.repeat(MAX_HIGHLIGHT_LINE_LENGTH / 3 + 1);
    const html = await hl.highlight(`const a = 1;\n${long}\nconst b = 2;`, 'ts', '');
    expect(html).toContain(`<span class="line"><span>${long.replaceAll('<', '&#x3C;')}</span></span>`);
    expect(lightColors(html, 1).const).toBe('#D73A49');
    expect(lightColors(html, 3).const).toBe('#D73A49');
  });

  it('renders every block identically whatever the load, the order of languages and concurrent calls', async () => {
    const reference = await createCodeHighlighter();
    const expected: string[] = [];
    for (const b of BLOCKS) {
      await reference.highlight(b.code, b.lang, b.meta); // warm: grammar loaded and rules compiled
      expected.push(await reference.highlight(b.code, b.lang, b.meta));
    }
    const jobs = [...BLOCKS.keys(), ...BLOCKS.keys()];
    for (const seed of [1, 2, 3]) {
      const order = shuffled(jobs, seed);
      const rendered = await onSlowMachine(async () => {
        const hl = await createCodeHighlighter();
        return Promise.all(order.map((i) => hl.highlight(BLOCKS[i]!.code, BLOCKS[i]!.lang, BLOCKS[i]!.meta)));
      });
      order.forEach((i, n) => expect(rendered[n], `${BLOCKS[i]!.lang} block ${i}, order ${seed}`).toBe(expected[i]));
    }
  });
});

describe('parseFenceMeta', () => {
  it('reads titles, ranges and flags', () => {
    const m = parseFenceMeta('src/app.ts {1,3-4} wrap lines');
    expect(m.title).toBe('src/app.ts');
    expect([...m.highlight]).toEqual([1, 3, 4]);
    expect(m.wrap && m.lineNumbers).toBe(true);
    expect(parseFenceMeta('title="My file" highlight={2}').title).toBe('My file');
    expect(parseFenceMeta('{1-999999999}').highlight.size).toBeLessThanOrEqual(10_001);
  });
});
