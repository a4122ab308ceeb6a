/**
 * "Last updated" dates of a build's pages (site-look.md "Content column"): frontmatter `lastUpdated`
 * when the page sets it (site-writer.ts), otherwise the date of the last commit changing the page's
 * file. The build's checkout is a shallow single commit, so the history comes from the server's git
 * read cache (git/repo-reader.ts `lastChangedAt`), passed in by the build runner.
 */
import type { SitePage } from './site-writer';

/** When each repository path last changed in the history of a commit (absent: never changed there). */
export type LastChangedReader = (commitSha: string, paths: string[]) => Promise<Map<string, Date>>;

/**
 * Sets `lastChanged` on the rendered pages (not those an incremental build carries) with a file and
 * no frontmatter `lastUpdated`, so a one-page push reads one page's history. Never fails the
 * build: when the history cannot be read, the reason is logged and the pages keep no date.
 * @param docsRootRel the docs folder in the repository ('' at the root)
 * @returns the number of pages dated from the history
 */
export async function datePages(
  pages: SitePage[],
  docsRootRel: string,
  commitSha: string,
  read: LastChangedReader,
  log: (line: string) => void,
): Promise<number> {
  const wanted = new Map<string, SitePage[]>();
  for (const p of pages) {
    // a page an incremental build carries keeps its files, date included: only rendered pages are dated
    if (!p.filePath || !('markdown' in p.page) || typeof p.page.frontmatter.lastUpdated === 'string') continue;
    const repoPath = docsRootRel ? `${docsRootRel}/${p.filePath}` : p.filePath;
    const list = wanted.get(repoPath);
    if (list) list.push(p);
    else wanted.set(repoPath, [p]);
  }
  if (wanted.size === 0) return 0;
  let dates: Map<string, Date>;
  try {
    dates = await read(commitSha, [...wanted.keys()]);
  } catch (err) {
    log(`last-updated dates from git history unavailable (${(err as Error).message}); pages show none`);
    return 0;
  }
  let dated = 0;
  for (const [repoPath, list] of wanted) {
    const at = dates.get(repoPath);
    if (!at || Number.isNaN(at.getTime())) continue;
    for (const p of list) p.lastChanged = at.toISOString();
    dated += list.length;
  }
  return dated;
}
