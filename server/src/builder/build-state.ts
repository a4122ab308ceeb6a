/**
 * What a finished build remembers for the incremental build that replaces it (incremental.ts): per
 * page what the site needs besides the page body (title, frontmatter, links, warnings, the keys of
 * its output files), the loaded project, the lint findings and the keys that say whether they still
 * hold.
 *
 * On disk, under `<dataDir>/cache/<projectId>/state/`: one small head per build,
 * `builds/<buildId>.json`, naming content-addressed blobs, `blobs/<sha256>.json`: the project, and
 * the pages with their lint findings in {@link SHARDS} shards by page path. A build writes only the
 * blobs that changed (a one-page change rewrites one shard), and the head last. Heads go with their
 * deployment (prune.ts), blobs once no head names them. In memory, a {@link BuildStateMemory} the
 * caller keeps hands the state of the build it just ran to the next one without reading the disk.
 * The state is an optimisation: one that is missing, unreadable or of another format makes the next
 * build a full one.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pagePathOf } from '@quire/shared/docs/nav/index';
import type { BuildWarning } from '@quire/shared/docs/types';
import { dataPaths, PATH_ID_RE } from '../data-paths';
import type { PageLint } from './lint-pages';
import type { LoadedProject } from './load-project';
import type { OperationPage } from '@quire/shared/docs/config/index';

/** Bumped whenever the shape of the state changes: older heads are ignored. */
export const BUILD_STATE_FORMAT = 2;
/** Shards of the pages and their lint findings (by a hash of the page path). */
export const SHARDS = 64;

/** One page of a finished build, as the next build needs it when the page is not rendered again. */
export interface StatePage {
  /** page path (`guides/setup`) */
  path: string;
  /** docs-root file path; absent for generated OpenAPI pages */
  filePath?: string;
  operation?: OperationPage;
  title: string;
  description?: string;
  frontmatter: Record<string, unknown>;
  /** internal link targets and local asset sources as written (the link check) */
  links: string[];
  assets: string[];
  /** files read besides the page itself (snippets, specs) */
  dependencies: string[];
  /** the renderer's warnings for the page */
  warnings: BuildWarning[];
  /** the link check's warnings for the page */
  linkWarnings: BuildWarning[];
  /** size of the rendered body in UTF-16 units (the output limit counts it) */
  htmlLength: number;
  /** key of the page in the page cache (page-cache.ts `readStored`), when it was stored there */
  cacheKey?: string;
  /** key of the inputs of the page's HTML document besides the site shell (site-writer.ts) */
  inputKey: string;
  /** sha256 hex of the page's `.md` file */
  markdownHash: string;
}

/** The state of one finished build (see the module comment). */
export interface BuildState {
  format: typeof BUILD_STATE_FORMAT;
  buildId: string;
  commitSha: string;
  /** renderer version plus glossary: pages rendered under another are rendered again */
  renderKey: string;
  /** linter version plus the lint options without the inventory */
  lintKey: string;
  /** sha256 of the page inventory (pages, published files, redirects) */
  inventoryKey: string;
  /** the site shell's key (site-writer.ts `siteShellKey`) */
  shellKey: string;
  project: LoadedProject;
  /** checkout-relative real path of a symbolic link's target → the docs files reached through it */
  linkTargets: Record<string, string[]>;
  /** the review change set that was laid over the checkout: path → sha256 of its bytes (null: deleted) */
  overlay: Record<string, string | null>;
  pages: StatePage[];
  /** lint findings by page file */
  lint: PageLint[];
  /** static files of the docs root published at their own path */
  files: string[];
  /** the hashed theme assets written */
  assets: string[];
  /** the blobs this state is stored in (set once it is written) */
  blobs?: StateBlobs;
}

/** Where a state's parts are stored: blob hashes. */
interface StateBlobs {
  project: string;
  shards: string[];
}

/** A build's head on disk: the state without its project, pages and lint, which are in blobs. */
type StateHead = Omit<BuildState, 'project' | 'pages' | 'lint' | 'blobs'> & { blobs: StateBlobs };

/** One shard blob. */
interface Shard {
  pages: StatePage[];
  lint: PageLint[];
}

/**
 * The states of the builds a process ran last, handed to the build that replaces one of them without
 * reading the disk: at most `max` (production and previews of a project each count), the least
 * recently used forgotten first. The caller keeps it (the app context); it is never shared between
 * processes. A state of a 5,000-page site takes some tens of MB.
 */
