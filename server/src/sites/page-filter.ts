/**
 * The site's index files (`llms.txt`, `llms-full.txt`, their per-language copies, `sitemap.xml`) as
 * one reader may read them: without the entries of the pages the project's access rules and
 * path-scoped IP allowlists refuse that reader (decisions.md sections 6 and 9: what the rules protect
 * is the page, whatever file would name it or carry its text). The files are judged by their own
 * path by the gate like any file; this filter then takes out the pages a reader cannot open.
 *
 * How it stays cheap:
 * - The public hot path is unchanged: only answers of index files (`FileAnswer.listsPages`) reach
 *   here, and a project whose compiled policy (access/policy-cache.ts, synchronous once cached)
 *   has no rule or allowlist that could refuse a page while opening the file costs one cached
 *   lookup and two array scans. A rule or allowlist that covers the file's own path cannot: the
 *   reader passed it for the file, and their token or address passes it on every path.
 * - The other rules decide which listed pages they cover (their globs) once per compiled policy,
 *   deployment and file ({@link DeploymentSite.listingMemo}, dropped with the policy object when the
 *   rules change). A page covered by none is open to every reader the file is open to.
 * - Each covered page is decided per request by the one access decision (`SiteAccess.decide`,
 *   access/decide.ts) with the reader's token and address; synchronous once the token is cached.
 * - The pages' byte ranges come from the entries file the builder wrote beside the index files
 *   (page-entries.ts), read once per deployment; the reader's form is those ranges cut out (in the
 *   same pass as the audience marks of gated pages, audience-variants.ts `cutForVisitor`) and is
 *   cached per (file, visible tags, refused pages) like the audience variants
 *   (`DeploymentSite.listingVariant`).
 *
 * Forms showing a page the rules protect are `private, no-store`; forms without any are `varies`
 * (public with `Vary: Cookie, X-Audience-Token`, `must-revalidate`: a shared cache asks again, and the
 * ETag differs per form). A deployment built before entries files existed cannot be cut: a reader
 * refused any of its pages gets a 403 for the index files instead of the pages' entries (fails
 * closed until the next build).
 */
import { createHash } from 'node:crypto';
import type { CompiledPolicy } from '../access/policy-cache';
import type { SiteAccessDecision } from '../access/decide';
import { variantKey } from './audience-variants';
import type { CachedFile, FileAccess } from './cached-file';
import type { DeploymentSite, FileAnswer } from './deployment-site';
import type { FileEntries, PageEntries } from './page-entries';
import type { SiteAccess } from './site-access';

/** What a reader gets of an index file: their form, the file as it is (nothing to take out), or a refusal. */
export type ListingForm = CachedFile | 'unfiltered' | 'refused';

/** What {@link listingForReader} decides on. */
export interface ListingReader {
  /** the path the gate judged the file by (`llms.txt`, `fr/llms-full.txt`) */
  filePath: string;
  /** the reader's audience token (header, else cookie), if any */
  token: string | undefined;
  /** the tags the token opens (the gate's decision for the file) */
  tags: readonly string[];
  ip: string;
}

/** Refused pages keys longer than this are hashed into the variant key. */
const MAX_PLAIN_KEY = 200;

/**
 * The form of an index file for a reader (see the module comment).
 * @param answer an index file's answer (`listsPages`) with status 200, already allowed by the gate
 * @returns `'unfiltered'` when the reader may open every page the file names (serve it as for any
 *   visitor with their tags), their cut form, or `'refused'`; a promise while the policy, the
 *   entries file, a token or a variant is loaded
 * @throws (through the promise) when the entries file cannot be read or parsed, or a variant made
 */
export function listingForReader(site: DeploymentSite, access: SiteAccess, answer: FileAnswer, reader: ListingReader): ListingForm | Promise<ListingForm> {
  const policy = access.policy(site.projectId);
  if (policy instanceof Promise) return policy.then((p) => withPolicy(site, access, answer, reader, p));
  return withPolicy(site, access, answer, reader, policy);
}

/** Whether some rule or allowlist may refuse a page to a reader it let read the file at `filePath` (see the module comment). */
export function narrowerThan(policy: CompiledPolicy, filePath: string): boolean {
  return policy.rules.some((r) => !r.matches(filePath)) || policy.allowlists.some((l) => !l.guards(filePath));
}

