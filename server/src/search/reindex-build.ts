/**
 * Rebuilds the search index of one published deployment for a reindex job (jobs/reindex-runner.ts;
 * interface-spec.md "Search": `full` reindex versus incremental), from what the deployment holds:
 * its manifest (pages, titles, `hidden`, `audience`, the `.md` hash) and its deployed `<path>.md`
 * files, with the records and index format of shared/src/search (records.ts, index.ts).
 *
 * - Hidden pages are left out; gated pages go in with the manifest's current `audience`.
 * - `full`: every page's records are extracted again from its `.md`.
 * - incremental: a page whose manifest hash equals the hash stored with its records in the
 *   deployment's `records.json` keeps those records (with the manifest's current title and
 *   audience: frontmatter is not part of the `.md` hash); other pages are extracted again.
 * - A page's language division is kept from the stored records (the manifest does not hold it).
 */
import { buildSearchIndexAsync } from '@quire/shared/search/index';
import { pageRecords, type StoredPage } from '@quire/shared/search/records-file';
import { pageSearchRecords, tocFromMarkdown } from '@quire/shared/search/records';
import type { SearchRecord } from '@quire/shared/search/types';
import { parseManifest } from '../deployments/manifest';
import type { DeploymentFiles } from '../storage/deployment-store';
import { readDeploymentRecords } from './deployment-index';

/** A rebuilt index: its files (names relative to `_quire/search/`) and the pages it holds. */
export interface RebuiltIndex {
  files: Map<string, Buffer>;
  pages: number;
}

/** The stored records of the deployment by page path (empty when it has none or they do not parse). */
async function storedPages(files: DeploymentFiles): Promise<Map<string, StoredPage>> {
  try {
    return (await readDeploymentRecords(files)) ?? new Map();
  } catch {
    return new Map(); // unreadable records: every page is extracted again
  }
}

/**
 * The new index of a deployment (see the module comment); null when it has no manifest (not a
 * finished deployment).
 * @throws Error when the deployment's files cannot be read.
 */
export async function rebuildDeploymentIndex(files: DeploymentFiles, full: boolean): Promise<RebuiltIndex | null> {
  const listed = await files.list();
  if (!listed.has('manifest.json')) return null;
  const manifest = parseManifest((await files.read('manifest.json')).body.toString('utf8'), `${files.key}/manifest.json`);
  const stored = await storedPages(files);
  const records: SearchRecord[] = [];
  const hashes = new Map<string, string>();
  for (const page of manifest.pages) {
    if (page.hidden) continue;
    const title = page.title ?? page.path;
    const audience = page.audience && page.audience.length > 0 ? { audience: [...page.audience] } : {};
    const previous = stored.get(page.path);
    const language = previous?.language ? { language: previous.language } : {};
    if (page.hash) hashes.set(page.path, page.hash);
    if (!full && previous && page.hash && previous.hash === page.hash) {
      for (const r of pageRecords(previous)) {
        const { audience: _old, ...rest } = r;
        records.push({ ...rest, title, ...audience });
      }
      continue;
    }
    const md = `${page.path}.md`;
    if (!listed.has(md)) continue;
    const markdown = (await files.read(md)).body.toString('utf8');
    records.push(...pageSearchRecords({ path: page.path, title, markdown, toc: tocFromMarkdown(markdown), ...audience, ...language }));
  }
  const built = await buildSearchIndexAsync(records, { hashes });
  return { files: new Map(Object.entries(built.files).map(([name, text]) => [name, Buffer.from(text, 'utf8')])), pages: built.pages };
}
