/**
 * Putting files into a new deployment directory: new content, hard links to unchanged files of the
 * previous deployment, copies of repository files. The previous deployment keeps serving while a
 * build writes, and shares inodes with the new one, so no file is ever changed in place: new content
 * goes to a temporary name that is then renamed over the path (a rename replaces the directory
 * entry, never the linked file), and links are made only to paths not yet written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/** One file of a deployment, as site-writer.ts plans it. */
export type OutputFile =
  /** new content; `final`: written only once every other file is in place (manifest.json) */
  | { rel: string; content: string | Buffer; final?: true }
  /** the same file of the previous deployment, unchanged: hard-linked (copied across filesystems) */
  | { rel: string; reuse: true }
  /** a repository file published as it is */
  | { rel: string; copyFrom: string };

/** How many files of each kind went into a deployment. */
export interface OutputCounts {
  written: number;
  /** files shared with the previous deployment (hard links, or copies when it is on another filesystem) */
  linked: number;
  copied: number;
}

/** Link and copy operations in flight at once (async writer). */
const CONCURRENCY = 16;
/** Files written between two yields to the event loop (async writer), so the server keeps answering. */
const WRITES_PER_YIELD = 8;

/**
 * `root/rel`, refusing anything that would land outside `root`.
 * @throws Error for a path that leaves the deployment
 */
export function safeJoin(root: string, rel: string): string {
  // The common case, a plain relative path, needs no resolving (this runs for every file of a site).
  if (rel !== '' && !PLAIN_UNSAFE.test(rel)) return root.endsWith(path.sep) ? root + rel : root + path.sep + rel;
  const abs = path.resolve(root, rel);
  if (!abs.startsWith(path.resolve(root) + path.sep)) throw new Error(`refusing to write outside the deployment: ${rel}`);
  return abs;
}

/** What makes a relative path need resolving: a leading `/`, a `.` or `..` segment, a backslash, NUL. */
const PLAIN_UNSAFE = /^\/|(?:^|\/)\.{1,2}(?:\/|$)|\\|\0/;

/** Errors after which a hard link will not work for any file: another filesystem, or none allowed. */
const NO_LINKS = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP']);

/** The state both writers share: folders made, counts, whether links still work. */
class Output {
  readonly counts: OutputCounts = { written: 0, linked: 0, copied: 0 };
  private readonly dirs = new Set<string>();
  linksWork = true;

  constructor(
    readonly outDir: string,
    readonly previousDir: string | undefined,
  ) {}

  /** The absolute target of `rel`, its folder created. */
  target(rel: string): string {
    const abs = safeJoin(this.outDir, rel);
    const dir = path.dirname(abs);
    if (!this.dirs.has(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      this.dirs.add(dir);
    }
    return abs;
  }

  /** Writes new content: straight into a fresh directory, through a temporary name once anything may be linked. */
  write(rel: string, content: string | Buffer): void {
    const abs = this.target(rel);
    if (this.previousDir === undefined) fs.writeFileSync(abs, content);
    else {
      fs.writeFileSync(`${abs}.quire-tmp`, content);
      fs.renameSync(`${abs}.quire-tmp`, abs);
    }
    this.counts.written++;
  }

  source(rel: string): string {
    if (this.previousDir === undefined) throw new Error(`${rel}: no previous deployment to reuse it from`);
    return safeJoin(this.previousDir, rel);
  }
}

/** Synchronous writer (site-writer.ts `writeSite`). */
export function writeOutputsSync(outDir: string, previousDir: string | undefined, files: Iterable<OutputFile>): OutputCounts {
  const out = new Output(outDir, previousDir);
  for (const f of files) {
    if ('content' in f) out.write(f.rel, f.content);
    else if ('copyFrom' in f) {
      fs.copyFileSync(f.copyFrom, out.target(f.rel));
      out.counts.copied++;
    } else {
      const abs = out.target(f.rel);
      const from = out.source(f.rel);
      if (out.linksWork) {
        try {
          fs.linkSync(from, abs);
          out.counts.linked++;
          continue;
        } catch (err) {
          if (!NO_LINKS.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
          out.linksWork = false;
        }
      }
      fs.copyFileSync(from, abs);
      out.counts.linked++;
    }
  }
  return out.counts;
}

/**
 * Shares a batch of files (deployment-relative paths) of the previous deployment with the new one:
 * hard links, or copies across filesystems. @returns how many were linked and copied
 */
export type FileLinker = (files: string[]) => Promise<{ linked: number; copied: number }>;

/** Files per batch handed to a {@link FileLinker}. */
const LINK_BATCH = 2500;

/**
 * Asynchronous writer (site-writer.ts `writeSiteFiles`): content is written as it is produced
 * (yielding to the event loop every few files, since producing a page document is CPU work). Files
 * reused from the previous deployment go to `linker` in batches (render-pool.ts `linkInPool`: a
 * worker thread makes the links) while writing goes on; without one they are linked here through
 * libuv, {@link CONCURRENCY} at a time. A `final` file waits for everything else.
 * @throws the first error of any file, once every operation started has settled
 */
export async function writeOutputs(outDir: string, previousDir: string | undefined, files: Iterable<OutputFile>, linker?: FileLinker): Promise<OutputCounts> {
  const out = new Output(outDir, previousDir);
  const running = new Set<Promise<void>>();
  let failure: unknown;
  const start = (op: () => Promise<void>) => {
    const p = op().catch((err: unknown) => {
      failure ??= err;
    });
    const tracked = p.finally(() => running.delete(tracked));
    running.add(tracked);
  };
  const link = async (from: string, abs: string) => {
    if (out.linksWork) {
      try {
        await fs.promises.link(from, abs);
        out.counts.linked++;
        return;
      } catch (err) {
        if (!NO_LINKS.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
        out.linksWork = false;
      }
    }
    await fs.promises.copyFile(from, abs);
    out.counts.linked++;
  };
  let batch: string[] = [];
  const flush = () => {
    if (batch.length === 0 || !linker) return;
    const files = batch;
    batch = [];
    start(async () => {
      const done = await linker(files);
      out.counts.linked += done.linked + done.copied;
    });
  };
  let sinceYield = 0;
  for (const f of files) {
    if (failure) break;
    if ('content' in f) {
      if (f.final) {
        flush();
        await Promise.all(running);
        if (failure) break;
      }
      out.write(f.rel, f.content);
      if (++sinceYield >= WRITES_PER_YIELD) {
        sinceYield = 0;
        await yieldToEventLoop();
      }
      continue;
    }
    if ('reuse' in f && linker) {
      out.source(f.rel); // checks the path stays inside both deployments
      safeJoin(outDir, f.rel);
      batch.push(f.rel);
      if (batch.length >= LINK_BATCH) flush();
      continue;
    }
    while (running.size >= CONCURRENCY) await Promise.race(running);
    const abs = out.target(f.rel);
    if ('copyFrom' in f) {
      const from = f.copyFrom;
      start(async () => {
        await fs.promises.copyFile(from, abs);
        out.counts.copied++;
      });
    } else {
      const from = out.source(f.rel);
      start(() => link(from, abs));
    }
  }
  flush();
  await Promise.all(running);
  if (failure) throw failure;
  return out.counts;
}