export class BuildStateMemory {
  private readonly states = new Map<string, BuildState>();

  constructor(private readonly max = 4) {}

  /** The remembered state of a build of a project. */
  get(projectId: string, buildId: string): BuildState | undefined {
    const key = `${projectId}/${buildId}`;
    const s = this.states.get(key);
    if (s) {
      this.states.delete(key);
      this.states.set(key, s);
    }
    return s;
  }

  /** Remembers a build's state. */
  set(projectId: string, state: BuildState): void {
    const key = `${projectId}/${state.buildId}`;
    this.states.delete(key);
    this.states.set(key, state);
    while (this.states.size > this.max) this.states.delete(this.states.keys().next().value!);
  }
}

const stateDir = (dataDir: string, projectId: string) => path.join(dataPaths(dataDir).cache(projectId), 'state');
const blobPath = (dir: string, hash: string) => path.join(dir, 'blobs', `${hash}.json`);

/** The head file of a build. @throws Error for ids that are not plain ids (`DataPaths`). */
export function buildStatePath(dataDir: string, projectId: string, buildId: string): string {
  if (!PATH_ID_RE.test(buildId)) throw new Error(`Invalid build id for a data-directory path: ${JSON.stringify(buildId)}`);
  return path.join(stateDir(dataDir, projectId), 'builds', `${buildId}.json`);
}

/** The shard of a page path (FNV-1a of the path). */
function shardOf(pagePath: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < pagePath.length; i++) h = Math.imul(h ^ pagePath.charCodeAt(i), 0x01000193);
  return (h >>> 0) % SHARDS;
}

/** The page path a lint entry belongs to (its file's page path). */
const pageOfFile = (file: string) => pagePathOf(file) ?? file;

/**
 * The state of the build whose deployment is `localDir` (`<dataDir>/sites/<projectId>/<buildId>`),
 * when its deployment is finished, the state has this format and was built from `commitSha`: from
 * `memory` when it holds it, else from disk (read asynchronously, one blob at a time, so that a
 * build can read it while git fetches).
 * @returns undefined when there is none that fits (the next build is a full one); never rejects
 */
export async function readBuildState(
  dataDir: string,
  projectId: string,
  localDir: string,
  commitSha: string,
  memory?: BuildStateMemory,
): Promise<BuildState | undefined> {
  const buildId = path.basename(localDir);
  if (!PATH_ID_RE.test(buildId) || path.resolve(localDir) !== dataPaths(dataDir).site(projectId, buildId)) return undefined;
  if (!fs.existsSync(path.join(localDir, 'manifest.json'))) return undefined;
  const fits = (s: Pick<BuildState, 'format' | 'buildId' | 'commitSha'> | undefined) => s !== undefined && s.format === BUILD_STATE_FORMAT && s.buildId === buildId && s.commitSha === commitSha;
  const remembered = memory?.get(projectId, buildId);
  if (fits(remembered)) return remembered;
  try {
    const dir = stateDir(dataDir, projectId);
    const head = JSON.parse(await fs.promises.readFile(buildStatePath(dataDir, projectId, buildId), 'utf8')) as StateHead;
    if (!fits(head)) return undefined;
    const read = async <T>(hash: string) => JSON.parse(await fs.promises.readFile(blobPath(dir, hash), 'utf8')) as T;
    const texts = head.blobs.shards.map((hash) => read<Shard>(hash));
    for (const t of texts) t.catch(() => undefined); // each is awaited below; one failing early is no unhandled rejection
    const project = await read<LoadedProject>(head.blobs.project);
    const pages: StatePage[] = [];
    const lint: PageLint[] = [];
    for (const pending of texts) {
      const shard = await pending;
      for (const p of shard.pages) pages.push(p);
      for (const l of shard.lint) lint.push(l);
    }
    return { ...head, project, pages, lint };
  } catch {
    return undefined;
  }
}

/**
 * Writes a build's state and remembers it in `memory`: blobs first (only those not on disk yet;
 * shards of `previous` whose pages `unchanged` says are all as they were are reused without being
 * serialized), then the head, each by write-then-rename. Heads of builds without a deployment
 * directory, and blobs no head names, are removed. A failure to write is ignored: the next build
 * is then a full one (or uses `memory`).
 * `options.unchanged` says whether a page (by page path) is exactly as in `previous`,
 * `options.lintUnchanged` whether a page file's lint findings are, `options.sameProject` whether
 * `state.project` is `previous.project`.
 */
