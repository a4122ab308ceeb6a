/**
 * `settings.sourceRepos`: the product's source repositories the docs agent watches (decisions.md
 * section 11, "Docs agent"). Each names its repository (`url`, checked by the server against the
 * one repository-URL rule, `@quire/shared/repo/repo-url`, with the server's address policy), the
 * branch whose pushes start a run, path globs mapped to the doc pages (or a navigation group) to
 * check when code under them changes, and the OpenAPI files whose changes update the docs.
 *
 * Globs are the collaboration rule of `../collab/path-glob` (PathGlobSchema); branch names the rule
 * of `../repo/git-ref` (BranchSchema); repository paths the change-set path rule of `../collab/change-set`.
 */
import { z } from 'zod';
import { normaliseChangePath } from '../collab/change-set';
import { REPO_URL_MAX_LENGTH } from '../repo/repo-url';
import { PathGlobSchema } from './approvals';
import { BranchSchema } from './branch';

/** Most source repositories a project lists. */
export const MAX_SOURCE_REPOS = 10;
/** Most glob mappings, and most OpenAPI files, per source repository. */
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

/** One mapping: code under `glob` is documented by `pages`, or by every page of the navigation group `group`. */
export const SourcePathMappingSchema = z
  .strictObject({
    glob: PathGlobSchema,
    pages: z.array(PagePathSchema).min(1).max(MAX_SOURCE_MAPPINGS).optional(),
    group: z.string().trim().min(1).max(200).optional().describe('The title of a navigation group of docs.json'),
  })
  .refine((m) => (m.pages === undefined) !== (m.group === undefined), { message: 'give either pages or group', path: ['pages'] })
  .describe('Code under glob is documented by pages (page paths) or by the pages of the navigation group group');
export type SourcePathMapping = z.infer<typeof SourcePathMappingSchema>;

/**
 * An OpenAPI file of the source repository: its path there, and the path of the copy the docs
 * repository builds its API pages from (`docsPath`, default the same path; {@link openApiTarget}).
 */
export const SourceOpenApiSchema = z
  .union([RepoPathSchema, z.strictObject({ path: RepoPathSchema, docsPath: RepoPathSchema.optional() })])
  .describe('`path`, or `{path, docsPath}` when the docs repository keeps the spec at another path');
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
    paths: z.array(SourcePathMappingSchema).max(MAX_SOURCE_MAPPINGS).default([]),
    openapi: z.array(SourceOpenApiSchema).max(MAX_SOURCE_MAPPINGS).default([]),
  })
  .describe('A source repository the docs agent watches');
export type SourceRepo = z.infer<typeof SourceRepoSchema>;

/** `settings.sourceRepos` (default none). */
export const SourceReposSchema = z.array(SourceRepoSchema).max(MAX_SOURCE_REPOS).describe('Source repositories of the product the docs agent watches (default none)');
