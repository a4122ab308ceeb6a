import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

/**
 * The `manifest.json` the builder writes at the root of every deployment directory
 * (brief H7a, "Deployment directory layout"). Site hosting reads nothing else to know the pages.
 */
export const DeploymentManifestSchema = z.object({
  version: z.literal(1),
  buildId: z.string(),
  projectId: z.string(),
  createdAt: z.string(),
  /** page path served at `/` (e.g. `index` or `introduction`) */
  home: z.string().nullish(),
  pages: z.array(
    z.object({
      path: z.string(),
      title: z.string().optional(),
      /** file of the rendered page, relative to the deployment root (`guides/setup.html`) */
      file: z.string(),
      hidden: z.boolean().optional(),
      /** gated page (frontmatter `audience`): readable only with an audience token */
      audience: z.array(z.string()).optional(),
    }),
  ),
  redirects: z.array(z.object({ source: z.string(), destination: z.string(), permanent: z.boolean().default(true) })).default([]),
  /** the site's not-found page, relative to the root (`404.html`) */
  notFound: z.string().nullish(),
  assets: z.array(z.string()).default([]),
});

/** Parsed `manifest.json`; see {@link DeploymentManifestSchema}. */
export type DeploymentManifest = z.infer<typeof DeploymentManifestSchema>;

/**
 * Reads and validates `<dir>/manifest.json`.
 * @throws Error naming the directory when the file is missing or does not match the schema.
 */
export async function readManifest(dir: string): Promise<DeploymentManifest> {
  const file = path.join(dir, 'manifest.json');
  const raw = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
  const parsed = DeploymentManifestSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}
