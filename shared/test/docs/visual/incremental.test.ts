/**
 * Re-reading a page after an edit around the edit only (updateVisualDocument) gives exactly the blocks a
 * whole parse gives, also for edits that merge, split or swallow blocks.
 */
import { describe, expect, it } from 'vitest';
import { applyTextEdits, parseVisualDocument, updateVisualDocument, type TextEdit } from '../../../src/docs/visual/index';

const PAGE = [
  '---',
  'title: Page',
  '---',
  '',
  '# Title',
  '',
  'First paragraph',
  'wrapped.',
  '',
  '- one',
  '- two',
  '',
  '<Note title="n">',
  '  Inside the note.',
  '</Note>',
  '',
  'Last paragraph.',
  '',
].join('\n');

/** The edit replacing the first occurrence of `find` (after `after`, when given) by `text`. */
function editAt(source: string, find: string, text: string, after = 0): TextEdit {
  const from = source.indexOf(find, after);
  if (from < 0) throw new Error(`${find} not in the page`);
  return { from, to: from + find.length, text };
}

const cases: Array<[string, TextEdit]> = [
  ['typing in a paragraph', editAt(PAGE, 'wrapped.', 'wrapped. More')],
  ['typing in a component child', editAt(PAGE, 'Inside', 'Inside it')],
  ['joining two blocks by removing a blank line', editAt(PAGE, 'wrapped.\n\n', 'wrapped.\n')],
  ['splitting a paragraph in two', editAt(PAGE, 'First paragraph\n', 'First paragraph\n\n')],
  ['an unclosed component', editAt(PAGE, '</Note>', '')],
  ['a list item becoming a heading', editAt(PAGE, '- two', '## two')],
  ['a thematic break written at the start of a block', editAt(PAGE, '# Title', '---')],
  ['typing in the frontmatter', editAt(PAGE, 'Page', 'Pages')],
  ['typing in the last block', editAt(PAGE, 'Last paragraph.', 'Last paragraph, longer.')],
  ['a new block between two others', editAt(PAGE, '- two\n', '- two\n\nNew.\n')],
];

describe('updateVisualDocument', () => {
  it.each(cases)('reads the page as a whole parse does after %s', (_name, edit) => {
    const doc = parseVisualDocument(PAGE);
    const next = applyTextEdits(PAGE, [edit]);
    expect(updateVisualDocument(doc, PAGE, edit)).toEqual(parseVisualDocument(next));
  });

  it('keeps the ids of the blocks before the edit and moves the ones after', () => {
    const doc = parseVisualDocument(PAGE);
    const updated = updateVisualDocument(doc, PAGE, editAt(PAGE, 'wrapped.', 'wrapped. More'));
    expect(updated.blocks[0]!.id).toBe(doc.blocks[0]!.id);
    expect(updated.blocks.at(-1)!.id).toBe(`b${doc.blocks.at(-1)!.from + ' More'.length}`);
  });

  it('re-reads a page with reference definitions whole, since they resolve across blocks', () => {
    const source = 'See [the docs][d].\n\nMore.\n\n[d]: /docs\n';
    const doc = parseVisualDocument(source);
    const edit = editAt(source, '[d]: /docs', '');
    expect(updateVisualDocument(doc, source, edit)).toEqual(parseVisualDocument(applyTextEdits(source, [edit])));
  });
});
