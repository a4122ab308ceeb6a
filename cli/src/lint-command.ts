/**
 * `quire-docs lint`: the project's lint rules (quire-lint.json) on every page file, against the
 * site's pages and files (links, images, components), as the desktop app lints; with `fix`, the
 * linter's quick fixes are applied to the files first (shared/src/lint/linter.ts `autoFix`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pagePathOf } from '@quire/shared/docs/nav/index';
import { pageInventory } from '@quire/shared/docs/page-inventory';
import { createLinter } from '@quire/shared/lint/linter';
import { lintFiles } from './check';
import { loadDiskProject } from './disk-project';
import type { Finding } from './findings';
import { readLintConfig } from './lint-config';

/** What `lint` found, and the files `fix` changed (relative to `cwd`). */
export interface LintResult {
  findings: Finding[];
  fixed: string[];
}

/** Lints (and with `fix` first fixes) a project's pages. @throws UsageError / DocsError when it cannot be loaded */
export async function runLint(options: { dir: string; fix?: boolean; cwd?: string }): Promise<LintResult> {
  const { project, files, docsRoot, dir } = loadDiskProject(options.dir, options.cwd);
  const cwd = options.cwd ?? process.cwd();
  const fileOf = (f: string) => path.relative(cwd, path.join(docsRoot, f)).split(path.sep).join('/');
  const pages = [...project.pageFiles.map((f) => pagePathOf(f)!), ...project.operations.map((o) => o.path)];
  const inventory = pageInventory({ pages, files, redirects: project.config.redirects });
  const lintOptions = { ...readLintConfig([docsRoot, dir]), inventory, variables: project.config.variables };
  const fixed: string[] = [];
  if (options.fix) {
    const linter = createLinter(lintOptions);
    for (const f of project.pageFiles) {
      const text = files.read(f);
      if (text === undefined) continue;
      const out = await linter.autoFix(text, f);
      if (out.edits.length === 0 || out.text === text) continue;
      fs.writeFileSync(path.join(docsRoot, f), out.text);
      fixed.push(fileOf(f));
    }
  }
  const read = (f: string) => (options.fix ? readFresh(docsRoot, f) : files.read(f));
  return { findings: await lintFiles(project.pageFiles, read, lintOptions, fileOf), fixed };
}

function readFresh(root: string, f: string): string | undefined {
  try {
    return fs.readFileSync(path.join(root, f), 'utf8');
  } catch {
    return undefined;
  }
}
