/**
 * Heading ids follow Mintlify's rule, so links written for a Mintlify site land on the heading. Examples are Mintlify's
 * own table (create/text.mdx "Automatic anchor IDs") and real links of the corpora (fixtures/corpora*), each with
 * the file that links to it.
 */
import { describe, expect, it } from 'vitest';
import { HeadingIds, mintlifyHeadingId } from '../../../src/docs/markdown/heading-ids';
import { tocFromMarkdown } from '../../../src/search/records';
import { render } from './render-helpers';

describe('mintlifyHeadingId', () => {
  it.each([
    // Mintlify's documented examples
    ['Getting started', 'getting-started'],
    ['Config.json options', 'config-json-options'],
    ["What's new", 'what’s-new'],
    ['Rate limits (per minute)', 'rate-limits-per-minute'],
    ['Read/write access', 'read/write-access'],
    ['Fees & billing', 'fees-&-billing'],
    ['OAuth', 'oauth'],
    // mintlify/docs issue 5537: the colon does not survive
    ['Step 1: Issue a proxy secret', 'step-1-issue-a-proxy-secret'],
    // trigger-dev: ai-chat/mcp.mdx → ai-chat/backend#chat-agent, tasks/overview#init-ts, triggering#yourtask-batchtriggerandwait
    ['chat.agent()', 'chat-agent'],
    ['Records on session.out', 'records-on-session-out'],
    ['init.ts', 'init-ts'],
    ['yourTask.batchTriggerAndWait()', 'yourtask-batchtriggerandwait'],
    ['session.in — clients → task', 'session-in-—-clients-→-task'],
    // mintlify corpus: organize/settings#split-configuration-with-$ref, deploy/authentication-setup#oauth-2-0
    ['Split configuration with $ref', 'split-configuration-with-$ref'],
    ['OAuth 2.0', 'oauth-2-0'],
    // pipecat: numbered headings, & and / kept, emoji kept, @ kept
    ['1. Define a tool', '1-define-a-tool'],
    ['3. VAD & Turn Analyzer Configuration', '3-vad-&-turn-analyzer-configuration'],
    ['Processor Pause/Resume (Urgent)', 'processor-pause/resume-urgent'],
    ['error 🤖', 'error-🤖'],
    ['Per-Tool Options with @tool_options', 'per-tool-options-with-@tool_options'],
    ['enableMic(enable: boolean)', 'enablemic-enable-boolean'],
    ['Configuration File (pcc-deploy.toml)', 'configuration-file-pcc-deploy-toml'],
  ])('%s → %s', (text, id) => {
    expect(mintlifyHeadingId(text)).toBe(id);
  });

  it('is empty when nothing of the text survives', () => {
    expect(mintlifyHeadingId('(...)')).toBe('');
  });
});

describe('HeadingIds', () => {
  it('numbers repeats from -2 the way Mintlify does (pipecat stt/deepgram#settings-4)', () => {
    const ids = new HeadingIds();
    expect(['Settings', 'Settings', 'Settings', 'Settings'].map((t) => ids.next(t).id)).toEqual(['settings', 'settings-2', 'settings-3', 'settings-4']);
  });

  it('returns the github-slugger id as legacy only when it differs', () => {
    const ids = new HeadingIds();
    expect(ids.next('chat.agent()')).toEqual({ id: 'chat-agent', legacy: 'chatagent' });
    expect(ids.next('Getting started')).toEqual({ id: 'getting-started' });
    expect(ids.next('Getting started')).toEqual({ id: 'getting-started-2', legacy: 'getting-started-1' });
  });

  it('never hands out an id already taken', () => {
    const ids = new HeadingIds();
    ids.take('setup');
    expect(ids.next('Setup').id).toBe('setup-2');
    expect(ids.next('').id).toBe('section');
  });
});

describe('rendered headings', () => {
  it('carry the Mintlify id, keep the older id as an alias target, and list the Mintlify id in the toc', async () => {
    const page = await render('## chat.agent()\n\nText.\n\n## Plain\n', { filePath: 'a.mdx' });
    expect(page.toc.map((e) => e.id)).toEqual(['chat-agent', 'plain']);
    expect(page.html).toMatch(/<h2 id="chat-agent"[^>]*><span class="q-heading-alias" id="chatagent"><\/span>/);
    expect(page.html).toContain('href="#chat-agent"');
    expect(page.html.match(/id="plain"/g)).toHaveLength(1);
  });

  it('does the same in .md pages', async () => {
    const page = await render('## init.ts\n', { filePath: 'a.md' });
    expect(page.toc).toEqual([{ depth: 2, id: 'init-ts', text: 'init.ts' }]);
    expect(page.html).toContain('<span class="q-heading-alias" id="initts"></span>');
  });

  it('gives no alias that another id of the page already has', async () => {
    const page = await render('## a.b\n\n## a-b\n', { filePath: 'a.mdx' });
    expect(page.toc.map((e) => e.id)).toEqual(['a-b', 'a-b-2']);
    expect(page.html).toContain('<span class="q-heading-alias" id="ab"></span>');
    expect(page.html.match(/id="a-b"/g)).toHaveLength(1);
    expect(page.html.match(/q-heading-alias/g)).toHaveLength(1);
  });
});

describe('custom heading ids (Mintlify `{#id}`)', () => {
  it('name the heading, are kept out of its text, and come back in the Markdown export', async () => {
    // Mintlify's own example (fixtures/corpora-heldout/mintlify/guides/linking.mdx): "## Configuration options {#config}"
    const page = await render('## Configuration options {#config}\n\nText.\n\n```md\n## Not a heading {#x}\n```\n', { filePath: 'a.mdx' });
    expect(page.toc).toEqual([{ depth: 2, id: 'config', text: 'Configuration options' }]);
    expect(page.html).toContain('<h2 id="config">Configuration options<a class="q-heading-anchor" href="#config"');
    expect(page.html).toContain('## Not a heading {#x}');
    expect(page.markdown).toContain('## Configuration options {#config}');
    expect(tocFromMarkdown(page.markdown)).toEqual(page.toc);
  });
});
