/**
 * A page's search records (shared/src/search/records.ts): one per section with the toc's anchors,
 * plain text out of the page's Markdown export.
 */
import { describe, expect, it } from 'vitest';
import { displayText, textBlocks } from '../../src/search/markdown-text';
import { MAX_RECORD_TEXT, pageSearchRecords, tocFromMarkdown } from '../../src/search/records';

const MARKDOWN = `# Quick start

Set up the SDK in **three** minutes. See [the guide](/guides/setup).

## Install the \`cli\`

Run the installer:

\`\`\`bash
npm install quire-cli
## not a heading, a comment in code
\`\`\`

### Options

| Option | Default |
| --- | --- |
| \`retries\` | 3 |

<Card title="Deploy to production" href="/deploy">
  Ship it.
</Card>

## Next steps

<ParamField path="projectId" type="string">The project's id.</ParamField>
`;

const toc = [
  { depth: 2 as const, id: 'install-the-cli', text: 'Install the cli' },
  { depth: 3 as const, id: 'options', text: 'Options' },
  { depth: 2 as const, id: 'next-steps', text: 'Next steps' },
];

describe('pageSearchRecords', () => {
  const records = pageSearchRecords({ path: 'quick-start', title: 'Quick start', markdown: MARKDOWN, toc, audience: ['partners'], language: 'en' });

  it('makes one record for the introduction and one per h2/h3, anchored as the toc says', () => {
    expect(records.map((r) => [r.section, r.anchor, r.depth])).toEqual([
      [undefined, undefined, undefined],
      ['Install the cli', 'install-the-cli', 2],
      ['Options', 'options', 3],
      ['Next steps', 'next-steps', 2],
    ]);
    expect(records.every((r) => r.path === 'quick-start' && r.title === 'Quick start' && r.language === 'en' && r.audience?.[0] === 'partners')).toBe(true);
  });

  it('strips Markdown and keeps readable text, code and component titles', () => {
    expect(records[0]!.text).toBe('Set up the SDK in three minutes. See the guide.');
    expect(records[1]!.text).toContain('npm install quire-cli');
    // a `##` line inside a code block does not start a section
    expect(records[1]!.text).toContain('## not a heading');
    // a table row is one line, its cells tab-separated (markdown-text.ts TEXT_BLOCK_MARKS)
    expect(records[2]!.text).toContain('retries\t3');
    expect(records[2]!.text).not.toContain('|');
    expect(records[2]!.text).toContain('Deploy to production');
    expect(records[2]!.text).not.toContain('/deploy');
    expect(records[3]!.text).toContain('projectId');
    expect(records[3]!.text).toContain("The project's id.");
  });

  it('keeps a heading the toc does not list in the text of its section', () => {
    const out = pageSearchRecords({ path: 'p', title: 'P', markdown: '# P\n\nIntro\n\n## Listed\n\nA\n\n## Unlisted\n\nB\n', toc: [{ depth: 2, id: 'listed', text: 'Listed' }] });
    expect(out.map((r) => r.section)).toEqual([undefined, 'Listed']);
    expect(out[1]!.text).toBe('A\nUnlisted\nB');
  });

  it('gives an empty introduction record to a page that starts with a heading', () => {
    const out = pageSearchRecords({ path: 'p', title: 'P', markdown: '# P\n\n## Only\n\nText\n', toc: [{ depth: 2, id: 'only', text: 'Only' }] });
    expect(out[0]).toMatchObject({ text: '' });
    expect(out[0]!.section).toBeUndefined();
  });

  it('caps the text of a huge section at a word boundary', () => {
    const out = pageSearchRecords({ path: 'p', title: 'P', markdown: `# P\n\n${'lorem ipsum '.repeat(2000)}`, toc: [] });
    expect(out[0]!.text.length).toBeLessThanOrEqual(MAX_RECORD_TEXT);
    expect(out[0]!.text.endsWith('lorem') || out[0]!.text.endsWith('ipsum')).toBe(true);
  });
});

describe('tocFromMarkdown', () => {
  it('names h2/h3 as the renderer does (the Mintlify rule, repeats numbered from -2) and skips code', () => {
    expect(tocFromMarkdown('# T\n\n## Set `up`\n\n```\n## no\n```\n\n### Set up\n\n#### Deep\n')).toEqual([
      { depth: 2, id: 'set-up', text: 'Set up' },
      { depth: 3, id: 'set-up-2', text: 'Set up' },
    ]);
  });

});

describe('section text blocks', () => {
  it('keeps list items, numbered steps, <Step>s, table rows and code blocks as blocks an answer can quote whole', () => {
    const markdown = [
      '# P', '', '## Setup', '', 'Three things to do:', '', '1. Install the **CLI**', '2. Log in', '', '- a bullet', '  continued', '',
      '<Steps>', '  <Step title="Deploy">', '    Push your branch.', '  </Step>', '</Steps>', '',
      '| Name | Type |', '| --- | --- |', '| `timeout` | number |', '', '```bash', 'quire deploy', '', '  --prod', '```', '',
    ].join('\n');
    const [, setup] = pageSearchRecords({ path: 'p', title: 'P', markdown, toc: [{ depth: 2, id: 'setup', text: 'Setup' }] });
    expect(textBlocks(setup!.text)).toEqual([
      { kind: 'paragraph', text: 'Three things to do:' },
      { kind: 'step', text: 'Install the CLI' },
      { kind: 'step', text: 'Log in' },
      { kind: 'item', text: 'a bullet continued' },
      { kind: 'step', text: 'Deploy Push your branch.' },
      { kind: 'row', text: 'Name\tType', header: true },
      { kind: 'row', text: 'timeout\tnumber', header: false },
      { kind: 'code', text: 'quire deploy\n  --prod' },
    ]);
    // shown as one line with the marks hidden, offsets unchanged
    const shown = displayText(setup!.text);
    expect(shown).toHaveLength(setup!.text.length);
    expect(shown.replace(/\s+/g, ' ').trim()).toBe('Three things to do: Install the CLI Log in a bullet continued Deploy Push your branch. Name Type timeout number quire deploy --prod');
  });

  it('reads a lone `>` as the end of a tag whose attributes span lines, not as a quote', () => {
    const markdown = '# P\n\n<Card\n  title="Request caching"\n  href="/caching"\n>\n  Save on repeated requests.\n</Card>\n';
    const [intro] = pageSearchRecords({ path: 'p', title: 'P', markdown, toc: [] });
    expect(intro!.text).toBe('Request caching Save on repeated requests.');
  });

  it('reads text written before blocks were kept as one paragraph', () => {
    expect(textBlocks('One line. Two.')).toEqual([{ kind: 'paragraph', text: 'One line. Two.' }]);
  });
});