export function writeBuildState(
  dataDir: string,
  projectId: string,
  state: BuildState,
  options: {
    previous?: BuildState;
    unchanged?: (pagePath: string) => boolean;
    lintUnchanged?: (file: string) => boolean;
    sameProject?: boolean;
    memory?: BuildStateMemory;
  } = {},
): void {
  const { previous } = options;
  const dir = stateDir(dataDir, projectId);
  const byShard = (pages: readonly StatePage[], lint: readonly PageLint[]) => {
    const shards: Shard[] = Array.from({ length: SHARDS }, () => ({ pages: [], lint: [] }));
    for (const p of pages) shards[shardOf(p.path)]!.pages.push(p);
    for (const l of lint) shards[shardOf(pageOfFile(l.path))]!.lint.push(l);
    return shards;
  };
  const shards = byShard(state.pages, state.lint);
  const before = previous?.blobs ? byShard(previous.pages, previous.lint) : undefined;
  const unchanged = options.unchanged ?? (() => false);
  const lintUnchanged = options.lintUnchanged ?? (() => false);
  const sameSet = (a: Shard, b: Shard) =>
    a.pages.length === b.pages.length &&
    a.lint.length === b.lint.length &&
    a.pages.every((p, i) => p.path === b.pages[i]!.path) &&
    a.lint.every((l, i) => l.path === b.lint[i]!.path);
  try {
    fs.mkdirSync(path.join(dir, 'blobs'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'builds'), { recursive: true });
    const put = (text: string) => {
      const hash = createHash('sha256').update(text).digest('hex');
      const target = blobPath(dir, hash);
      if (!fs.existsSync(target)) writeAtomically(target, text);
      return hash;
    };
    const reusable = (hash: string | undefined) => hash !== undefined && fs.existsSync(blobPath(dir, hash));
    const blobs: StateBlobs = {
      project: options.sameProject && reusable(previous?.blobs?.project) ? previous!.blobs!.project : put(JSON.stringify(state.project)),
      shards: shards.map((shard, i) => {
        const old = previous?.blobs?.shards[i];
        const clean =
          before &&
          reusable(old) &&
          sameSet(shard, before[i]!) &&
          shard.pages.every((p) => unchanged(p.path)) &&
          shard.lint.every((l) => lintUnchanged(l.path));
        return clean ? old! : put(JSON.stringify(shard));
      }),
    };
    state.blobs = blobs;
    const { project: _project, pages: _pages, lint: _lint, ...rest } = state;
    writeAtomically(buildStatePath(dataDir, projectId, state.buildId), JSON.stringify({ ...rest, blobs } satisfies StateHead));
  } catch {
    return;
  } finally {
    options.memory?.set(projectId, state);
  }
  pruneBuildStates(dataDir, projectId, [state.buildId]);
}

function writeAtomically(target: string, text: string): void {
  fs.writeFileSync(`${target}.tmp`, text);
  fs.renameSync(`${target}.tmp`, target);
}

/**
 * Removes the heads of a project's builds whose deployment directory is gone (pruned, failed,
 * cancelled), except those of `keep`, then the blobs no remaining head names.
 */
export function pruneBuildStates(dataDir: string, projectId: string, keep: string[] = []): void {
  const dir = stateDir(dataDir, projectId);
  const kept = new Set(keep);
  let heads: string[];
  try {
    heads = fs.readdirSync(path.join(dir, 'builds'));
  } catch {
    return;
  }
  const named = new Set<string>();
  for (const name of heads) {
    const buildId = name.replace(/\.json(\.tmp)?$/, '');
    const file = path.join(dir, 'builds', name);
    if (!kept.has(buildId) && (!PATH_ID_RE.test(buildId) || !fs.existsSync(dataPaths(dataDir).site(projectId, buildId)))) {
      fs.rmSync(file, { force: true });
      continue;
    }
    try {
      const head = JSON.parse(fs.readFileSync(file, 'utf8')) as StateHead;
      named.add(`${head.blobs.project}.json`);
      for (const s of head.blobs.shards) named.add(`${s}.json`);
    } catch {
      /* unreadable: its blobs go; the build's successor is then a full one */
    }
  }
  let blobs: string[];
  try {
    blobs = fs.readdirSync(path.join(dir, 'blobs'));
  } catch {
    return;
  }
  for (const name of blobs) if (!named.has(name)) fs.rmSync(path.join(dir, 'blobs', name), { force: true });
}
