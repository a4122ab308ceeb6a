import { describe, expect, it } from 'vitest';
import { applyTextEdits, insertBlock, parseVisualDocument, type VisualDocument } from '@quire/shared/docs/visual/index';
import { blockPath, componentOf, findBlock, INSERT_CHOICES, itemsByBlock, propLabel } from '../src/renderer/visual/visual-model';

const PAGE = [
  '---',
  'title: Visual',
  '---',
  '',
  'First paragraph.',
  '',
  '<Card title="Start">',
  '  Card body.',
  '',
  '  Second card paragraph.',
  '</Card>',
  '',
  '* one',
  '* two',
  '',
].join('\n');

const childText = (doc: VisualDocument, text: string) => {
  const walk = (list: VisualDocument['blocks']): VisualDocument['blocks'][number] | undefined => {
    for (const b of list) {
      if (b.kind === 'paragraph' && b.source === text) return b;
      const inner = b.component && walk(b.component.children);
      if (inner) return inner;
    }
  };
  const found = walk(doc.blocks);
  if (!found) throw new Error(`no paragraph "${text}"`);
  return found;
};

describe('visual editor model helpers', () => {
  const doc = parseVisualDocument(PAGE);

  it('finds a nested block, its path and the component whose props the side form edits', () => {
    const body = childText(doc, 'Second card paragraph.');
    const path = blockPath(doc.blocks, body.id)!;
    expect(path.map((b) => b.kind)).toEqual(['component', 'paragraph']);
    expect(componentOf(doc, body.id)?.component?.name).toBe('Card');
    expect(findBlock(doc, body.id)?.source).toBe('Second card paragraph.');
    expect(componentOf(doc, childText(doc, 'First paragraph.').id)).toBeNull();
    expect(blockPath(doc.blocks, 'no-such-id')).toBeNull();
  });

  it('puts lint findings on the innermost block of their line, and findings between blocks on the block before', () => {
    const items = [
      { line: 10, id: 'in the card' },
      { line: 5, id: 'paragraph' },
      { line: 12, id: 'blank after the card' },
      { line: 2, id: 'frontmatter' },
      { line: 14, id: 'list' },
    ];
    const by = itemsByBlock(PAGE, doc.blocks, items);
    const idsOf = (blockId: string) => (by.get(blockId) ?? []).map((i) => i.id);
    const card = doc.blocks.find((b) => b.kind === 'component')!;
    expect(idsOf(childText(doc, 'Second card paragraph.').id)).toEqual(['in the card']);
    expect(idsOf(childText(doc, 'First paragraph.').id)).toEqual(['paragraph', 'frontmatter']);
    expect(idsOf(card.id)).toEqual(['blank after the card']);
    expect(idsOf(doc.blocks.find((b) => b.kind === 'list')!.id)).toEqual(['list']);
  });

  it('inserts each menu entry as the block it names, in the file\'s style, leaving the rest of the page as it was', () => {
    const after = doc.blocks[0]!;
    const expected: Record<string, string> = {
      Paragraph: 'paragraph', Heading: 'heading', List: 'list', Note: 'Note', Warning: 'Warning', Tip: 'Tip', Info: 'Info', Card: 'Card',
      'Code block': 'code', Divider: 'thematicBreak',
    };
    expect(INSERT_CHOICES.map((c) => c.label)).toEqual(Object.keys(expected));
    for (const choice of INSERT_CHOICES) {
      const edit = insertBlock(PAGE, after, choice.markdown(doc.style));
      const next = applyTextEdits(PAGE, [edit]);
      expect(next.slice(0, edit.from)).toBe(PAGE.slice(0, edit.from));
      expect(next.slice(edit.from + edit.text.length)).toBe(PAGE.slice(edit.to));
      const inserted = parseVisualDocument(next).blocks[1]!;
      expect(inserted.component?.name ?? inserted.kind, choice.label).toBe(expected[choice.label]);
    }
    // the file's bullets are '*': a new list keeps them
    expect(INSERT_CHOICES.find((c) => c.label === 'List')!.markdown(doc.style)).toBe('* Item');
    expect(INSERT_CHOICES.find((c) => c.label === 'Note')!.markdown({ ...doc.style, eol: '\r\n' })).toBe('<Note>\r\nNote text.\r\n</Note>');
  });

  it('labels props for people', () => {
    expect(propLabel('title')).toBe('Title');
    expect(propLabel('defaultOpen')).toBe('Default open');
  });
});
