import { describe, expect, it } from 'vitest';
import { datePages } from '../../src/builder/page-dates';
import type { SitePage } from '../../src/builder/site-writer';

/** "Last updated" from git history: pages without frontmatter `lastUpdated` get their file's last commit date. */
const page = (path: string, filePath: string | undefined, frontmatter: Record<string, unknown> = {}): SitePage => ({
  path,
  ...(filePath ? { filePath } : {}),
  hidden: false,
  page: { html: '', toc: [], frontmatter, title: path, markdown: '', text: '', links: [], assets: [], dependencies: [], warnings: [] },
});
/** A page an incremental build carries (its files, date included, are the previous deployment's). */
const carried = (path: string, filePath: string): SitePage => ({ path, filePath, hidden: false, page: { title: path, frontmatter: {}, carried: { inputKey: 'k', markdownHash: 'h' } } });

describe('datePages', () => {
  it('asks for the repository paths (docs folder included) of pages without a frontmatter date, and sets theirs', async () => {
    const pages = [page('index', 'index.mdx'), page('dated', 'dated.mdx', { lastUpdated: '2024-03-05' }), page('api/x', undefined), page('guide', 'guide.md'), carried('kept', 'kept.mdx')];
    const asked: string[][] = [];
    const n = await datePages(pages, 'docs', 'a'.repeat(40), async (sha, paths) => {
      asked.push(paths);
      expect(sha).toBe('a'.repeat(40));
      return new Map([['docs/index.mdx', new Date('2026-01-02T03:04:05Z')]]);
    }, () => {});
    expect(asked).toEqual([['docs/index.mdx', 'docs/guide.md']]);
    expect(n).toBe(1);
    expect(pages[0]!.lastChanged).toBe('2026-01-02T03:04:05.000Z');
    expect(pages[1]!.lastChanged).toBeUndefined(); // frontmatter wins (site-writer reads it)
    expect(pages[3]!.lastChanged).toBeUndefined(); // no change found: no date
  });

  it('never fails the build when the history cannot be read: logs why, pages keep no date', async () => {
    const pages = [page('index', 'index.mdx')];
    const log: string[] = [];
    const n = await datePages(pages, '', 'b'.repeat(40), async () => {
      throw new Error('the repository is unreachable');
    }, (line) => log.push(line));
    expect(n).toBe(0);
    expect(pages[0]!.lastChanged).toBeUndefined();
    expect(log.join('\n')).toMatch(/last-updated dates .* unavailable \(the repository is unreachable\)/);
  });
});
