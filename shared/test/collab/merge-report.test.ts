import { describe, expect, it } from 'vitest';
import { mergeReport, mergeReportReads, type MergeReportChange } from '../../src/collab/merge-report';

const docsJson = (nav: unknown, redirects: unknown[] = []) =>
  JSON.stringify({ name: 'Docs', theme: 'mint', colors: { primary: '#0D9373' }, navigation: nav, redirects });

const base: Record<string, string> = {
  'docs.json': docsJson({ groups: [{ group: 'Start', pages: ['index', 'guides/setup'] }, { group: 'More', pages: ['old'] }] }),
  'index.mdx': '---\ntitle: Home\n---\n\nRead [the setup](/guides/setup).\n',
  'guides/setup.mdx': '---\ntitle: Setup\n---\n\nInstall it. Then then run it.\n',
  'old.mdx': '---\ntitle: Old page\n---\n\nOld text.\n',
  'images/logo.png': 'png',
};

function report(changes: MergeReportChange[], lint = {}) {
  return mergeReport({ basePaths: Object.keys(base), readBase: (p) => base[p], changes, lint });
}

describe('mergeReport', () => {
  it('lists the pages changed with their titles', async () => {
    const r = await report([
      { path: 'guides/new.mdx', content: '---\ntitle: Brand new\n---\n\nHello.\n' },
      { path: 'guides/setup.mdx', content: '---\ntitle: Set up Quire\n---\n\nInstall it. Then run it.\n' },
      { path: 'old.mdx', content: null },
    ]);
    expect(r.pages).toEqual([
      { path: 'guides/new.mdx', page: 'guides/new', change: 'added', title: 'Brand new' },
      { path: 'guides/setup.mdx', page: 'guides/setup', change: 'modified', title: 'Set up Quire' },
      { path: 'old.mdx', page: 'old', change: 'deleted', title: 'Old page' },
    ]);
  });

  it('reports lint findings added and fixed, and broken links and missing images introduced', async () => {
    const r = await report([
      {
        path: 'guides/setup.mdx',
        content: '---\ntitle: Setup\n---\n\nInstall it. Then run it. See [nowhere](/no-such-page) and ![logo](/images/missing.png). It is is done.\n',
      },
    ]);
    expect(r.lint.fixed.map((f) => f.ruleId)).toContain('prose/repeated-words');
    expect(r.lint.added.some((f) => f.ruleId === 'prose/repeated-words' && f.message.includes('is'))).toBe(true);
    expect(r.brokenLinks).toMatchObject([{ path: 'guides/setup.mdx', ruleId: 'links/broken', line: 5 }]);
    expect(r.brokenLinks[0]!.message).toContain('/no-such-page');
    expect(r.missingImages).toMatchObject([{ path: 'guides/setup.mdx', ruleId: 'images/missing' }]);
  });

  it('does not report a finding the page already had', async () => {
    const r = await report([{ path: 'guides/setup.mdx', content: '---\ntitle: Setup\n---\n\nFirst line.\n\nInstall it. Then then run it.\n' }]);
    expect(r.lint.added).toEqual([]);
    expect(r.lint.fixed).toEqual([]);
  });

  it('reports navigation changes and redirects added', async () => {
    const r = await report([
      { path: 'docs.json', content: docsJson({ groups: [{ group: 'Start', pages: ['index', 'fresh'] }, { group: 'More', pages: ['guides/setup'] }] }, [
        { source: '/old', destination: '/fresh' },
      ]) },
      { path: 'fresh.mdx', content: '---\ntitle: Fresh\n---\n\nNew.\n' },
      { path: 'old.mdx', content: null },
    ]);
    expect(r.navigation).toEqual([
      { page: 'fresh', change: 'added', from: null, to: ['Start'] },
      { page: 'guides/setup', change: 'moved', from: ['Start'], to: ['More'] },
      { page: 'old', change: 'removed', from: ['More'], to: null },
    ]);
    expect(r.redirects.added).toEqual([{ source: '/old', destination: '/fresh', permanent: true }]);
    expect(r.configErrors).toEqual({ base: null, head: null });
  });

  it('reports a deleted page the unchanged navigation still lists', async () => {
    const r = await report([{ path: 'old.mdx', content: null }]);
    expect(r.lint.added).toMatchObject([{ path: 'docs.json', ruleId: 'navigation/missing-page' }]);
    expect(r.lint.added[0]!.message).toContain('old');
    expect(r.navigation).toEqual([]);
  });

  it('applies the project style rules', async () => {
    const styleRules = [{ type: 'existence' as const, name: 'no-simply', tokens: ['simply'], severity: 'warning' as const, ignoreCase: true }];
    const r = await report([{ path: 'index.mdx', content: '---\ntitle: Home\n---\n\nSimply read [the setup](/guides/setup).\n' }], { styleRules });
    expect(r.lint.added).toMatchObject([{ path: 'index.mdx', ruleId: 'style/no-simply', line: 5 }]);
  });

  it('reads only configuration and changed files of the base', () => {
    expect(mergeReportReads(Object.keys(base), [{ path: 'old.mdx', content: null }, { path: 'x.mdx', content: 'x' }])).toEqual(['docs.json', 'index.mdx', 'old.mdx']);
  });
});
