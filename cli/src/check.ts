/**
 * `quire-docs check`: the project as a build sees it. Loads it with the shared loader, renders every
 * page with the build's renderer (shared/src/docs/site-page.ts, OpenAPI pages included), runs the
 * project's lint rules, and checks internal links, images (link-check.ts), anchors (anchor-check.ts)
 * and redirects (redirect-check.ts); external links too when asked (external-links.ts). No server.
 */
import path from 'node:path';
import { checkAnchors } from '@quire/shared/docs/anchor-check';
import { checkLinks } from '@quire/shared/docs/link-check';
import { createCodeHighlighter } from '@quire/shared/docs/markdown/index';
import { loadOpenApiRegistry, type OpenApiRegistry } from '@quire/shared/docs/openapi/index';
import { pageInventory } from '@quire/shared/docs/page-inventory';
import { checkRedirects } from '@quire/shared/docs/redirect-check';
import { sitePages } from '@quire/shared/docs/site-page';
import { userFieldsOf } from '@quire/shared/site/personalisation';
import type { BuildWarning, RenderedPage } from '@quire/shared/docs/types';
import { createLinter, type LinterOptions } from '@quire/shared/lint/linter';
import { loadDiskProject } from './disk-project';
import { checkExternalLinks, externalLinksOf, type ExternalCheckOptions } from './external-links';
import { findingOfLint, findingOfWarning, RULES_CHECKED_BY_BUILD, sortFindings, type Finding } from './findings';
import { readLintConfig } from './lint-config';
import { renderEntry, type RenderContext } from './render-entry';

/** What {@link runCheck} takes. */
export interface CheckOptions {
  /** the folder to check (a repository or its docs folder) */
  dir: string;
  /** the folder file names are reported relative to (default: the process's working folder) */
  cwd?: string;
  /** also check external links (with these fetcher settings) */
  external?: ExternalCheckOptions | boolean;
}

/** What `check` found, and how many pages it rendered. */
export interface CheckResult {
  findings: Finding[];
  pages: number;
}

/**
 * Checks a project. @throws UsageError / DocsError when it cannot be loaded (exit 2)
 */
export async function runCheck(options: CheckOptions): Promise<CheckResult> {
  const { project, files, docsRoot, dir } = loadDiskProject(options.dir, options.cwd);
  const cwd = options.cwd ?? process.cwd();
  const fileOf = (f: string) => path.relative(cwd, path.join(docsRoot, f)).split(path.sep).join('/');
  const lintConfig = readLintConfig([docsRoot, dir]);
  const findings: Finding[] = [];
  const warn = (list: readonly BuildWarning[]) => {
    for (const w of list) {
      const f = findingOfWarning(w, fileOf, lintConfig.settings);
      if (f) findings.push(f);
    }
  };
  warn(project.warnings);

  let registry: OpenApiRegistry | undefined;
  const ctx: RenderContext = {
    files,
    highlighter: await createCodeHighlighter(),
    variables: project.config.variables,
    userFields: userFieldsOf(project.config.raw),
    glossary: (lintConfig.glossary ?? []).filter((g) => g.definition.trim()),
    registry: () => (registry ??= loadOpenApiRegistry(files, project.config.openapi).registry),
  };
  const rendered: Array<{ path: string; filePath?: string; page: RenderedPage }> = [];
  for (const entry of sitePages(project.pageFiles, project.operations)) {
    try {
      const page = await renderEntry(entry, ctx);
      if (!page) {
        warn([{ kind: 'render-failed', file: entry.operation!.specFile, message: `OpenAPI operation "${entry.operation!.ref}" was not found` }]);
        continue;
      }
      warn(page.warnings);
      rendered.push({ path: entry.path, ...(entry.filePath ? { filePath: entry.filePath } : {}), page });
    } catch (err) {
      const e = err as { message?: string; file?: string; line?: number };
      warn([{ kind: 'render-failed', file: e.file ?? entry.filePath ?? entry.path, ...(e.line ? { line: e.line } : {}), message: `cannot be rendered: ${e.message ?? String(err)}` }]);
    }
  }

  // One inventory for the link, anchor and redirect checks and the linter, as the build makes it.
  const inventory = pageInventory({ pages: rendered.map((p) => p.path), files, redirects: project.config.redirects });
  const read = (f: string) => files.read(f);
  warn(checkLinks(rendered, inventory, read));
  warn(checkAnchors(rendered, read));
  const configFile = project.config.source ?? undefined;
  warn(checkRedirects(inventory, configFile, configFile ? read(configFile) : undefined));

  // The linter reports what the checks above do not (the same link verdicts are reported once, by the checks).
  const settings = { rules: { ...lintConfig.settings?.rules } };
  for (const ruleId of RULES_CHECKED_BY_BUILD) settings.rules[ruleId] = { enabled: false };
  findings.push(...(await lintFiles(project.pageFiles, read, { ...lintConfig, settings, inventory, variables: project.config.variables }, fileOf)));

  if (options.external) {
    const fetchOptions = options.external === true ? {} : options.external;
    const links = externalLinksOf(rendered.map((p) => ({ file: p.filePath ?? p.path, html: p.page.html, source: p.filePath ? read(p.filePath) : undefined })));
    warn(await checkExternalLinks(links, fetchOptions));
  }
  return { findings: sortFindings(findings), pages: rendered.length };
}

/** Lints page files with one linter; a page the linter fails on is an error finding. */
export async function lintFiles(
  pageFiles: readonly string[],
  read: (f: string) => string | undefined,
  options: LinterOptions,
  fileOf: (f: string) => string,
): Promise<Finding[]> {
  const linter = createLinter(options);
  const out: Finding[] = [];
  for (const f of pageFiles) {
    try {
      for (const finding of await linter.lint(read(f) ?? '', f)) out.push(findingOfLint(finding, fileOf(f)));
    } catch (err) {
      out.push({ file: fileOf(f), severity: 'error', rule: 'lint-failed', message: `the linter failed: ${(err as Error).message}` });
    }
  }
  return out;
}
