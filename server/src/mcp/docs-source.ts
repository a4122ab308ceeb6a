/**
 * The pages an MCP request reads (decisions.md section 6): the deployment the site's host serves, or
 * the live deployment of a documentation version (search/search-target.ts, the same lookup the site's
 * search uses), and whether a reader may read a page of it. A page reaches an MCP client only when it
 * is not hidden (frontmatter `hidden`: never listed, never answered), its audience tags are opened by
 * the reader's token (`SiteReader.canRead`) and the site's access decision allows its path
 * (`SiteReader.allow`: access rules, IP allowlists) — the same rules as the site's pages and search.
 */
import { ApiError } from '@quire/shared/errors';
import { defaultVersion } from '@quire/shared/docs/versions';
import { isSitePathLocation, matchRedirect } from '@quire/shared/docs/nav/index';
import type { AppContext } from '../context';
import { searchTarget } from '../search/search-target';
import type { DeploymentSite } from '../sites/deployment-site';
import { parseManifest, type DeploymentManifest } from '../deployments/manifest';
import type { SiteReader } from '../sites/site-reader';

/** One page of a deployment's manifest. */
export type ManifestPage = DeploymentManifest['pages'][number];

/** A deployment's pages and their Markdown. */
export interface DocsSource {
  manifest: DeploymentManifest;
  /** URL prefix of the version's pages: `''` for the served deployment, `/<label>` for another version */
  basePath: string;
  /** the version label (null: the site declares no versions) */
  version: string | null;
  /** The page's Markdown (`<path>.md` of the deployment), null when the deployment has none. */
  readMarkdown(pagePath: string): Promise<string | null>;
}

/** The deployment the request's host serves. */
export function servedSource(site: DeploymentSite): DocsSource {
  return {
    manifest: site.manifest,
    basePath: site.basePath,
    version: defaultVersion(site.manifest.versions)?.label ?? null,
    async readMarkdown(pagePath) {
      const answer = await site.answer(`${pagePath}.md`, false);
      return answer.kind === 'file' && answer.status === 200 ? answer.file.identity.body.toString('utf8') : null;
    },
  };
}

/**
 * The deployment of documentation version `label` of the site's project: the served one for the
 * default version's label (or a site without versions when none is asked for), else the version
 * channel's newest deployment (its manifest read now).
 * @throws ApiError not_found for a label that is not one of the project's versions or has nothing deployed
 */
export async function versionSource(ctx: AppContext, site: DeploymentSite, label: string | undefined): Promise<DocsSource> {
  const served = servedSource(site);
  if (label === undefined || label === served.version) return served;
  const target = await searchTarget(ctx, site.projectId, label);
  if (!target) throw new ApiError('not_found', `No documentation version "${label}" is deployed.`, { field: 'version', issue: 'not deployed' });
  if (target.basePath === '') return served;
  const manifest = parseManifest((await target.files.read('manifest.json')).body.toString('utf8'), `${target.dir}/manifest.json`);
  return {
    manifest,
    basePath: target.basePath,
    version: target.version,
    async readMarkdown(pagePath) {
      if (!manifest.pages.some((p) => p.path === pagePath)) return null;
      return target.files.read(`${pagePath}.md`).then(
        (file) => file.body.toString('utf8'),
        () => null,
      );
    },
  };
}

/** Most redirects followed from one page reference: a loop in the site's configuration ends there. */
export const MAX_REDIRECT_HOPS = 5;

/**
 * The page a path answers with on the site: the site's redirects first, as a browser following
 * them would get (the configuration's order and patterns, the same matcher as site hosting; at most
 * {@link MAX_REDIRECT_HOPS}, only to paths of this site), then {@link findPage}. Undefined when the
 * path leads to no page, to another site, or round a loop.
 * @param path site path without leading slash (`old/setup`), relative to the source's version
 */
export function findPageFollowingRedirects(manifest: DeploymentManifest, path: string): ManifestPage | undefined {
  let current = path;
  for (let hop = 0; hop <= MAX_REDIRECT_HOPS; hop++) {
    const hit = current === '' || manifest.redirects.length === 0 ? undefined : matchRedirect(manifest.redirects, `/${current}`);
    if (!hit) return findPage(manifest, current);
    if (!isSitePathLocation(hit.location)) return undefined;
    current = hit.location.replace(/[?#].*$/s, '').replace(/^\/+|\/+$/g, '');
  }
  return undefined;
}

/**
 * The manifest page a path names: the exact page, else `<path>/index`; `''` names the home page
 * (the manifest's `home`, else the first page that is not hidden). Undefined when none.
 */
export function findPage(manifest: DeploymentManifest, path: string): ManifestPage | undefined {
  if (path === '') {
    const home = manifest.home ? manifest.pages.find((p) => p.path === manifest.home) : undefined;
    return home ?? manifest.pages.find((p) => !p.hidden);
  }
  return manifest.pages.find((p) => p.path === path) ?? manifest.pages.find((p) => p.path === `${path}/index`);
}

/** Whether `reader` may read `page` through the MCP server (see the module comment). */
export async function mayRead(reader: SiteReader, page: ManifestPage): Promise<boolean> {
  if (page.hidden) return false;
  if (!reader.canRead(page.audience ?? [])) return false;
  return reader.allow(page.path);
}

/** The pages of `source` the reader may read, in manifest order (the site's navigation order). */
export async function readablePages(reader: SiteReader, source: DocsSource): Promise<ManifestPage[]> {
  const pages = source.manifest.pages;
  const verdicts = await Promise.all(pages.map((p) => mayRead(reader, p)));
  return pages.filter((_, i) => verdicts[i]);
}
