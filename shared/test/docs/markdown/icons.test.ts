/** Quire's one icon set: every name the corpora use has a drawing, unknown names get a neutral glyph. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FALLBACK_ICON, ICON_SHAPES } from '../../../src/docs/markdown/icon-shapes';
import { iconSvg, iconSvgOrFallback } from '../../../src/docs/markdown/icons';
import { configIcon, icon } from '../../../src/site/icons';
import { CORPUS_DIR } from '../../helpers/dir-files';
import { render } from './render-helpers';

/** Every `icon="..."` / `icon: "..."` / `"icon": "..."` value in the corpora's pages, snippets and configs. */
function corpusIconNames(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(mdx?|json)$/.test(e.name)) {
        const text = fs.readFileSync(p, 'utf8');
        for (const m of text.matchAll(/\bicon\s*=\s*["']([^"']+)["']|"icon"\s*:\s*"([^"]+)"|^icon:\s*["']?([\w-]+)/gm)) names.add((m[1] ?? m[2] ?? m[3])!);
      }
    }
  };
  for (const corpus of ['pezzo', 'agentops', 'trigger-dev']) walk(path.join(CORPUS_DIR, corpus));
  return names;
}

const fallback = (className = 'q-icon') => iconSvgOrFallback('no-such-icon-name', className);

describe('icon set', () => {
  it('draws every icon name the three corpora use (single letters and image paths aside)', () => {
    const names = [...corpusIconNames()].filter((n) => n.length > 1 && !/[/.]/.test(n));
    expect(names.length).toBeGreaterThan(80);
    const missing = names.filter((n) => iconSvg(n) === undefined);
    expect(missing).toEqual([]);
    expect(iconSvg('eye')).toContain('<circle cx="12" cy="12" r="3"/>');
  });

  it('gives unknown names a neutral glyph, so every card of a group has an icon', async () => {
    expect(fallback()).toContain(FALLBACK_ICON);
    const page = await render('<CardGroup cols={3}>\n<Card title="A" icon="rocket">a</Card>\n<Card title="B" icon="eye">b</Card>\n<Card title="C" icon="N">c</Card>\n<Card title="D" icon="fa-no-such-thing">d</Card>\n</CardGroup>');
    const cards = page.html.split(/<div class="q-card[ "]/).slice(1);
    expect(cards).toHaveLength(4);
    for (const card of cards) expect(card).toMatch(/<svg class="q-icon q-card-icon"[^>]*>.*?<\/svg>/);
    expect(cards[3]).toContain('r="1.5"'); // the fallback dot
  });

  it('serves the theme and the page components from the same drawings', () => {
    expect(configIcon('rocket')).toBe(iconSvg('rocket'));
    expect(configIcon('fa-Discord')).toBe(iconSvg('message'));
    expect(configIcon('something-new')).toBe(fallback());
    expect(icon('chevron-right', 'q-icon q-chevron')).toBe(iconSvg('chevron-right', 'q-icon q-chevron'));
  });

  it('draws on the 24x24 grid with elements the page sanitizer keeps', () => {
    for (const [name, body] of Object.entries(ICON_SHAPES)) {
      for (const tag of body.matchAll(/<(\w+)/g)) expect(['path', 'circle', 'rect', 'ellipse', 'line', 'polyline', 'polygon'], name).toContain(tag[1]);
      for (const a of body.matchAll(/\b(cx|cy|x|y|width|height|r|rx|ry)="([^"]+)"/g)) {
        const v = Number(a[2]);
        expect(v >= 0 && v <= 24, `${name} ${a[1]}=${a[2]}`).toBe(true);
      }
    }
  });
});
