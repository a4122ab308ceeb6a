/**
 * The visual mode's round trip over every page of the three real corpora and the demo docs: opening a page
 * visually and switching back without an edit changes no byte, every text block's HTML converts back to
 * Markdown of the same meaning (so editing any part of it loses nothing), and one edit in one paragraph changes bytes
 * only inside that paragraph (and re-reading around the edit gives what a whole parse gives). Prints how many
 * blocks of each kind were seen and how many are read-only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  applyTextEdits,
  blockEditableHtml,
  parseVisualDocument,
  replaceBlockText,
  TEXT_BLOCK_KINDS,
  updateVisualDocument,
  type VisualBlock,
} from '../../../src/docs/visual/index';
import { dedentBlock } from '../../../src/docs/visual/editable-html';
import { blockMarkdownFromHtml } from '../../../src/docs/visual/html-to-markdown';
import { semanticKey } from '../../../src/docs/visual/semantic';
import { CORPUS_DIR } from '../../helpers/dir-files';

const DEMO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../examples/demo-docs');
/** Parsing ~600 pages (some of 150 kB) takes minutes on a loaded two-core machine. */
const TIMEOUT = 600_000;
const SETS: Array<[string, string]> = [
  ['agentops', path.join(CORPUS_DIR, 'agentops')],
  ['pezzo', path.join(CORPUS_DIR, 'pezzo')],
  ['trigger-dev', path.join(CORPUS_DIR, 'trigger-dev')],
  ['demo', DEMO_DIR],
];

function pagesOf(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === '.git') continue;
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else if (/\.mdx?$/.test(e.name)) out.push(abs);
    }
  };
  walk(root);
  return out.sort();
}

/** Every block, component children included, in document order. */
function allBlocks(blocks: VisualBlock[]): VisualBlock[] {
  return blocks.flatMap((b) => [b, ...allBlocks(b.component?.children ?? [])]);
}

const counts = new Map<string, number>();
const readonlyReasons = new Map<string, number>();
let pageCount = 0;
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
/**
 * Lets the test worker's event loop run between pages: a set of hundreds of pages is minutes of parsing on a
 * slow machine, and a worker that never yields misses vitest's own messages ("Timeout calling onTaskUpdate").
 */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

afterAll(() => {
  const line = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ');
  console.log(`visual round trip: ${pageCount} pages; blocks: ${line(counts)}; read-only reasons: ${line(readonlyReasons)}`);
});

describe.each(SETS)('the visual round trip over %s', (name, root) => {
  it('keeps every byte when a page is opened visually and switched back without an edit', async () => {
    expect(fs.existsSync(root), `${root} is missing`).toBe(true);
    const pages = pagesOf(root);
    expect(pages.length).toBeGreaterThan(name === 'demo' ? 5 : 10);
    const failures: string[] = [];
    for (const file of pages) {
      await breathe();
      const source = fs.readFileSync(file, 'utf8');
      const doc = parseVisualDocument(source, file);
      pageCount++;
      // the blocks are the file: in order, each its exact source, only white space between them
      let at = doc.frontmatter?.to ?? 0;
      for (const b of doc.blocks) {
        expect(b.source).toBe(source.slice(b.from, b.to));
        expect(source.slice(at, b.from).trim().replace(/^\uFEFF/, ''), `${file}: text between blocks`).toBe('');
        at = b.to;
      }
      expect(source.slice(at).trim()).toBe('');
      for (const b of allBlocks(doc.blocks)) {
        bump(counts, b.kind);
        if (b.kind === 'readonly') bump(readonlyReasons, b.readonlyReason ?? '?');
        if (!TEXT_BLOCK_KINDS.has(b.kind)) continue;
        const html = blockEditableHtml(b);
        const edit = replaceBlockText(source, b, html, doc.style);
        if (edit && applyTextEdits(source, [edit]) !== source) failures.push(`${path.relative(root, file)} ${b.id} ${b.kind}: ${JSON.stringify(edit)}`);
        // the Markdown the editor writes for the block once it is edited means what the file says
        const written = blockMarkdownFromHtml(html, b.kind, doc.style, { depth: b.depth, flavor: doc.flavor });
        if (semanticKey(written, doc.flavor) !== semanticKey(dedentBlock(b), doc.flavor)) failures.push(`${path.relative(root, file)} ${b.id} ${b.kind} is written as ${written}`);
      }
    }
    expect(failures).toEqual([]);
  }, TIMEOUT);

  it('changes only the edited paragraph when " Edited." is appended to the first one', async () => {
    const failures: string[] = [];
    let edited = 0;
    for (const file of pagesOf(root)) {
      await breathe();
      const source = fs.readFileSync(file, 'utf8');
      const doc = parseVisualDocument(source, file);
      const para = allBlocks(doc.blocks).find((b) => b.kind === 'paragraph');
      if (!para) continue;
      const html = `${blockEditableHtml(para)} Edited.`;
      const edit = replaceBlockText(source, para, html, doc.style);
      const where = `${path.relative(root, file)} ${para.id}`;
      if (!edit) {
        failures.push(`${where}: no edit`);
        continue;
      }
      edited++;
      if (edit.from < para.from || edit.to > para.to) failures.push(`${where}: edit [${edit.from}, ${edit.to}) outside [${para.from}, ${para.to})`);
      const next = applyTextEdits(source, [edit]);
      const tail = source.length - para.to;
      if (next.slice(0, para.from) !== source.slice(0, para.from) || next.slice(next.length - tail) !== source.slice(para.to)) {
        failures.push(`${where}: bytes outside the paragraph changed`);
      }
      const again = parseVisualDocument(next, file);
      if (JSON.stringify(updateVisualDocument(doc, source, edit, file)) !== JSON.stringify(again)) failures.push(`${where}: re-read around the edit differs`);
      if (again.blocks.length !== doc.blocks.length) failures.push(`${where}: ${doc.blocks.length} blocks became ${again.blocks.length}`);
      const same = allBlocks(again.blocks).find((b) => b.id === para.id);
      const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
      if (!same || norm(blockEditableHtml(same)) !== norm(html)) failures.push(`${where}: reads back as ${same ? blockEditableHtml(same) : 'nothing'}`);
    }
    expect(failures).toEqual([]);
    expect(edited).toBeGreaterThan(0);
  }, TIMEOUT);
});
