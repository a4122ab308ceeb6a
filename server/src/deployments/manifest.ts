import { z } from 'zod';
import type { Redirect } from '@quire/shared/docs/types';
import type { DocVersion } from '@quire/shared/docs/versions';

/** One entry of the manifest's `pages`. */
export const ManifestPageSchema = z.object({
  path: z.string(),
  title: z.string().optional(),
  /** file of the rendered page, relative to the deployment root (`guides/setup.html`) */
  file: z.string(),
  hidden: z.boolean().optional(),
  /** gated page (frontmatter `audience`): readable only with an audience token */
  audience: z.array(z.string()).optional(),
  /**
   * SHA-256 of the page's `.md` file (written by newer builders); what a preview compares with
   * production to list changed pages (deployments/preview-changes.ts). Absent in older manifests.
   */
  hash: z.string().optional(),
  /** the page's description (frontmatter, or derived for generated API pages) */
  description: z.string().optional(),
  /**
   * ISO date (or date-time) the page was last updated: frontmatter `lastUpdated`, else the last
   * commit changing its file (builder/page-dates.ts). Absent when unknown (generated API pages, older builders).
   */
  lastUpdated: z.string().optional(),
  /** words of the page's Markdown (content health's completeness; absent in older manifests) */
  words: z.number().int().optional(),
  /** headings (levels 2-6) of the page's Markdown (content health's completeness; absent in older manifests) */
  headings: z.number().int().optional(),
});

/**
 * The `manifest.json` the builder writes at the root of every deployment directory
 * (builder/site-writer.ts, typed {@link WrittenManifest}), as every reader parses it
 * ({@link parseManifest}): site hosting, search, MCP, versions and previews. Site hosting reads
 * nothing else to know the pages. Fields added over time are optional, so older deployments still parse.
 */
export const DeploymentManifestSchema = z.object({
  version: z.literal(1),
  buildId: z.string(),
  projectId: z.string(),
  createdAt: z.string(),
  /** page path served at `/` (e.g. `index` or `introduction`) */
  home: z.string().nullish(),
  pages: z.array(ManifestPageSchema),
  redirects: z.array(z.object({ source: z.string(), destination: z.string(), permanent: z.boolean().default(true) })).default([]),
  /**
   * the site's documentation versions as built (`versioning.versions`, shared/src/docs/versions.ts):
   * on a production deployment, which `/<label>/` prefixes are served from version deployments.
   */
  versions: z
    .array(
      z.object({
        label: z.string(),
        branch: z.string().optional(),
        tag: z.string().optional(),
        default: z.boolean().optional(),
        deprecated: z.boolean().optional(),
        deprecationMessage: z.string().optional(),
        autoRedirectToLatest: z.boolean().optional(),
      }),
    )
    .optional(),
  /** the site's not-found page, relative to the root (`404.html`) */
  notFound: z.string().nullish(),
  /** the site's hashed theme assets (`_quire/assets/site.<hash>.css`, ...) */
  assets: z.array(z.string()).default([]),
  /**
   * origins the site's pages may send requests to (`https://api.example.com`: the API playground's
   * OpenAPI servers); added to the pages' CSP `connect-src` (sites/security-headers.ts `siteCsp`)
   */
  connectSrc: z.array(z.string()).optional(),
  /**
   * Every other file the builder generated itself (pages' `.html` and `.md`, `404.html`,
   * `llms.txt`, `sitemap.xml`). Absent in manifests written before it existed; see
   * {@link siteOwnedFiles} for what is trusted then.
   */
  generated: z.array(z.string()).optional(),
  /**
   * API documentation coverage (content health's `coveragePercent`): public operations of the
   * repository's OpenAPI files (not `x-hidden`, `x-excluded` or `x-internal`) and how many of them
   * have a page (generated, or an MDX page whose frontmatter `openapi:` names it). Absent in older manifests.
   */
  apiCoverage: z.object({ operations: z.number().int(), documented: z.number().int() }).optional(),
  /**
   * The site's docs.json `variables` as built (`{{name}}` in pages is replaced by them): `POST /lint`
   * parses pages as this site's build did. Absent in older manifests and when the site has none.
   */
  variables: z.record(z.string(), z.string()).optional(),
});

/** Parsed `manifest.json`; see {@link DeploymentManifestSchema}. */
export type DeploymentManifest = z.infer<typeof DeploymentManifestSchema>;

/**
 * One page as the builder writes it: an input of {@link ManifestPageSchema} with the fields every
 * current build writes required.
 */
export type WrittenManifestPage = z.input<typeof ManifestPageSchema> & {
  title: string;
  /** sha256 hex of the page's `.md` text (the preview banner compares a preview's pages with production's) */
  hash: string;
  hidden?: true;
};

/**
 * `manifest.json` as the builder writes it (builder/site-writer.ts): an input of
 * {@link DeploymentManifestSchema} with the fields every current build writes required, plus
 * `files`, which no reader parses (site hosting lists the deployment's files itself).
 */
export type WrittenManifest = z.input<typeof DeploymentManifestSchema> & {
  /** page path served at `/` */
  home: string;
  pages: WrittenManifestPage[];
  redirects: Redirect[];
  notFound: '404.html';
  assets: string[];
  /** the site's documentation versions as rendered (`versioning.versions`); absent without versioning */
  versions?: DocVersion[];
  generated: string[];
  /** static files copied from the docs root, by path */
  files: string[];
};

/**
 * Parses and validates the text of a `manifest.json` (from disk or a deployment store).
 * @param source where it came from, for the error message
 * @throws Error naming `source` and the invalid fields, or a SyntaxError for invalid JSON.
 */
export function parseManifest(text: string, source: string): DeploymentManifest {
  const parsed = DeploymentManifestSchema.safeParse(JSON.parse(text) as unknown);
  if (!parsed.success) throw new Error(`${source}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/**
 * The deployment files the builder generated itself (served with their own type: pages as HTML,
 * theme scripts as JavaScript); every other file was copied from the repository and is served by
 * the repository-file rules (`shared/src/site/repository-files.ts`). A manifest with `generated` is taken at its
 * word (`generated` plus `assets`). An older manifest without it gets a safe default: only what it
 * names as the site's own (its pages' HTML files, the not-found page, the theme assets) counts as
 * generated; anything else it does not name is treated as a repository file.
 * @returns deployment-relative paths (`guides/setup.html`, `_quire/assets/site.<hash>.js`)
 */
export function siteOwnedFiles(manifest: DeploymentManifest): Set<string> {
  if (manifest.generated) return new Set([...manifest.generated, ...manifest.assets]);
  return new Set([...manifest.pages.map((p) => p.file), manifest.notFound ?? '404.html', ...manifest.assets]);
}
