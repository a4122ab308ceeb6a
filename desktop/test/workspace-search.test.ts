import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_MATCH_CAP } from '../src/core/workspace-search';
import { startLocalFolderCore, type LocalFolderCore } from './helpers/local-folder-core';

/** "Search in files" and the Changes view over an opened docs folder: edits are searched, results are grouped by file. */
let fx: LocalFolderCore;
let c: LocalFolderCore['c'];
let projectId: string;

beforeAll(async () => {
  fx = await startLocalFolderCore('search', {
    'docs.json': JSON.stringify({ name: 'Search', navigation: { groups: [{ group: 'Start', pages: ['index', 'guide'] }] } }),
    'index.mdx': '---\ntitle: Welcome\n---\n\nThe Falcon API.\nfalcon again, and FALCON.\n',
    'guide.mdx': '---\ntitle: Guide\n---\n\nInstall the falcon CLI: `falcon-1.2`.\n',
    'many.md': 'word\n'.repeat(SEARCH_MATCH_CAP + 20),
    'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 0xff, 0xfe]),
  });
  ({ c, projectId } = fx);
});

afterAll(async () => {
  await fx?.close();
});

describe('workspace.search', () => {
  it('finds a word in every text file, ignoring case by default, grouped by file with line, column and a preview', async () => {
    const r = await c.workspace.search({ projectId, query: 'falcon' });
    expect(r.capped).toBe(false);
    expect(r.message).toBeNull();
    expect(r.files.map((f) => f.path)).toEqual(['guide.mdx', 'index.mdx']);
    const index = r.files.find((f) => f.path === 'index.mdx')!;
    expect(index.matches.map((m) => [m.line, m.column, m.length])).toEqual([
      [5, 5, 6],
      [6, 1, 6],
      [6, 19, 6],
    ]);
    const first = index.matches[0]!;
    expect(first.preview).toBe('The Falcon API.');
    expect(first.preview.slice(first.previewStart, first.previewEnd)).toBe('Falcon');
    expect(r.matchCount).toBe(5);
  });

  it('matches case exactly when asked, and treats the query as plain text unless it is a regex', async () => {
    const exact = await c.workspace.search({ projectId, query: 'FALCON', caseSensitive: true });
    expect(exact.matchCount).toBe(1);
    const literal = await c.workspace.search({ projectId, query: 'falcon-1.2' });
    expect(literal.matchCount).toBe(1);
    const dot = await c.workspace.search({ projectId, query: '1.2', regex: false });
    expect(dot.matchCount).toBe(1);
    const regex = await c.workspace.search({ projectId, query: '^title: \\w+$', regex: true });
    expect(regex.files.map((f) => [f.path, f.matches[0]!.preview])).toEqual([
      ['guide.mdx', 'title: Guide'],
      ['index.mdx', 'title: Welcome'],
    ]);
  });

  it('refuses a pattern RE2 cannot run (a backreference) with a message naming it', async () => {
    await expect(c.workspace.search({ projectId, query: '(a)\\1', regex: true })).rejects.toThrow(/The pattern "\(a\)\\1" is not a valid RE2 regular expression/);
  });

  it('searches the local edits, and leaves out files deleted here', async () => {
    await c.files.write({ projectId, path: 'guide.mdx', content: '---\ntitle: Guide\n---\n\nA heron now.\n' });
    expect((await c.workspace.search({ projectId, query: 'heron' })).files.map((f) => f.path)).toEqual(['guide.mdx']);
    await c.files.delete({ projectId, path: 'index.mdx' });
    expect((await c.workspace.search({ projectId, query: 'falcon' })).matchCount).toBe(0);
  });

  it(`stops at ${SEARCH_MATCH_CAP} matches and says so`, async () => {
    const r = await c.workspace.search({ projectId, query: 'word' });
    expect(r.capped).toBe(true);
    expect(r.matchCount).toBe(SEARCH_MATCH_CAP);
    expect(r.files[0]!.matches).toHaveLength(SEARCH_MATCH_CAP);
    expect(r.message).toMatch(/Showing the first 500 matches/);
  });

  it('answers NOT_FOUND for a project that is not open', async () => {
    await expect(c.workspace.search({ projectId: 'prj_unknown', query: 'x' })).rejects.toThrow(/Open the project first/);
  });
});

describe('the Changes view', () => {
  it('lists each changed file with its kind, and gives a changed file its base and local texts', async () => {
    await c.files.write({ projectId, path: 'new.mdx', content: '# New\n' });
    const list = await c.workspace.changedFiles({ projectId });
    expect(list).toEqual(
      expect.arrayContaining([
        { path: 'guide.mdx', change: 'modified' },
        { path: 'index.mdx', change: 'deleted' },
        { path: 'new.mdx', change: 'added' },
      ]),
    );
    expect(await c.workspace.changeDiff({ projectId, path: 'guide.mdx' })).toEqual({
      path: 'guide.mdx',
      change: 'modified',
      before: '---\ntitle: Guide\n---\n\nInstall the falcon CLI: `falcon-1.2`.\n',
      after: '---\ntitle: Guide\n---\n\nA heron now.\n',
    });
    expect(await c.workspace.changeDiff({ projectId, path: 'index.mdx' })).toMatchObject({ change: 'deleted', after: null, before: expect.stringContaining('Falcon') });
    expect(await c.workspace.changeDiff({ projectId, path: 'new.mdx' })).toMatchObject({ change: 'added', before: null, after: '# New\n' });
  });
});
