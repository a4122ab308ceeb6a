/**
 * The files naming pages as one reader may read them: without the pages the project's access rules
 * and path-scoped IP allowlists refuse that reader (decisions.md sections 6 and 9: what the rules
 * protect is the page, whatever file would name it or carry its text). Two kinds of files name pages:
 *
 * - the index files (`llms.txt`, `llms-full.txt`, their per-language copies, `sitemap.xml`), whose
 *   page ranges the builder wrote beside them (page-entries.ts);
 * - every built HTML file: its sidebar, previous/next cards, tabs, navbar and footer links, and on
 *   the not-found page its "Start here" links and "Did you mean" suggestions, whose ranges are
 *   found in the file (page-links.ts).
 *
 * The files are judged by their own path by the gate like any file; this filter then takes out the
 * pages a reader cannot open. How it stays cheap:
 * - A project without rules or allowlists (the compiled policy is `OPEN_POLICY`) costs one cached
 *   lookup: the answer is the file as for any visitor. So does a file whose path every rule and
 *   allowlist covers: the reader passed them for the file, and their token or address passes them
 *   on every path.
 * - The other rules decide which named pages they cover, and the covered pages are grouped by the
 *   rules covering them, once per compiled policy, deployment, file and set of rules passed
 *   ({@link DeploymentSite.coverageMemo}, dropped with the policy object when the rules change).
 * - Each group is decided per request by the one access decision (`SiteAccess.decide`,
 *   access/decide.ts) for one of its pages, with the reader's token and address: every page of a
 *   group gets the same verdict. Synchronous once the token is cached.
 * - The reader's form is the file with the refused ranges cut out (in the same pass as the audience
 *   marks of gated pages, audience-variants.ts `cutForVisitor`), cached per (file, visible tags,
 *   refused pages) like the audience variants (`DeploymentSite.readerVariant`).
 *
 * Forms showing a page the rules protect (and every form of a gated page) are `private, no-store`;
 * others are `varies` (public with `Vary: Cookie, X-Audience-Token`, `must-revalidate`: a shared
 * cache asks again, and the ETag differs per form). A deployment built before entries files existed
 * cannot cut its index files: a reader refused any of its pages gets a 403 for them instead of the
 * pages' entries (fails closed until the next build).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { CompiledAllowlist, CompiledPolicy, CompiledRule } from '../access/policy-cache';
import type { SiteAccessDecision } from '../access/decide';
import { variantKey } from './audience-variants';
import type { CachedFile, FileAccess } from './cached-file';
import type { DeploymentSite, FileAnswer } from './deployment-site';
import { gateChromeOf, type GateChrome } from './gate-document';
import type { FileEntries } from '../deployments/page-entries';
import type { SiteAccess } from './site-access';
import { siteTokenOf } from './site-reader';

/** What {@link formForReader} decides on. */
export interface PageReader {
  /**
   * the path the gate judged the file by (`llms.txt`, `guides/setup`, the requested path of a
   * not-found answer); null: the reader passed no rule for it (the gate page's chrome)
   */
  filePath: string | null;
  /** the reader's audience token (header, else cookie), if any */
  token: string | undefined;
  /** the tags the token opens (the gate's decision for the file) */
  tags: readonly string[];
  ip: string;
}

/** The pages refused to a reader among those the rules cover in a file. */
export interface Refusal {
  /** their paths (`internal/roadmap`) */
  paths: ReadonlySet<string>;
  /** tells refusals of the same file apart; '' for none */
  key: string;
}

/** No page refused. */
export const NO_REFUSAL: Refusal = { paths: new Set(), key: '' };

/** What a reader gets of a file naming pages. */
export interface ReaderForm {
  /**
   * their cut form; `'unfiltered'`: the file as for any visitor with their tags (no rule covers a
   * page it names); `'refused'`: an index file that cannot be cut (built before entries files)
   */
  file: CachedFile | 'unfiltered' | 'refused';
  /** the pages refused them (the not-found page's suggestions leave them out too) */
  refusal: Refusal;
}

/**
 * The named pages of one file that the rules the reader did not pass for the file cover, grouped by
 * the rules covering them (see the module comment); made once per policy, file and rules passed.
 */
export interface Coverage {
  /** the page list the indexes are into */
  pages: readonly string[];
  /** each group's pages (indexes, ascending) and the page decided for all of them */
  groups: readonly { sample: string; pages: readonly number[] }[];
  /** how many pages the groups hold */
  covered: number;
  /** refusals worked out, by the refused groups (`0`/`1` per group) */
  refusals: Map<string, { refused: readonly number[]; refusal: Refusal }>;
}

const UNFILTERED: ReaderForm = { file: 'unfiltered', refusal: NO_REFUSAL };
/** Refused-pages keys longer than this are hashed into the variant key. */
const MAX_PLAIN_KEY = 200;
/** Refusals remembered per coverage (distinct combinations of refused groups). */
const MAX_REFUSALS = 256;

