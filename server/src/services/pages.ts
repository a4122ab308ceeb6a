/**
 * Pages and Content (interface-spec.md lists the section and leaves its endpoints open; shapes in
 * shared/src/api/pages.ts): the deployed inventory of one documentation version and one page's
 * content, read from the version's deployment (which deployment: search/search-target.ts) and the
 * repository at its commit.
 *
 * - Pages are the deployment manifest's pages (`manifest.json`), by path; `contentHash` is the
 *   manifest's SHA-256 of the page's deployed Markdown.
 * - The caller reads as search/api-reader.ts says: an API key sees every page; with
 *   `x-audience-token` only public pages and gated pages the token opens (others are absent: 404
 *   for one page).
 * - Frontmatter and `lastUpdated` (frontmatter `lastUpdated`, else null) come from the page's source
 *   file at the deployment's commit (services/ownership.ts finds it); the owner from the ownership
 *   rules (services/ownership.ts). When the repository cannot be read these fall back to `{}`/null
 *   (logged), so the inventory stays available.
 * - Headings are those of the rendered page (`<h2 id>`..`<h6 id>` of its HTML file, in order).
 */
import { ApiError } from '@quire/shared/errors';
import type { Owner } from '@quire/shared/api/ownership';
import type { PageDetail, PageHeading, PageSummary } from '@quire/shared/api/pages';
import { splitFrontmatter } from '@quire/shared/docs/markdown/frontmatter';
import type { AppContext } from '../context';
import { readFileAt, type ProjectRepo } from '../git/repo-reader';
import type { PageRequest } from '@quire/shared/api/common';
import type { RequestAuth } from '../access/request-auth';
import { apiReader } from '../search/api-reader';
import { searchTarget, type SearchTarget } from '../search/search-target';
import { parseManifest, type DeploymentManifest } from '../deployments/manifest';
import { frontmatterDate, pageOwners, pageSourceFiles } from './ownership';
import { getProjectForCaller } from './projects';

type ManifestPage = DeploymentManifest['pages'][number];

/** What a pages request reads: the target deployment, its manifest and the pages the caller may read, by path. */
interface Inventory {
  projectId: string;
  target: SearchTarget;
  repo: ProjectRepo | null;
  pages: ManifestPage[];
}

async function inventory(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  version: string | undefined,
  token: string | string[] | undefined,
): Promise<Inventory | null> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const target = await searchTarget(ctx, projectId, version);
  if (!target) return null;
  const manifest = parseManifest((await target.files.read('manifest.json')).body.toString('utf8'), `${target.dir}/manifest.json`);
  const canRead = await apiReader(ctx, projectId, token);
  const pages = manifest.pages.filter((p) => canRead(p.audience ?? [])).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { projectId, target, repo: project.repoUrl ? { projectId, repoUrl: project.repoUrl } : null, pages };
}

/** What the repository says of some pages: their files, frontmatter and owners (empty when it cannot be read). */
async function sourcesOf(
  ctx: AppContext,
  inv: Inventory,
  pages: ManifestPage[],
): Promise<{ frontmatter: Map<string, Record<string, unknown>>; owners: Map<string, Owner | null> }> {
  const frontmatter = new Map<string, Record<string, unknown>>();
  let files = new Map<string, string>();
  const { repo } = inv;
  const sha = inv.target.commitSha;
  if (repo && sha) {
    try {
      files = await pageSourceFiles(ctx, repo, sha, inv.pages.map((p) => p.path));
      for (const p of pages) {
        const file = files.get(p.path);
        const text = file ? await readFileAt(ctx, repo, sha, file) : null;
        if (text === null || !file) continue;
        try {
          frontmatter.set(p.path, splitFrontmatter(text, file).data as Record<string, unknown>);
        } catch {
          // frontmatter that does not parse: none
        }
      }
    } catch (err) {
      ctx.log.warn({ err, projectId: repo.projectId }, 'pages: the repository could not be read; frontmatter and file-based owners are left out');
    }
  }
  const owners = await pageOwners(ctx, inv.projectId, pages.map((p) => ({ path: p.path, ...(files.has(p.path) ? { file: files.get(p.path)! } : {}) })));
  return { frontmatter, owners };
}

function summaryOf(page: ManifestPage, version: string | null, frontmatter: Record<string, unknown> | undefined, owner: Owner | null): PageSummary {
  const updated = frontmatterDate(frontmatter?.lastUpdated);
  return {
    path: page.path,
    title: page.title ?? page.path,
    version,
    audience: page.audience ?? [],
    hidden: page.hidden === true,
    owner,
    lastUpdated: updated ? updated.toISOString() : null,
    contentHash: page.hash ?? null,
  };
}

/**
 * `GET /pages`: one page of the deployed inventory of `version` (default: the default version), by path.
 * @throws ApiError not_found (project, or a label that is not a version).
 */
export async function listPages(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  version: string | undefined,
  token: string | string[] | undefined,
  page: PageRequest,
): Promise<{ items: PageSummary[]; total: number }> {
  const inv = await inventory(ctx, auth, projectId, version, token);
  if (!inv) return { items: [], total: 0 };
  const slice = inv.pages.slice(page.skip, page.skip + page.take);
  const { frontmatter, owners } = await sourcesOf(ctx, inv, slice);
  return { items: slice.map((p) => summaryOf(p, inv.target.version, frontmatter.get(p.path), owners.get(p.path) ?? null)), total: inv.pages.length };
}

/** Text of an HTML fragment: tags removed, the common entities decoded, whitespace collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(lt|gt|quot|#39|#x27|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", amp: '&' })[e]!)
    .replace(/\s+/g, ' ')
    .trim();
}

/** The headings with an id of a rendered page's HTML (inside its `<article>` when it has one: not the site's chrome), in order. */
export function headingsOf(html: string): PageHeading[] {
  const start = html.indexOf('<article');
  const end = start === -1 ? -1 : html.indexOf('</article>', start);
  const content = start !== -1 && end !== -1 ? html.slice(start, end) : html;
  const out: PageHeading[] = [];
  for (const m of content.matchAll(/<h([2-6])\s[^>]*?\bid="([^"]+)"[^>]*>([\s\S]*?)<\/h\1>/g)) {
    out.push({ depth: Number(m[1]), id: textOf(m[2]!), text: textOf(m[3]!) });
  }
  return out;
}

/**
 * `GET /pages/{path}`: one page with its frontmatter, deployed Markdown and rendered headings.
 * @throws ApiError not_found (project, version, or a page the version does not have or the caller may not read).
 */
export async function getPage(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  path: string,
  version: string | undefined,
  token: string | string[] | undefined,
): Promise<PageDetail> {
  const inv = await inventory(ctx, auth, projectId, version, token);
  const wanted = path.replace(/^\/+|\/+$/g, '').replace(/\.md$/, '');
  const page = inv?.pages.find((p) => p.path === wanted);
  if (!inv || !page) throw new ApiError('not_found', `No page ${wanted} in this version of the site.`);
  const listed = await inv.target.files.list();
  const read = async (file: string) => (listed.has(file) ? (await inv.target.files.read(file)).body.toString('utf8') : '');
  const [markdown, html, sources] = await Promise.all([read(`${page.path}.md`), read(page.file), sourcesOf(ctx, inv, [page])]);
  const frontmatter = sources.frontmatter.get(page.path);
  return {
    ...summaryOf(page, inv.target.version, frontmatter, sources.owners.get(page.path) ?? null),
    frontmatter: JSON.parse(JSON.stringify(frontmatter ?? {})) as Record<string, unknown>,
    markdown,
    headings: headingsOf(html),
  };
}
