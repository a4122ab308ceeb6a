/**
 * A docs project read from a folder on disk, loaded with the shared project loader
 * (shared/src/docs/config/load-project.ts: docs root, docs.json/mint.json, `.mintignore`, pages,
 * OpenAPI pages), as the build loads a checkout. Node-only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createIgnoreMatcher, findDocsRoot, loadProject, type LoadedProject, type RepoFolders } from '@quire/shared/docs/config/index';
import { normalizeFilePath } from '@quire/shared/docs/files';
import type { DocsFiles } from '@quire/shared/docs/types';
import { UsageError } from './usage-error';

/** A loaded project with the docs root's files and where they are on disk. */
export interface DiskProject {
  project: LoadedProject;
  files: DocsFiles;
  /** absolute path of the folder the command was given */
  dir: string;
  /** absolute path of the docs root */
  docsRoot: string;
}

/**
 * The docs root's files on disk, as a build lists a checkout's (server/src/builder/checkout-files.ts):
 * text read as UTF-8; paths that leave the root (also through symbolic links) read as missing;
 * `list()` walks the tree but `.git` and `node_modules`, leaving out what `.mintignore` and the
 * default ignores leave out (shared `createIgnoreMatcher`).
 */
export function diskFiles(root: string): DocsFiles {
  const real = fs.realpathSync(root);
  const inside = (rel: string): string | undefined => {
    const n = normalizeFilePath(rel);
    if (n === undefined || n === '') return undefined;
    try {
      const abs = fs.realpathSync(path.join(real, n));
      return abs.startsWith(real + path.sep) && fs.statSync(abs).isFile() ? abs : undefined;
    } catch {
      return undefined;
    }
  };
  let listed: string[] | undefined;
  const self: DocsFiles = {
    read: (rel) => {
      const abs = inside(rel);
      return abs === undefined ? undefined : fs.readFileSync(abs, 'utf8');
    },
    exists: (rel) => inside(rel) !== undefined,
    list: () => {
      if (!listed) {
        const all = walk(real, '');
        const ignored = createIgnoreMatcher({ ...self, list: () => all });
        listed = all.filter((f) => !ignored(f));
      }
      return listed;
    },
  };
  return self;
}

/** Folders never walked: version control data and dependency trees (as the build). */
const WALK_SKIPPED = new Set(['.git', 'node_modules']);

function walk(root: string, rel: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (!WALK_SKIPPED.has(e.name)) out.push(...walk(root, p));
    } else if (e.isFile()) out.push(p);
  }
  return out.sort();
}

/**
 * Loads the project in `dir` (a repository or its docs folder).
 * @throws UsageError when `dir` is no folder, has no page, or its configuration cannot be used (the file relative to `cwd`, line, reason)
 */
export function loadDiskProject(dir: string, cwd = process.cwd()): DiskProject {
  const abs = path.resolve(dir);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory()) throw new UsageError(`${path.relative(cwd, abs) || '.'} is not a folder`);
  const folders: RepoFolders = {
    list: (rel) => {
      try {
        const entries = fs.readdirSync(path.join(abs, rel), { withFileTypes: true });
        return { files: entries.filter((e) => e.isFile()).map((e) => e.name), folders: entries.filter((e) => e.isDirectory()).map((e) => e.name) };
      } catch {
        return { files: [], folders: [] };
      }
    },
  };
  let loaded: ReturnType<typeof loadProject<DocsFiles>>;
  try {
    loaded = loadProject({ ...folders, open: (docsRootRel) => diskFiles(path.join(abs, docsRootRel)) }, { apiCoverage: false });
  } catch (err) {
    const e = err as { name?: string; message?: string; file?: string; line?: number };
    if (e.name !== 'DocsError') throw err;
    // the file as the user finds it (relative to the working folder), the message without the name repeated
    const file = e.file ? path.relative(cwd, path.join(abs, findDocsRoot(folders), e.file)).split(path.sep).join('/') : undefined;
    const message = e.file && e.message?.startsWith(`${e.file}: `) ? e.message.slice(e.file.length + 2) : e.message;
    throw new UsageError(`${file ? `${file}${e.line ? `:${e.line}` : ''}: ` : ''}${message}`);
  }
  const { project, files } = loaded;
  if (project.pageFiles.length === 0 && project.operations.length === 0) {
    throw new UsageError(`no pages found in ${path.relative(cwd, abs) || '.'}: add .md or .mdx files (and a docs.json)`);
  }
  return { project, files, dir: abs, docsRoot: path.join(abs, project.docsRootRel) };
}
