import type { RenderedPage } from '@quire/shared/docs/types';
import type { GlossaryEntry } from '@quire/shared/docs/markdown/index';
import type { LinterOptions } from '@quire/shared/lint/linter';
import type { CheckedTargets } from '@quire/shared/lint/navigation';
import type { LintFinding } from '@quire/shared/lint/types';
import type { LoadedProject } from './load-project';

/**
 * The messages between the builder and its render workers (structured-clone safe).
 * A worker keeps its file index and OpenAPI registry for one `buildKey` and rebuilds them when
 * a task of another build arrives; its code highlighter lives as long as the worker.
 */
export interface RenderTaskBase {
  /** unique per build: workers drop their per-build state when it changes */
  buildKey: string;
  /** absolute path of the checkout (symlinks may not leave it) */
  checkoutDir: string;
  /** absolute path of the docs root inside the checkout */
  docsRoot: string;
  /** `{{name}}` substitutions from the config */
  variables: Record<string, string>;
  /** the `user.<field>` names MDX pages may use (shared/src/site/personalisation.ts `userFieldsOf`) */
  userFields: string[];
  /** OpenAPI specs the config declares (for `openapi:` frontmatter) */
  openapi: string[];
  /** glossary terms with definitions: their first use in a page gets a tooltip */
  glossary: GlossaryEntry[];
}

/** Render one Markdown/MDX page file. */
export interface PageTask extends RenderTaskBase {
  kind: 'page';
  filePath: string;
}

/** Render the generated page of one OpenAPI operation (a navigation entry or an `openapi` group). */
export interface OperationTask extends RenderTaskBase {
  kind: 'operation';
  /** the reference as the registry resolves it (`/spec.json GET /users`) */
  ref: string;
  defaultSpec?: string;
  /** page path of the generated page */
  pagePath: string;
}

export type RenderTask = PageTask | OperationTask;

/** A worker's answer: the page, or the reason it cannot be rendered (becomes a BuildError). */
export type RenderResult =
  | { ok: true; page: RenderedPage }
  | { ok: false; message: string; file?: string; line?: number };

/** A worker's answer to loading a checkout's project (load-project.ts): the project, or why not. */
export type LoadResult =
  | { ok: true; project: LoadedProject }
  | { ok: false; message: string; file?: string; line?: number };

/**
 * Lint page files with the project's linter (lint-pages.ts); the worker compiles the linter once per
 * `buildKey`. Pages go in batches, so that the options (with the site's page inventory) cross the
 * thread boundary once per batch rather than once per page.
 */
export interface LintTask {
  buildKey: string;
  checkoutDir: string;
  docsRoot: string;
  /** page files relative to the docs root */
  filePaths: string[];
  /** the project's style rules, glossary and settings (plain JSON) */
  lint: LinterOptions;
}

/** One page of a {@link LintTask}: its findings and the targets the navigation rules judged (linter.ts `lintWithTargets`), or why not. */
export type LintPageResult =
  | { filePath: string; ok: true; findings: LintFinding[]; targets: CheckedTargets }
  | { filePath: string; ok: false; message: string };

/** A worker's answer to a {@link LintTask}: one result per file, in the task's order. */
export type LintTaskResult = LintPageResult[];

/**
 * Share files of a previous deployment with a new one (render-worker.ts `linkFilesTask`, off the
 * server's main thread): each of `files` (deployment-relative, already checked to stay inside both
 * directories) is hard-linked from `fromDir` into `toDir`, or copied when links cannot be made
 * (another filesystem).
 */
export interface LinkFilesTask {
  fromDir: string;
  toDir: string;
  files: string[];
}

/** A worker's answer to a {@link LinkFilesTask}: how many were linked and copied, or why it stopped. */
export type LinkFilesResult = { ok: true; linked: number; copied: number } | { ok: false; message: string };