function withPolicy(site: DeploymentSite, access: SiteAccess, answer: FileAnswer, reader: ListingReader, policy: CompiledPolicy): ListingForm | Promise<ListingForm> {
  if (!narrowerThan(policy, reader.filePath)) return 'unfiltered';
  const entries = site.pageEntries();
  if (entries instanceof Promise) return entries.then((e) => withEntries(site, access, answer, reader, policy, e));
  return withEntries(site, access, answer, reader, policy, entries);
}

function withEntries(
  site: DeploymentSite,
  access: SiteAccess,
  answer: FileAnswer,
  reader: ListingReader,
  policy: CompiledPolicy,
  entries: PageEntries | null,
): ListingForm | Promise<ListingForm> {
  const file = entries?.files.get(answer.path);
  // without the file's entries (a deployment built before them): every visible page may be in it
  const pages = file && entries ? entries.pages : site.manifest.pages.filter((p) => !p.hidden).map((p) => p.path);
  const covered = coveredPages(site, policy, answer.path, reader.filePath, pages, file?.pages);
  if (covered.length === 0) return 'unfiltered';
  const decisions = covered.map((i) => access.decide({ projectId: site.projectId, path: pages[i]!, ip: reader.ip, pageAudience: [], ...(reader.token !== undefined ? { token: reader.token } : {}) }));
  const settle = (settled: readonly SiteAccessDecision[]): ListingForm | Promise<ListingForm> => {
    const refused = covered.filter((_, k) => !settled[k]!.allowed);
    if (!file) return refused.length > 0 ? 'refused' : 'unfiltered';
    return cutForm(site, answer, file, reader.tags, refused, refused.length < covered.length);
  };
  if (decisions.some((d) => d instanceof Promise)) return Promise.all(decisions).then(settle);
  return settle(decisions as SiteAccessDecision[]);
}

/**
 * The indexes (into `pages`) of the pages a file names that the rules not covering the file's own
 * path cover, memoised per compiled policy on the deployment.
 * @param named the page indexes the file names; undefined: all of `pages`
 */
function coveredPages(site: DeploymentSite, policy: CompiledPolicy, file: string, filePath: string, pages: readonly string[], named: readonly number[] | undefined): readonly number[] {
  let byFile = site.listingMemo.get(policy);
  if (!byFile) site.listingMemo.set(policy, (byFile = new Map()));
  const key = `${file}\u0000${filePath}`;
  const known = byFile.get(key);
  if (known) return known;
  const rules = policy.rules.filter((r) => !r.matches(filePath));
  const lists = policy.allowlists.filter((l) => !l.guards(filePath));
  const covers = (path: string) => rules.some((r) => r.matches(path)) || lists.some((l) => l.guards(path));
  const covered = (named ?? pages.map((_, i) => i)).filter((i) => covers(pages[i]!));
  byFile.set(key, covered);
  return covered;
}

/**
 * The reader's form: the file (as built, with its audience marks when it has gated blocks) with the
 * ranges of the refused pages and the gated blocks the reader's tags do not open cut out.
 * @param refused page indexes, ascending
 * @param showsProtected whether the form still shows a page the rules protect (then `private`)
 */
function cutForm(site: DeploymentSite, answer: FileAnswer, file: FileEntries, tags: readonly string[], refused: readonly number[], showsProtected: boolean): CachedFile | Promise<CachedFile> | 'refused' {
  const audience = answer.file.audience;
  const source = audience?.source ?? answer.file.identity.body;
  // the entries describe the bytes the builder wrote; anything else cannot be cut safely
  if (source.length !== file.bytes) return 'refused';
  const tagKey = audience ? variantKey(audience.marks, tags) : '';
  let pagesKey = refused.join(',');
  if (pagesKey.length > MAX_PLAIN_KEY) pagesKey = createHash('sha256').update(pagesKey).digest('base64url');
  const access: FileAccess = showsProtected || tagKey !== '' ? 'private' : 'varies';
  return site.listingVariant(answer, `${tagKey}\u0001${pagesKey}\u0001${access}`, access, () => {
    const out = new Set(refused);
    const cuts: [number, number][] = [];
    for (const r of file.ranges) if (r.pages.every((i) => out.has(i))) cuts.push([r.start, r.end]);
    return { source, marks: audience?.marks ?? null, tags, cuts };
  });
}

