/**
 * Projects (interface-spec.md "Project", "Projects"; decisions.md sections 4, 6 and 10):
 * slug rules, settings, the create and update bodies, and the project as returned.
 */
import { z } from 'zod';
import { BranchSchema } from './branch';
import { SourceReposSchema } from './source-repos';
import { TimestampSchema } from './common';

export { BranchSchema } from './branch';

/** Longest slug: `<slug>-docs` and preview names `<branch>--<slug>-docs` must fit a 63-char DNS label. */
export const SLUG_MAX_LENGTH = 40;

/** Lowercase letters, digits and single hyphens, no leading/trailing hyphen (so never `--`). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A project slug (decisions.md section 10: no `--`, unique across the service). */
export const SlugSchema = z
  .string()
  .min(1)
  .max(SLUG_MAX_LENGTH)
  .regex(SLUG_PATTERN, 'must be lowercase letters, digits and single hyphens (no leading, trailing or double hyphen)');

/**
 * Derives a slug from a display name: accents dropped, lowercased, other characters become
 * single hyphens, cut to {@link SLUG_MAX_LENGTH}; `project` when nothing is left.
 * @example slugify('Ünïcode Docs!') === 'unicode-docs'
 */
export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/g, '');
  return base || 'project';
}

/**
 * Project settings: switches (all default true but `requireResolvedThreads`, on create and for projects stored before a switch existed)
 * and the docs agent's `sourceRepos` (default none; source-repos.ts).
 * `protectPreviews`: decisions.md section 11, "Previews that have a preview link open only through
 * a link (`settings.protectPreviews`, default true)".
 */
export const ProjectSettingsSchema = z
  .object({
    aiEnabled: z.boolean().describe("The assistant: the site's Ask AI and `POST .../chat`; false answers 404 and hides the button"),
    searchEnabled: z.boolean().describe("The site's reader-facing search (`/_quire/search`, the MCP `search` tool); false answers 404 `search_disabled` there. The API's `GET .../search` keeps answering"),
    analyticsEnabled: z.boolean().describe('Page views and searches are counted for `.../analytics/*`; false records nothing'),
    protectPreviews: z
      .boolean()
      .describe(
        'Default true: preview sites open only through a preview link (`POST .../previews`) or a member pass (`POST .../preview-passes`); anyone else gets a 401 "This preview is private" page. ' +
          'false: previews open to anyone who knows their address, except a preview that has a preview link (in any state), which opens only through a link or a member pass',
      ),
    requireResolvedThreads: z
      .boolean()
      .describe('Default false: true makes a merge of a review wait until every comment thread of it is resolved (409 conflict naming the unresolved count)'),
    sourceRepos: SourceReposSchema.describe(
      'Default []: source repositories of the product the docs agent watches (decisions.md section 11): `[{url, branch, globs: {glob: [pagePath]}, openapi: [path]}]` ' +
        '(an openapi entry may also be `{path, docsPath}` when the docs repository keeps its copy of the spec at another path); ' +
        'a PATCH replaces the whole list',
    ),
  })
  .describe('Project switches; each defaults to true except requireResolvedThreads (false)');
export type ProjectSettings = z.infer<typeof ProjectSettingsSchema>;

/** Default settings of a new project (and of switches a stored project lacks). */
export const DEFAULT_PROJECT_SETTINGS: ProjectSettings = {
  aiEnabled: true,
  searchEnabled: true,
  analyticsEnabled: true,
  protectPreviews: true,
  requireResolvedThreads: false,
  sourceRepos: [],
};

const nameField = z.string().trim().min(1).max(200);
const descriptionField = z.string().max(2000);
const repoUrlField = z
  .string()
  .min(1)
  .max(2048)
  .describe('https://, ssh:// or git@host:path; file:// and local paths only with QUIRE_ALLOW_FILE_REPOS=1; private, loopback and link-local hosts are refused');
const webhookSecretField = z.string().min(8).max(256);

/** Body of `POST /v1/projects`. */
export const CreateProjectBodySchema = z.strictObject({
  name: nameField.describe('Display name; default site title'),
  slug: SlugSchema.optional().describe('Default: derived from name, deduplicated with -2, -3, ...'),
  description: descriptionField.optional(),
  repoUrl: repoUrlField.optional(),
  repoBranch: BranchSchema.default('main'),
  settings: ProjectSettingsSchema.partial().strict().optional().describe('Missing switches take their defaults (true; requireResolvedThreads false)'),
  webhookSecret: webhookSecretField.optional().describe('GitHub webhook shared secret; write-only'),
});
export type CreateProjectBody = z.infer<typeof CreateProjectBodySchema>;

/** Body of `PATCH /v1/projects/{projectId}`: only given fields change; `settings` is merged; null clears. */
export const UpdateProjectBodySchema = z.strictObject({
  name: nameField.optional(),
  slug: SlugSchema.optional(),
  description: descriptionField.nullable().optional(),
  repoUrl: repoUrlField.nullable().optional(),
  repoBranch: BranchSchema.optional().describe('The branch to build from'),
  settings: ProjectSettingsSchema.partial().strict().optional().describe('Partial: only given switches change'),
  webhookSecret: webhookSecretField.nullable().optional().describe('Write-only; null removes it'),
});
export type UpdateProjectBody = z.infer<typeof UpdateProjectBodySchema>;

/** A project as returned. */
export const ProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  url: z.string().describe('Live documentation URL: http://<slug>-docs.<sites domain>[:<port>]/'),
  customDomain: z.string().optional().describe('Present when a custom domain is configured'),
  repoUrl: z.string().nullable(),
  repoBranch: z.string(),
  settings: ProjectSettingsSchema,
  webhookSecretSet: z.boolean().describe('Whether a webhook secret is configured (the secret is never returned)'),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type Project = z.infer<typeof ProjectSchema>;

/** Path parameters of routes under `/v1/projects/{projectId}`. */
export const ProjectParamsSchema = z.object({ projectId: z.string().min(1).max(64) });