/**
 * The form of a file naming pages (an index file with status 200, or a built HTML file:
 * `FileAnswer.listsPages`, `namesPages`) for a reader the gate let read it (see the module comment).
 * @param reader the reader, asked for only when some rule covers a page the file may name
 * @returns `file: 'unfiltered'` when no rule covers a page the file names, the reader's cut form,
 *   or `'refused'`; a promise while the policy, the entries file, a token or a variant is loaded
 * @throws (through the promise) when the policy or the entries file cannot be read, or a variant made
 */
export function formForReader(site: DeploymentSite, access: SiteAccess, answer: FileAnswer, reader: () => PageReader): ReaderForm | Promise<ReaderForm> {
  const policy = access.policy(site.projectId);
  if (policy instanceof Promise) return policy.then((p) => withPolicy(site, access, answer, reader, p));
  return withPolicy(site, access, answer, reader, policy);
}

/** The rules and allowlists a reader let read `filePath` did not pass for it (all of them for null), and a key naming which. */
function narrowerRules(policy: CompiledPolicy, filePath: string | null): { rules: CompiledRule[]; lists: CompiledAllowlist[]; key: string } {
  const rules = filePath === null ? policy.rules : policy.rules.filter((r) => !r.matches(filePath));
  const lists = filePath === null ? policy.allowlists : policy.allowlists.filter((l) => !l.guards(filePath));
  const key = [...rules.map((r) => r.id), ...lists.map((l) => l.id)].join(',');
  return { rules, lists, key };
}

/**
 * Whether the project's access rules or IP allowlists may refuse some reader a page, so that what
 * names pages (a search answer) depends on the reader; true when they cannot be read.
 */
export async function rulesRestrict(access: SiteAccess, projectId: string): Promise<boolean> {
  try {
    return restricts(await access.policy(projectId));
  } catch {
    return true;
  }
}

const restricts = (policy: CompiledPolicy) => policy.rules.length > 0 || policy.allowlists.length > 0;

function withPolicy(
  site: DeploymentSite,
  access: SiteAccess,
  answer: FileAnswer,
  reader: () => PageReader,
  policy: CompiledPolicy,
): ReaderForm | Promise<ReaderForm> {
  if (!restricts(policy)) return UNFILTERED;
  const who = reader();
  const narrower = narrowerRules(policy, who.filePath);
  if (narrower.rules.length === 0 && narrower.lists.length === 0) return UNFILTERED;
  if (answer.namesPages) {
    // the not-found page may suggest any page: every page is decided for it
    const file = site.pageLinks(answer);
    return withEntries(site, access, answer, who, policy, narrower, site.pagePaths, file, answer.status === 404 ? undefined : file.pages);
  }
  const entries = site.pageEntries();
  const withFile = (e: Awaited<typeof entries>) => {
    const file = e?.files.get(answer.path);
    // without the file's entries (a deployment built before them): every visible page may be in it
    const pages = file && e ? e.pages : site.manifest.pages.filter((p) => !p.hidden).map((p) => p.path);
    return withEntries(site, access, answer, who, policy, narrower, pages, file, file?.pages);
  };
  return entries instanceof Promise ? entries.then(withFile) : withFile(entries);
}

function withEntries(
  site: DeploymentSite,
  access: SiteAccess,
  answer: FileAnswer,
  reader: PageReader,
  policy: CompiledPolicy,
  narrower: ReturnType<typeof narrowerRules>,
  pages: readonly string[],
  file: FileEntries | undefined,
  named: readonly number[] | undefined,
): ReaderForm | Promise<ReaderForm> {
  const coverage = coverageOf(site, policy, answer.path, narrower, pages, named);
  if (coverage.groups.length === 0) return UNFILTERED;
  const decisions = coverage.groups.map((g) =>
    access.decide({
      projectId: site.projectId,
      path: g.sample,
      ip: reader.ip,
      pageAudience: [],
      ...(reader.token !== undefined ? { token: reader.token } : {}),
    }),
  );
  const settle = (settled: readonly SiteAccessDecision[]): ReaderForm | Promise<ReaderForm> => {
    const { refused, refusal } = refusalOf(coverage, settled.map((d) => (d.allowed ? '0' : '1')).join(''));
    if (!file) return { file: refused.length > 0 ? 'refused' : 'unfiltered', refusal };
    const form = cutForm(site, answer, file, reader.tags, refusal.key, refused, refused.length < coverage.covered);
    return form instanceof Promise ? form.then((f) => ({ file: f, refusal })) : { file: form, refusal };
  };
  if (decisions.some((d) => d instanceof Promise)) return Promise.all(decisions).then(settle);
  return settle(decisions as SiteAccessDecision[]);
}

