import { describe, expect, it } from 'vitest';
import { closingTagFor, insideCodeFence } from '../src/renderer/editor/tag-close';
import { MDX_SNIPPETS } from '../src/renderer/editor/mdx-snippets';

describe('closing MDX tags as they are typed', () => {
  it('closes a component and a known HTML element, with attributes, also on several lines', () => {
    expect(closingTagFor('# Title\n\n<Note>')).toBe('</Note>');
    expect(closingTagFor('<Card title="Start" href="/start">')).toBe('</Card>');
    expect(closingTagFor('<Card\n  title="Start"\n  href="/start">')).toBe('</Card>');
    expect(closingTagFor('<details>')).toBe('</details>');
  });

  it('leaves self-closing tags, closing tags, unknown lower-case names, void elements and text alone', () => {
    expect(closingTagFor('<Foo />')).toBeNull();
    expect(closingTagFor('<Foo/>')).toBeNull();
    expect(closingTagFor('</Note>')).toBeNull();
    expect(closingTagFor('<widget>')).toBeNull();
    expect(closingTagFor('<br>')).toBeNull();
    expect(closingTagFor('a -> b')).toBeNull();
  });

  it('does not close inside a fenced code block or inline code, and not twice', () => {
    expect(closingTagFor('```jsx\n<Note>')).toBeNull();
    expect(closingTagFor('~~~~\n```\n<Note>')).toBeNull();
    expect(closingTagFor('```jsx\ncode\n```\n<Note>')).toBe('</Note>');
    expect(closingTagFor('Write `<Note>')).toBeNull();
    expect(closingTagFor('<Note>', '</Note>\n')).toBeNull();
  });

  it('tells a fence line from a line inside a fence', () => {
    expect(insideCodeFence('text\n```\n')).toBe(true);
    expect(insideCodeFence('```\na\n```\n')).toBe(false);
  });
});

describe('the "/" menu', () => {
  it('offers the documented components, Steps with two Step and Tabs with two Tab', () => {
    expect(MDX_SNIPPETS.map((s) => s.label)).toEqual(['Note', 'Warning', 'Tip', 'Info', 'Steps', 'Tabs', 'CodeGroup', 'Card', 'CardGroup', 'Accordion', 'Frame', 'Image', 'Insert image']);
    const steps = MDX_SNIPPETS.find((s) => s.label === 'Steps')!.body;
    expect(steps.match(/<Step /g)).toHaveLength(2);
    expect(MDX_SNIPPETS.find((s) => s.label === 'Tabs')!.body.match(/<Tab /g)).toHaveLength(2);
    expect(MDX_SNIPPETS.find((s) => s.label === 'Image')!.body).toMatch(/^!\[.*\]\(\/images\//);
    // "Insert image" inserts nothing itself: it runs the editor's "Insert image" (a file chooser)
    expect(MDX_SNIPPETS.find((s) => s.label === 'Insert image')).toMatchObject({ body: '', command: 'quire.insertImage' });
  });
});
