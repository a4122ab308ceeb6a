/**
 * `settings.sourceRepos`: the product's source repositories the docs agent watches (decisions.md
 * section 11, "Docs agent"). Each names its repository (`url`, checked by the server against the
 * one repository-URL rule, `@quire/shared/repo/repo-url`, with the server's address policy), the
 * branch whose pushes start a run, path globs mapped to the doc pages to check when code under them
 * changes (`globs: {glob: [pagePath]}`), and the OpenAPI files whose changes update the docs
 * (`openapi: [path]`; `{path, docsPath}` is our extension for a docs repository that keeps its copy
 * of the spec at another path).
 *
 * Globs are the collaboration rule of `../collab/path-glob` (validatePathGlob); branch names the rule
 * of `../repo/git-ref` (BranchSchema); repository paths the change-set path rule of `../collab/change-set`.
 */
import { z } from 'zod';
import { normaliseChangePath } from '../collab/change-set';
import { REPO_URL_MAX_LENGTH } from '../repo/repo-url';
import { validatePathGlob } from '../collab/path-glob';
import { BranchSchema } from './branch';

/** Most source repositories a project lists. */
export const MAX_SOURCE_REPOS = 10;
/** Most globs, most pages per glob, and most OpenAPI files, per source repository. */
export const MAX_SOURCE_MAPPINGS = 50;

/** A repository-relative file path (POSIX, no `..`, nothing under `.git`), written as the change-set rule normalises it. */
export const RepoPathSchema = z
  .string()
  .max(1000)
  .superRefine((raw, ctx) => {
    const checked = normaliseChangePath(raw);
    if (!checked.ok) ctx.addIssue({ code: 'custom', message: checked.issue });
    else if (checked.path !== raw) ctx.addIssue({ code: 'custom', message: `write it as "${checked.path}"` });
  })
  .describe('A path relative to the repository root, with "/" between folders (e.g. `api/openapi.yaml`)');

/** A doc page path as the navigation names it (`guides/quickstart`, no extension). */
const PagePathSchema = RepoPathSchema.describe('A page path as docs.json names it, without extension (e.g. `guides/quickstart`)');

/**
 * `globs`: a path glob of the source repository (the rule of `../collab/path-glob`) mapped to the doc
 * pages to check when code under it changes (decisions.md section 11: `globs: {glob: [pagePath]}`).
 * A bad glob is reported at its key (`settings.sourceRepos[0].globs["!src/**"]`), a bad page at its index.
 */
export const SourceGlobsSchema = z
  .record(z.string(), z.array(PagePathSchema).min(1, 'name at least one page').max(MAX_SOURCE_MAPPINGS))
  .superRefine((globs, ctx) => {
    const keys = Object.keys(globs);
    if (keys.length > MAX_SOURCE_MAPPINGS) ctx.addIssue({ code: 'custom', message: `at most ${MAX_SOURCE_MAPPINGS} globs` });
    for (const glob of keys) {
      const problem = validatePathGlob(glob);
      if (problem) ctx.addIssue({ code: 'custom', path: [glob], message: problem });
    }
  })
  .describe('Path globs of the source repository (`*` within a folder, `**` across folders) mapped to the doc pages to check when code under them changes, e.g. `{"src/auth/**": ["guides/auth"]}`');
export type SourceGlobs = z.infer<typeof SourceGlobsSchema>;

/**
 * An OpenAPI file of the source repository: its path there (decisions.md section 11: `openapi: [path]`,
 * the docs repository keeping its copy at the same path), or, as an extension, `{path, docsPath}` naming
 * the path of the copy the docs repository builds its API pages from ({@link openApiTarget}).
 */
export const SourceOpenApiSchema = z
  .union([RepoPathSchema, z.strictObject({ path: RepoPathSchema, docsPath: RepoPathSchema.optional() })])
  .describe('A path in the source repository, the docs repository keeping its copy at the same path; or (an extension) `{path, docsPath}` when the docs keep it at docsPath');
export type SourceOpenApi = z.infer<typeof SourceOpenApiSchema>;

/** Where an OpenAPI entry is read (`path`, in the source repository) and written (`docsPath`, in the docs repository). */
export function openApiTarget(entry: SourceOpenApi): { path: string; docsPath: string } {
  return typeof entry === 'string' ? { path: entry, docsPath: entry } : { path: entry.path, docsPath: entry.docsPath ?? entry.path };
}

/** One source repository of the product (see the module comment). */
export const SourceRepoSchema = z
  .strictObject({
    url: z.string().min(1).max(REPO_URL_MAX_LENGTH).describe('https://, ssh:// or git@host:path (the repoUrl rule)'),
    branch: BranchSchema.default('main').describe('Pushes to this branch (and pull requests) start a run'),
    globs: SourceGlobsSchema.default({}),
    openapi: z.array(SourceOpenApiSchema).max(MAX_SOURCE_MAPPINGS).default([]),
  })
  .describe('A source repository the docs agent watches');
export type SourceRepo = z.infer<typeof SourceRepoSchema>;

/** `settings.sourceRepos` (default none). */
export const SourceReposSchema = z.array(SourceRepoSchema).max(MAX_SOURCE_REPOS).describe('Source repositories of the product the docs agent watches (default none)');