/** The coverage of a file's named pages (see {@link Coverage}), memoised per compiled policy on the deployment. */
function coverageOf(
  site: DeploymentSite,
  policy: CompiledPolicy,
  file: string,
  narrower: ReturnType<typeof narrowerRules>,
  pages: readonly string[],
  named: readonly number[] | undefined,
): Coverage {
  let byFile = site.coverageMemo.get(policy);
  if (!byFile) site.coverageMemo.set(policy, (byFile = new Map()));
  const key = `${file}\u0000${narrower.key}`;
  const known = byFile.get(key);
  if (known) return known;
  const { rules, lists } = narrower;
  const bySignature = new Map<string, { sample: string; pages: number[] }>();
  let covered = 0;
  for (const i of named ?? pages.keys()) {
    const path = pages[i]!;
    const signature = rules.map((r) => (r.matches(path) ? '1' : '0')).join('') + lists.map((l) => (l.guards(path) ? '1' : '0')).join('');
    if (!signature.includes('1')) continue;
    covered++;
    const group = bySignature.get(signature);
    if (group) group.pages.push(i);
    else bySignature.set(signature, { sample: path, pages: [i] });
  }
  const made: Coverage = { pages, groups: [...bySignature.values()], covered, refusals: new Map() };
  byFile.set(key, made);
  return made;
}

/** The refused pages of a coverage for the refused groups `bits` (one `0`/`1` per group), memoised. */
function refusalOf(coverage: Coverage, bits: string): { refused: readonly number[]; refusal: Refusal } {
  const known = coverage.refusals.get(bits);
  if (known) return known;
  const refused = coverage.groups.flatMap((g, i) => (bits[i] === '1' ? g.pages : [])).sort((a, b) => a - b);
  let key = refused.join(',');
  if (key.length > MAX_PLAIN_KEY) key = createHash('sha256').update(key).digest('base64url');
  const made = { refused, refusal: refused.length === 0 ? NO_REFUSAL : { paths: new Set(refused.map((i) => coverage.pages[i]!)), key } };
  if (coverage.refusals.size >= MAX_REFUSALS) coverage.refusals.clear();
  coverage.refusals.set(bits, made);
  return made;
}

/**
 * The reader's form: the file (as built, with its audience marks when it has gated entries) with the
 * ranges of the refused pages and the gated entries the reader's tags do not open cut out.
 * @param refused page indexes, ascending; `pagesKey` names them
 * @param showsProtected whether the form still shows a page the rules protect (then `private`)
 */
function cutForm(
  site: DeploymentSite,
  answer: FileAnswer,
  file: FileEntries,
  tags: readonly string[],
  pagesKey: string,
  refused: readonly number[],
  showsProtected: boolean,
): CachedFile | Promise<CachedFile> | 'refused' {
  const audience = answer.file.audience;
  const source = audience?.source ?? answer.file.identity.body;
  // the entries describe the bytes they were found in or written as; anything else cannot be cut safely
  if (source.length !== file.bytes) return 'refused';
  const tagKey = audience ? variantKey(audience.marks, tags) : '';
  const access: FileAccess = answer.audience || showsProtected || tagKey !== '' ? 'private' : 'varies';
  return site.readerVariant(answer, `${tagKey}\u0001${pagesKey}\u0001${access}`, access, () => ({ source, marks: audience?.marks ?? null, tags, cuts: refusedCuts(file, refused) }));
}

/**
 * The byte ranges `[start, end)` of a file naming pages to cut for a reader refused `refused`
 * (page indexes of the file's entries): those whose every page is refused.
 */
export function refusedCuts(file: FileEntries, refused: readonly number[]): [number, number][] {
  const out = new Set(refused);
  const cuts: [number, number][] = [];
  for (const r of file.ranges) if (r.pages.every((i) => out.has(i))) cuts.push([r.start, r.end]);
  return cuts;
}

/**
 * The chrome of the gate page (and of the MCP setup page) for the reader of `req`: the not-found
 * page as a visitor without tags sees it (`DeploymentSite.gateChrome`), without the pages the rules
 * and allowlists refuse this reader (all of them are judged: the reader passed none for the gate).
 * @returns the chrome (null: the standalone document), and whether it depends on the reader (then
 *   the page must be `private`); a policy that cannot be read gives the standalone document
 */
export async function gateChromeFor(req: IncomingMessage, site: DeploymentSite, access: SiteAccess): Promise<{ chrome: GateChrome | null; personal: boolean }> {
  const page = site.notFoundPage === undefined ? undefined : await site.answer(site.notFoundPage, false);
  if (page?.kind !== 'file' || page.status !== 404 || !page.namesPages) return { chrome: await site.gateChrome(), personal: false };
  let view: ReaderForm;
  try {
    view = await formForReader(site, access, page, () => ({ filePath: null, token: siteTokenOf(req), tags: [], ip: access.clientIp(req) }));
  } catch {
    return { chrome: null, personal: false };
  }
  if (view.file === 'unfiltered') return { chrome: await site.gateChrome(), personal: false };
  if (view.file === 'refused') return { chrome: null, personal: false };
  let chrome = site.readerChromes.get(view.file);
  if (chrome === undefined) site.readerChromes.set(view.file, (chrome = gateChromeOf(view.file.identity.body)));
  return { chrome, personal: true };
}

