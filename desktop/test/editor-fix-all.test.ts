import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import type { TestApp } from '../../server/test/helpers/app';
import { TEST_PASSWORD } from '../../server/test/services/identity-fixtures';
import { callerFor } from '../../server/test/trpc/trpc-fixtures';
import { createCore, type DesktopCore } from '../src/core/compose';
import { createCoreCaller } from '../src/core/router';
import { fileTokenVault } from '../src/core/token-vault';
import { startServerFixture, type ServerFixture } from './server-fixture';
import { readingMinutes, wordCount } from '../src/renderer/editor/text-stats';

/** "Fix all in page" through the core (the shared linter's autoFix with the project's rules), against a real server. */
let fx: ServerFixture;
let t: TestApp;
let projectId: string;
let dataDir: string;
let core: DesktopCore;

beforeAll(async () => {
  fx = await startServerFixture({
      'docs.json': JSON.stringify({ name: 'Acme Docs', navigation: { groups: [{ group: 'Start', pages: ['index'] }] } }),
      'index.mdx': '---\ntitle: Welcome\n---\n\nWelcome.\n',
  });
  ({ t, projectId, dataDir } = fx);
  const serverUrl = fx.serverUrl;
  const token = (await (await callerFor(t.ctx)).auth.signIn({ email: 'writer@acme.test', password: TEST_PASSWORD })).token;
  await (await callerFor(t.ctx, token)).lint.rules.create({ projectId, rule: { name: 'plain-words', type: 'substitution', swap: { utilize: 'use' } } });
  core = createCore({ dataDir, vault: fileTokenVault(dataDir) });
  const c = createCoreCaller(core);
  await c.session.signIn({ serverUrl, email: 'writer@acme.test', password: TEST_PASSWORD });
  await c.workspace.open({ projectId });
});

afterAll(async () => {
  await core?.close();
  await fx?.close();
});

describe('Fix all in page', () => {
  it('applies every fixable finding of the page (the project\'s own rule and the built-in ones), saves the page and leaves the rest', async () => {
    const c = createCoreCaller(core);
    const text = '---\ntitle: Welcome\n---\n\nUtilize the the tool. We utilize it daily.\n\nThe page was written by us.\n';
    const before = await c.lint.run({ projectId, path: 'index.mdx', text });
    expect(before.filter((f) => f.fix).length).toBeGreaterThanOrEqual(3);
    const { file, edits } = await c.editor.fixAll({ projectId, path: 'index.mdx', text });
    expect(file.content).toBe('---\ntitle: Welcome\n---\n\nUse the tool. We use it daily.\n\nThe page was written by us.\n');
    expect(edits.map((e) => e.ruleId)).toEqual(expect.arrayContaining(['style/plain-words']));
    expect((await c.files.read({ projectId, path: 'index.mdx' })).content).toBe(file.content);
    const after = await c.lint.run({ projectId, path: 'index.mdx', text: file.content! });
    expect(after.filter((f) => f.fix)).toEqual([]);
    // a finding without a fix stays (passive voice is only reported)
    expect(after.length).toBe(before.filter((f) => !f.fix).length);
  });

  it('saves a page with nothing to fix unchanged', async () => {
    const c = createCoreCaller(core);
    const text = '---\ntitle: Welcome\n---\n\nAll good here.\n';
    const { file, edits } = await c.editor.fixAll({ projectId, path: 'index.mdx', text });
    expect(edits).toEqual([]);
    expect(file.content).toBe(text);
  });

  it('refuses a project that was not opened, and a path outside the project', async () => {
    const c = createCoreCaller(core);
    const err = await c.editor.fixAll({ projectId: 'prj_other', path: 'index.mdx', text: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCError);
    expect((err as TRPCError).code).toBe('NOT_FOUND');
    const bad = await c.editor.fixAll({ projectId, path: '../etc/passwd', text: 'x' }).catch((e: unknown) => e);
    expect((bad as TRPCError).code).toBe('BAD_REQUEST');
  });
});

describe('status bar figures', () => {
  it('counts the words of the page\'s prose, not its frontmatter, code, tags or markup', () => {
    const text = '---\ntitle: Many words in the title\n---\n\n# Getting started\n\n<Note>Read **this** first.</Note>\n\n```js\nconst not = counted;\n```\n\n- one item\n';
    expect(wordCount(text)).toBe(2 + 3 + 2);
    expect(readingMinutes(0, 200)).toBe(0);
    expect(readingMinutes(1, 200)).toBe(1);
    expect(readingMinutes(401, 200)).toBe(3);
  });
});
