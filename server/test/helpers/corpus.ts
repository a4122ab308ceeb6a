/**
 * The shared real corpora (trigger-dev, agentops, pezzo: Mintlify repositories in
 * `fixtures/corpora` at the repository's root, each with its SOURCE.md and licence) built as a project is, for the tests and
 * benchmarks that need real documentation: a git copy, `runBuild` into a temporary data directory;
 * the records are the ones the build saved in its deployment's `_quire/search/records.json`, and the
 * build log's "indexing search" line tells what the index step cost inside the build.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSearchIndex, loadSearchIndex, SEARCH_INDEX_DIR, RECORDS_FILE } from '@quire/shared/search/index';
import { pageRecords, parseRecordsFile } from '@quire/shared/search/records-file';
import type { SearchIndex, SearchRecord } from '@quire/shared/search/types';
import { runBuild } from '../../src/builder/pipeline';
import { closeRenderPool } from '../../src/builder/render-pool';
import { createFixtureRepo } from './git-repo';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The real corpora (trigger-dev, agentops, pezzo), vendored in `fixtures/corpora` at the repository's root. */
export const CORPUS_DIR = path.resolve(here, '../../../fixtures/corpora');
/** The held-out corpora (never used for tuning; benchmark only), vendored in `fixtures/corpora-heldout`. */
export const HELDOUT_CORPUS_DIR = path.resolve(here, '../../../fixtures/corpora-heldout');

/** Records of a built corpus, with the build's own figures. */
export interface CorpusRecords {
  name: string;
  records: SearchRecord[];
  pages: number;
  /** the build log's line of the index step (`✓ indexing search (...) N ms`), when there is one */
  indexStep?: string;
}

/**
 * Builds `<root>/<name>` (`root` defaults to `CORPUS_DIR`) as a project and returns the records its deployment saved.
 * Throws when the corpus directory is missing (a test must fail, not skip) or the build fails.
 */
export async function builtCorpusRecords(name: string, root: string = CORPUS_DIR): Promise<CorpusRecords> {
  const dir = path.join(root, name);
  if (!fs.existsSync(dir)) throw new Error(`the corpus ${name} is missing: ${dir} does not exist`);
  const repo = createFixtureRepo(dir);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-corpus-'));
  const log: string[] = [];
  try {
    const result = await runBuild({
      projectId: 'prj_bench',
      buildId: `bld_${name.replace(/\W/g, '')}`,
      repoUrl: repo.url,
      branch: repo.branch,
      allowFileRepos: true,
      dataDir,
      siteUrl: 'http://bench-docs.localhost:4000',
      signal: new AbortController().signal,
      log: (line) => log.push(line),
    });
    const stored = parseRecordsFile(fs.readFileSync(path.join(result.outDir, SEARCH_INDEX_DIR, RECORDS_FILE), 'utf8'));
    return { name, records: stored.pages.flatMap(pageRecords), pages: stored.pages.length, indexStep: log.find((l) => l.startsWith('✓ indexing search')) };
  } finally {
    repo.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The loaded search index of `records`, as the server loads a deployment's index files (in memory here). */
export async function corpusIndex(records: readonly SearchRecord[]): Promise<SearchIndex> {
  const files = buildSearchIndex(records).files;
  return loadSearchIndex(async (name) => {
    const text = files[name];
    if (text === undefined) throw new Error(`no search index file ${name}`);
    return Buffer.from(text);
  });
}

/** Lets the build workers go (a bench or test process ends cleanly). */
export const closeBuilders = (): Promise<void> => closeRenderPool();
