/**
 * A deployment's search index as the server reads it from the deployment store (local directory
 * or bucket prefix; storage/deployment-store.ts): loaded as saved, never rebuilt
 * (shared/src/search/index.ts), the pages' stored records for a reindex, and writing a rebuilt
 * index's files through whatever writer the store offers.
 */
import { loadSearchIndex, RECORDS_FILE, SEARCH_INDEX_DIR, TERMS_FILE, type SerializedSearchIndex } from '@quire/shared/search/index';
import { currentPages, DELTA_FILE, parseDeltaFile } from '@quire/shared/search/delta';
import { parseRecordsFile, type StoredPage } from '@quire/shared/search/records-file';
import type { SearchIndex } from '@quire/shared/search/types';
import type { DeploymentFiles } from '../storage/deployment-store';

/**
 * Loads the search index of a deployment; null when it has none (built before search existed, or
 * a build of a site without visible pages).
 * @param dir the folder of the index files (default `_quire/search`; a reindex generation's folder)
 * @throws Error when the files cannot be read or are damaged or of different builds
 */
export async function loadDeploymentSearchIndex(files: DeploymentFiles, dir: string = SEARCH_INDEX_DIR): Promise<SearchIndex | null> {
  const base = dir.replace(/\/+$/, '');
  const listed = await files.list();
  if (!listed.has(`${base}/${RECORDS_FILE}`) || !listed.has(`${base}/${TERMS_FILE}`)) return null;
  // an incremental build's delta (shared/src/search/delta.ts) is laid over the index it shares
  return loadSearchIndex(async (name) => (await files.read(`${base}/${name}`)).body, { delta: listed.has(`${base}/${DELTA_FILE}`) });
}

/**
 * The current pages of a deployment's records by page path (its delta laid over its records file;
 * each with the `.md` hash its sections were made from); null when the deployment has no records file.
 * @throws Error when the file cannot be read or is not a records file
 */
export async function readDeploymentRecords(files: DeploymentFiles, dir: string = SEARCH_INDEX_DIR): Promise<Map<string, StoredPage> | null> {
  const base = dir.replace(/\/+$/, '');
  const listed = await files.list();
  if (!listed.has(`${base}/${RECORDS_FILE}`)) return null;
  const stored = parseRecordsFile((await files.read(`${base}/${RECORDS_FILE}`)).body.toString('utf8'));
  const delta = listed.has(`${base}/${DELTA_FILE}`) ? parseDeltaFile((await files.read(`${base}/${DELTA_FILE}`)).body.toString('utf8')) : undefined;
  return currentPages(stored.pages, delta?.baseIndexId === stored.indexId ? delta : undefined);
}

/**
 * Writes a built index's files with `write` (name relative to the index folder, bytes), the term
 * index last: a loader refuses a records file and term index of different builds, so a reader in
 * between sees an error, never a wrong answer.
 */
export async function writeSearchIndexFiles(built: SerializedSearchIndex, write: (name: string, body: Buffer) => Promise<void>): Promise<void> {
  const names = Object.keys(built.files).sort((a, b) => Number(a === TERMS_FILE) - Number(b === TERMS_FILE));
  for (const name of names) await write(name, Buffer.from(built.files[name]!, 'utf8'));
}
