/**
 * What the default answerer quotes (server/src/chat/sentences.ts), on a small index built from real Markdown
 * (shared/src/search/records.ts keeps each section's blocks): the table row that answers with its header, a numbered
 * procedure or `<Steps>` quoted whole with its code, a sentence introducing a code block with the block, and the section
 * cited with its anchor.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { pageSearchRecords, tocFromMarkdown } from '@quire/shared/search/records';
import type { SearchIndex, SearchRecord } from '@quire/shared/search/types';
import { composeAnswer } from '../../src/chat/answerer';
import { corpusIndex } from '../helpers/corpus';

const PAGES: { path: string; title: string; markdown: string }[] = [
  {
    path: 'settings/limits',
    title: 'Limits',
    markdown: [
      '# Limits',
      '',
      'Every project has limits. Changelog: limits were raised in March.',
      '',
      '## Rate limits',
      '',
      'Requests above these limits are refused with status 429.',
      '',
      '| Endpoint | Requests per minute |',
      '| --- | --- |',
      '| Search | 600 |',
      '| Uploads | 30 |',
      '| Webhooks | 120 |',
    ].join('\n'),
  },
  {
    path: 'guides/rollback',
    title: 'Roll back a deployment',
    markdown: [
      '# Roll back a deployment',
      '',
      'A rollback puts an earlier deployment live again.',
      '',
      '## Roll back from the command line',
      '',
      '1. List the deployments of the project.',
      '2. Copy the id of the deployment to restore.',
      '3. Run the rollback command with that id:',
      '',
      '   ```bash',
      '   quire rollback dep_123',
      '   ```',
      '4. Check the site shows the earlier version.',
    ].join('\n'),
  },
  {
    path: 'guides/webhooks',
    title: 'Webhooks',
    markdown: [
      '# Webhooks',
      '',
      'Webhooks tell your server when something happens in a project.',
      '',
      '## Verify a signature',
      '',
      '<Steps>',
      '  <Step title="Read the signature header">',
      '    Each delivery carries the `Quire-Signature` header.',
      '  </Step>',
      '  <Step title="Compute the HMAC">',
      '    Hash the raw body with your signing secret using SHA-256.',
      '  </Step>',
      '  <Step title="Compare both values">',
      '    Reject the delivery when they differ.',
      '  </Step>',
      '</Steps>',
      '',
      '## Send a test delivery',
      '',
      'Send a test delivery to your endpoint with the CLI:',
      '',
      '```bash',
      'quire webhooks test --url https://example.com/hook',
      '```',
    ].join('\n'),
  },
];

let index: SearchIndex;
beforeAll(async () => {
  const records: SearchRecord[] = PAGES.flatMap((p) => pageSearchRecords({ ...p, toc: tocFromMarkdown(p.markdown) }));
  const filler = Array.from({ length: 30 }, (_, i): SearchRecord => ({ path: `guides/g${i}`, title: `Guide ${i}`, text: `Page ${i} about docs.` }));
  index = await corpusIndex([...records, ...filler]);
});

describe('answer passages', () => {
  it('quotes the table row that answers, with its header, and cites the section by its anchor', () => {
    const answer = composeAnswer('What is the rate limit for uploads?', index);
    expect(answer.answered).toBe(true);
    expect(answer.sources[0]).toMatchObject({ path: 'settings/limits', anchor: 'rate-limits' });
    expect(answer.text).toContain('- Endpoint: Uploads — Requests per minute: 30');
    expect(answer.text).not.toContain('Changelog');
  });

  it('quotes a numbered procedure whole, its code block included', () => {
    const answer = composeAnswer('How do I roll back a deployment from the command line?', index);
    expect(answer.sources[0]).toMatchObject({ path: 'guides/rollback', anchor: 'roll-back-from-the-command-line' });
    const text = answer.text.split('\n\n')[0]!;
    expect(text).toMatch(/^1\. List the deployments of the project\.\n2\. Copy the id/);
    expect(text).toContain('quire rollback dep_123');
    expect(text).toContain('4. Check the site shows the earlier version. [1]');
  });

  it('quotes <Steps> as numbered steps', () => {
    const answer = composeAnswer('How do I verify a webhook signature?', index);
    expect(answer.sources[0]).toMatchObject({ path: 'guides/webhooks', anchor: 'verify-a-signature' });
    expect(answer.text).toContain('1. Read the signature header Each delivery carries the Quire-Signature header.\n2. Compute the HMAC');
    expect(answer.text).toContain('3. Compare both values');
  });

  it('brings the code block a sentence introduces, and puts the citation outside it', () => {
    const answer = composeAnswer('How can I send a test webhook delivery?', index);
    expect(answer.sources[0]).toMatchObject({ path: 'guides/webhooks', anchor: 'send-a-test-delivery' });
    const code = '```\nquire webhooks test --url https://example.com/hook\n```';
    expect(answer.text.split('\n\n')[0]).toBe(`Send a test delivery to your endpoint with the CLI: [1]\n${code}`);
  });
});
