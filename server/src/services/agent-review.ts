/**
 * The work of one docs agent run (decisions.md section 11, "Docs agent"; queued by agent-runs.ts,
 * run by jobs/agent-runner.ts): from two commits of a source repository to one review of the docs.
 *
 * 1. Both refs are fetched into a read cache of the source repository (git/repo-reader.ts; the same
 *    address policy as every repository read) and resolved to commits; a head commit another run of
 *    the project already took makes this run its duplicate (nothing opened).
 * 2. Each OpenAPI file of the source repository (`openapi: [path | {path, docsPath}]`) that differs
 *    is compared (`@quire/shared/docs/openapi/spec-diff`); the review writes the new spec to its
 *    `docsPath` in the docs repository, so every API page generated from it updates in the review's
 *    preview. A new operation no generated navigation group lists gets a stub page (title and
 *    `openapi` frontmatter, nothing invented) listed in the navigation group holding most operations
 *    of its tag (then of its spec), through the desktop's page operations (navigation-edits.ts).
 * 3. Hand-written pages (Markdown/MDX without `openapi` frontmatter) that mention a changed
 *    operation, parameter or field (`@quire/shared/docs/page-mentions`) are flagged: one review
 *    comment on each such line, saying what changed. With `QUIRE_LLM_URL` set, the model drafts the
 *    line again and the comment carries it as a suggestion (applied only by a person); without it
 *    nothing is drafted.
 * 4. Code changes under a glob of `globs` list the pages it maps to in the review's description,
 *    with the files that changed.
 * 5. The pages' owners (services/ownership.ts, members with a reviewing role) are the reviewers. The
 *    review is opened by the agent itself (no author), audited like any review, with the id derived
 *    from the run's, so a run taken again after a crash finds its review instead of opening another.
 *
 * Nothing found (no spec change, no flagged line, no mapped page): no review; the run says so.
 */
import { createHash } from 'node:crypto';
import type { AgentFinding } from '@quire/shared/api/agent-runs';
import { openApiTarget, type SourceRepo } from '@quire/shared/api/source-repos';
import { REVIEWING_ROLES, type Role } from '@quire/shared/api/members';
import type { ChangeSetEntry } from '@quire/shared/collab/change-set';
import { compilePathGlobs } from '@quire/shared/collab/path-glob';
import { ApiError } from '@quire/shared/errors';
import { loadProject, memoryRepository } from '@quire/shared/docs/config/load-project';
import { addPage, groupFolder, navigationGroups, type NavGroupInfo } from '@quire/shared/docs/config/navigation-edits';
import { splitFrontmatter } from '@quire/shared/docs/markdown/frontmatter';
import { diffOpenApiSpec, operationKey, type SpecChange } from '@quire/shared/docs/openapi/spec-diff';
import { slugify } from '@quire/shared/docs/openapi/page-path';
import type { ResolvedOperation } from '@quire/shared/docs/openapi/types';
import { findMentions, mentionTerms, type Mention } from '@quire/shared/docs/page-mentions';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import { isUniqueViolation } from '../db/errors';
import { changedPaths, listFiles, readFileAt, resolveRef, type ProjectRepo } from '../git/repo-reader';
import { draftLine } from './agent-drafts';
import type { AgentRunRow } from './agent-runs';
import { pageOwners } from './ownership';
import { getProjectForCaller, toProjectRecord, type ProjectRecord } from './projects';
import { createReviewComment } from './review-comments';
import { createReview, repoOf } from './reviews';

/** Markdown/MDX files of the docs repository read at most (the rest are not searched for mentions). */
const MAX_PAGES_READ = 2000;
/** Largest page or spec read, in bytes. */
const MAX_TEXT_BYTES = 1024 * 1024;
/** Comments written at most per review (flagged lines past this are listed in the description only). */
const MAX_COMMENTS = 100;
/** Longest review description, in characters (the review API's limit). */
const MAX_DESCRIPTION = 20_000;

/** What a run found and did. */
export interface AgentOutcome {
  baseCommit: string;
  headCommit: string;
  reviewId: string | null;
  duplicateOf: string | null;
  summary: string;
  findings: AgentFinding[];
}

/** The agent acting for a project: it may write reviews and comments; it is no person (no author, no audit actor). */
function agentAuth(project: ProjectRecord): RequestAuth {
  return { orgId: project.orgId, userId: null, keyId: null, permissions: ['projects:read', 'projects:write'], projectId: project.id, mode: 'live' };
}

/** The read cache of a source repository: one per project and repository (`<projectId>-src-<hash>`). */
function sourceRepoCache(projectId: string, run: Pick<AgentRunRow, 'repoKey' | 'repoUrl'>): ProjectRepo {
  return { projectId: `${projectId}-src-${createHash('sha256').update(run.repoKey).digest('hex').slice(0, 16)}`, repoUrl: run.repoUrl };
}

/** The review id of a run: derived from the run's id, so the run taken again finds it. */
export function reviewIdOfRun(runId: string): string {
  return `rev_${runId.slice(runId.indexOf('_') + 1)}`;
}

/**
 * Does run `run` (see the module comment).
 * @throws ApiError when a repository cannot be read (`service_unavailable`, `invalid_request` for an
 *   unknown ref or a refused URL), or when the source repository is no longer listed.
 */
export async function performAgentRun(ctx: AppContext, run: AgentRunRow): Promise<AgentOutcome> {
  const row = await ctx.db.prisma.project.findUniqueOrThrow({ where: { id: run.projectId } });
  const project = toProjectRecord(row);
  const source = project.settings.sourceRepos.find((r) => r.url === run.repoUrl);
  if (!source) throw new ApiError('invalid_request', `${run.repoUrl} is no longer one of the project's settings.sourceRepos.`, { field: 'repoUrl' });
  const src = sourceRepoCache(project.id, run);
  const baseCommit = run.baseCommit ?? (await resolveRef(ctx, src, run.baseRef));
  const headCommit = run.headCommit ?? (await resolveRef(ctx, src, run.headRef));
  const duplicate = await claimHeadCommit(ctx, run, headCommit);
  if (duplicate) {
    return { baseCommit, headCommit, reviewId: duplicate.reviewId, duplicateOf: duplicate.id, summary: `Run ${duplicate.id} already handled ${headCommit.slice(0, 7)}; nothing new opened.`, findings: [] };
  }

  const docsRepo = repoOf(project);
  const docsBase = await resolveRef(ctx, docsRepo, project.repoBranch);
  const docs = await readDocs(ctx, docsRepo, docsBase);
  const api = await apiChanges(ctx, src, source, baseCommit, headCommit, docs);
  const findings = flagPages(docs, api.changes);
  const mapped = Object.keys(source.globs).length > 0 ? await mappedPages(ctx, src, source, baseCommit, headCommit, docs) : [];
  const range = `${run.repoUrl} ${baseCommit.slice(0, 7)}..${headCommit.slice(0, 7)}`;
  if (api.entries.length === 0 && findings.length === 0 && mapped.length === 0) {
    const summary = api.changes.length > 0 ? `${api.changes.length} API changes in ${range}, but no docs page mentions them.` : `Nothing in the docs follows from ${range}.`;
    return { baseCommit, headCommit, reviewId: null, duplicateOf: null, summary, findings: [] };
  }

  const reviewId = reviewIdOfRun(run.id);
  const summary = summaryOf(api, findings, mapped);
  if (!(await ctx.db.prisma.review.findUnique({ where: { id: reviewId }, select: { id: true } }))) {
    const auth = agentAuth(project);
    const reviewers = await ownersOf(ctx, project, docs, [...findings.map((f) => f.path), ...mapped.flatMap((m) => m.files)]);
    await ctx.db.prisma.agentRun.update({ where: { id: run.id }, data: { baseCommit, headCommit } });
    await createReview(
      ctx,
      auth,
      project.id,
      { title: `Docs agent: ${repoName(run.repoUrl)} ${baseCommit.slice(0, 7)}..${headCommit.slice(0, 7)}`, description: descriptionOf(range, api, findings, mapped), reviewers, baseCommit: docsBase, changes: api.entries },
      { id: reviewId },
    );
    // The run is the review's agent link (the "agent" label) from here on, even if commenting fails half-way.
    await ctx.db.prisma.agentRun.update({ where: { id: run.id }, data: { reviewId } });
    await commentFindings(ctx, auth, project, reviewId, docs, findings);
  }
  return { baseCommit, headCommit, reviewId, duplicateOf: null, summary, findings };
}

/**
 * Records the run's head commit (the unique index of one run per head commit).
 * @returns the run that already has it (this run is then its duplicate), or null.
 */
async function claimHeadCommit(ctx: AppContext, run: AgentRunRow, headCommit: string): Promise<AgentRunRow | null> {
  if (run.headCommit === headCommit) return null;
  try {
    await ctx.db.prisma.agentRun.update({ where: { id: run.id }, data: { headCommit } });
    return null;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return ctx.db.prisma.agentRun.findUnique({ where: { projectId_repoKey_headCommit: { projectId: run.projectId, repoKey: run.repoKey, headCommit } } });
  }
}

/** The `owner/name` end of a repository URL, for titles. */
function repoName(url: string): string {
  return url.replace(/\.git$/, '').split(/[/:]/).filter(Boolean).slice(-2).join('/');
}

/** The docs repository at the review's base: its config, pages and specs (text), under the docs root. */
interface DocsSnapshot {
  /** docs root, repository-relative, with a trailing `/` ('' at the root) */
  root: string;
  /** repository path of docs.json (or mint.json), when there is one */
  configPath: string | null;
  /** repository path → text, for Markdown/MDX pages, the config and spec-like files */
  texts: Map<string, string>;
}

async function readDocs(ctx: AppContext, repo: ProjectRepo, commit: string): Promise<DocsSnapshot> {
  const files = await listFiles(ctx, repo, commit);
  const configs = files.map((f) => f.path).filter((p) => /(^|\/)(docs|mint)\.json$/.test(p));
  configs.sort((a, b) => a.split('/').length - b.split('/').length || (a.endsWith('docs.json') ? -1 : 1));
  const configPath = configs[0] ?? null;
  const root = configPath && configPath.includes('/') ? configPath.slice(0, configPath.lastIndexOf('/') + 1) : '';
  const texts = new Map<string, string>();
  const wanted = files.filter((f) => f.path.startsWith(root) && f.size <= MAX_TEXT_BYTES && /\.(mdx?|json|ya?ml)$/i.test(f.path) && !f.path.includes('node_modules/'));
  let pages = 0;
  for (const f of wanted) {
    if (/\.mdx?$/i.test(f.path) && ++pages > MAX_PAGES_READ) continue;
    const text = await readFileAt(ctx, repo, commit, f.path);
    if (text !== null) texts.set(f.path, text);
  }
  return { root, configPath, texts };
}

/** The `openapi` frontmatter of a page (a generated API page), or undefined for a hand-written one. */
function openapiOf(path: string, text: string): string | undefined {
  try {
    const value = splitFrontmatter(text, path).data.openapi;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The page path of a Markdown/MDX file under the docs root (`guides/quickstart`). */
function pagePathOf(docs: DocsSnapshot, file: string): string {
  return file.slice(docs.root.length).replace(/\.mdx?$/i, '');
}

/** The API side of a run: changes, the change set written, generated pages updated, stubs added. */
interface ApiChanges {
  changes: SpecChange[];
  entries: ChangeSetEntry[];
  generated: string[];
  stubs: Array<{ page: string; operation: string; group: string | null }>;
  problems: string[];
}

async function apiChanges(ctx: AppContext, src: ProjectRepo, source: SourceRepo, base: string, head: string, docs: DocsSnapshot): Promise<ApiChanges> {
  const out: ApiChanges = { changes: [], entries: [], generated: [], stubs: [], problems: [] };
  let config = docs.configPath ? (docs.texts.get(docs.configPath) ?? null) : null;
  const headTexts = new Map(docs.texts);
  for (const entry of source.openapi) {
    const { path, docsPath } = openApiTarget(entry);
    const [before, after] = [await readFileAt(ctx, src, base, path), await readFileAt(ctx, src, head, path)];
    if (before === after) continue;
    const diff = diffOpenApiSpec(docsPath, before, after);
    out.changes.push(...diff.changes);
    out.problems.push(...diff.problems.map((p) => `${path} ${p}`));
    if (after !== null && docs.texts.get(docsPath) !== after) {
      out.entries.push({ path: docsPath, content: after });
      headTexts.set(docsPath, after);
    }
    if (after !== null && docsPath.startsWith(docs.root)) {
      const stubbed = stubPages(docs, headTexts, config, docsPath.slice(docs.root.length), diff.addedOperations, diff.changes, out);
      config = stubbed;
    }
  }
  if (docs.configPath && config !== null && config !== docs.texts.get(docs.configPath)) out.entries.push({ path: docs.configPath, content: config });
  return out;
}

/**
 * Notes the generated pages of changed operations and writes stub pages for added operations no
 * generated group lists; returns the config text with the stubs listed.
 */
function stubPages(
  docs: DocsSnapshot,
  headTexts: Map<string, string>,
  config: string | null,
  specInRoot: string,
  added: ResolvedOperation[],
  changes: SpecChange[],
  out: ApiChanges,
): string | null {
  const inRoot: Record<string, string> = {};
  for (const [p, text] of headTexts) if (p.startsWith(docs.root)) inRoot[p.slice(docs.root.length)] = text;
  let generated: Array<{ path: string; ref: string; specFile: string }> = [];
  try {
    generated = loadProject(memoryRepository(inRoot), { apiCoverage: false }).project.operations;
  } catch {
    // a docs.json the loader refuses: no generated pages known (the build will say why)
  }
  const ofSpec = generated.filter((g) => g.specFile === specInRoot);
  const changedOps = new Set(changes.map((c) => c.operation));
  for (const g of ofSpec) if (changedOps.has(opKeyOfRef(g.ref)) && !out.generated.includes(g.path)) out.generated.push(g.path);
  const pageOps = new Map<string, string>(); // page path → operation key, for pages with openapi frontmatter
  for (const [p, text] of headTexts) {
    if (!p.startsWith(docs.root) || !/\.mdx?$/i.test(p)) continue;
    const ref = openapiOf(p, text);
    if (ref) pageOps.set(pagePathOf(docs, p), opKeyOfRef(ref));
  }
  for (const [page, key] of pageOps) if (changedOps.has(key) && !out.generated.includes(page)) out.generated.push(page);

  let text = config;
  let groups: NavGroupInfo[] = [];
  try {
    groups = text ? navigationGroups(text) : [];
  } catch {
    groups = [];
  }
  for (const op of added) {
    const key = operationKey(op);
    if (ofSpec.some((g) => opKeyOfRef(g.ref) === key) || [...pageOps.values()].includes(key)) continue;
    const group = groupFor(groups, op, pageOps);
    const leaf = slugify(op.operationId ?? '') || slugify(op.title) || slugify(key);
    const folder = group ? groupFolder(group) : '';
    const page = folder ? `${folder}/${leaf}` : leaf;
    const file = `${docs.root}${page}.mdx`;
    if (headTexts.has(file)) continue;
    out.entries.push({ path: file, content: `---\ntitle: ${JSON.stringify(op.title)}\nopenapi: ${JSON.stringify(`/${specInRoot} ${key}`)}\n---\n` });
    headTexts.set(file, '');
    if (group && text) {
      try {
        text = addPage(text, page, { group: group.name, within: group.within });
      } catch {
        // already listed or the group moved: the stub stays unlisted, the description says so
      }
    }
    out.stubs.push({ page, operation: key, group: group?.name ?? null });
  }
  return text;
}

/** `GET /users` from an `openapi` reference (`/api/openapi.yaml get /users`, `GET /users`). */
function opKeyOfRef(ref: string): string {
  const parts = ref.trim().split(/\s+/);
  if (parts.length < 2) return ref;
  const [method, path] = parts.slice(-2) as [string, string];
  return `${method.toUpperCase()} ${path}`;
}

/**
 * The navigation group a new operation's stub goes in: the one listing most operations of its first
 * tag (as `METHOD /path` entries or pages with `openapi` frontmatter), then most operations of any tag; null when none lists one.
 */
function groupFor(groups: NavGroupInfo[], op: ResolvedOperation, pageOps: Map<string, string>): NavGroupInfo | null {
  const sameSpecKeys = new Set<string>();
  const tagKeys = new Set<string>();
  const paths = (op.document.paths ?? {}) as Record<string, Record<string, { tags?: unknown }>>;
  for (const [p, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item ?? {})) {
      const key = `${method.toUpperCase()} ${p}`;
      sameSpecKeys.add(key);
      const tags = Array.isArray(operation?.tags) ? operation.tags : [];
      if (op.tags[0] !== undefined && tags[0] === op.tags[0]) tagKeys.add(key);
    }
  }
  let best: NavGroupInfo | null = null;
  let bestScore = 0;
  for (const g of groups) {
    const keys = g.entries.map((e) => (/^[A-Za-z]+ \//.test(e) ? opKeyOfRef(e) : (pageOps.get(e) ?? null))).filter((k): k is string => k !== null);
    const score = keys.filter((k) => tagKeys.has(k)).length * 1000 + keys.filter((k) => sameSpecKeys.has(k)).length;
    if (score > bestScore) [best, bestScore] = [g, score];
  }
  return best;
}

/** The lines of hand-written pages that mention a changed name. */
function flagPages(docs: DocsSnapshot, changes: SpecChange[]): AgentFinding[] {
  const terms = mentionTerms(changes);
  if (terms.length === 0) return [];
  const findings: AgentFinding[] = [];
  for (const [path, text] of docs.texts) {
    if (!/\.mdx?$/i.test(path) || openapiOf(path, text) !== undefined) continue;
    const seen = new Set<number>();
    for (const m of findMentions(text, terms)) {
      if (seen.has(m.line)) continue;
      seen.add(m.line);
      findings.push({ path, line: m.line, reason: reasonOf(m, findMentions(text.split(/\r?\n/)[m.line - 1] ?? '', terms)) });
    }
  }
  return findings.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
}

/** One sentence for a flagged line: every change its mentions point at. */
function reasonOf(first: Mention, onLine: Mention[]): string {
  const reasons = [...new Set((onLine.length > 0 ? onLine : [first]).map((m) => `\`${m.term}\`: ${m.reason}`))];
  return reasons.join('; ');
}

/** Pages to check because code under a mapped glob changed. */
interface MappedPages {
  glob: string;
  changed: string[];
  pages: string[];
  /** repository paths of those pages' files, for ownership */
  files: string[];
}

async function mappedPages(ctx: AppContext, src: ProjectRepo, source: SourceRepo, base: string, head: string, docs: DocsSnapshot): Promise<MappedPages[]> {
  const changed = (await changedPaths(ctx, src, base, head)).map((c) => c.path);
  const out: MappedPages[] = [];
  for (const [glob, pages] of Object.entries(source.globs)) {
    const matches = compilePathGlobs([glob]);
    const files = changed.filter((p) => matches(p));
    if (files.length === 0) continue;
    const pageFiles = pages.flatMap((p) => [`${docs.root}${p}.mdx`, `${docs.root}${p}.md`].filter((f) => docs.texts.has(f)).slice(0, 1));
    out.push({ glob, changed: files, pages, files: pageFiles });
  }
  return out;
}

/** The owners (by the ownership rules) of the given page files who may review: members with a reviewing role. */
async function ownersOf(ctx: AppContext, project: ProjectRecord, docs: DocsSnapshot, files: string[]): Promise<string[]> {
  const unique = [...new Set(files)];
  if (unique.length === 0) return [];
  const owners = await pageOwners(ctx, project.id, unique.map((file) => ({ path: pagePathOf(docs, file), file })));
  const ids = [...new Set([...owners.values()].filter((o) => o !== null).map((o) => o!.id))];
  if (ids.length === 0) return [];
  const members = await ctx.db.prisma.membership.findMany({ where: { orgId: project.orgId, userId: { in: ids } }, select: { userId: true, role: true } });
  return members.filter((m) => REVIEWING_ROLES.includes(m.role as Role)).map((m) => m.userId).sort();
}

function summaryOf(api: ApiChanges, findings: AgentFinding[], mapped: MappedPages[]): string {
  const pages = new Set(findings.map((f) => f.path));
  return [
    `${api.changes.length} API change${api.changes.length === 1 ? '' : 's'}`,
    `${api.generated.length} generated page${api.generated.length === 1 ? '' : 's'} updated`,
    `${api.stubs.length} stub page${api.stubs.length === 1 ? '' : 's'}`,
    `${findings.length} line${findings.length === 1 ? '' : 's'} flagged in ${pages.size} page${pages.size === 1 ? '' : 's'}`,
    ...(mapped.length > 0 ? [`${mapped.reduce((n, m) => n + m.pages.length, 0)} mapped pages to check`] : []),
  ].join(', ');
}

function descriptionOf(range: string, api: ApiChanges, findings: AgentFinding[], mapped: MappedPages[]): string {
  const lines = [`The docs agent compared ${range}. Nothing here is merged without a person.`, ''];
  if (api.changes.length > 0) lines.push('API changes:', ...api.changes.map((c) => `- ${c.summary}`), '');
  if (api.problems.length > 0) lines.push('Specs that could not be read:', ...api.problems.map((p) => `- ${p}`), '');
  if (api.generated.length > 0) lines.push('Generated API pages updated by the new spec:', ...api.generated.map((p) => `- ${p}`), '');
  if (api.stubs.length > 0) {
    lines.push('Stub pages for new operations (describe them):', ...api.stubs.map((s) => `- ${s.page} (${s.operation})${s.group ? ` in group ${s.group}` : ', not listed: no group lists operations of this spec'}`), '');
  }
  if (findings.length > 0) {
    const byPage = new Map<string, number[]>();
    for (const f of findings) byPage.set(f.path, [...(byPage.get(f.path) ?? []), f.line]);
    lines.push('Pages that mention a changed name (see the comments on their lines):', ...[...byPage].map(([p, l]) => `- ${p}: line${l.length === 1 ? '' : 's'} ${l.join(', ')}`), '');
  }
  for (const m of mapped) {
    const files = m.changed.slice(0, 20).join(', ') + (m.changed.length > 20 ? `, and ${m.changed.length - 20} more` : '');
    lines.push(`Code under ${m.glob} changed (${files}): check ${m.pages.join(', ')}`);
  }
  const text = lines.join('\n').trim();
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}

/** One comment per flagged line (at most {@link MAX_COMMENTS}), with the model's draft as a suggestion when a model is configured. */
async function commentFindings(
  ctx: AppContext,
  auth: RequestAuth,
  project: ProjectRecord,
  reviewId: string,
  docs: DocsSnapshot,
  findings: AgentFinding[],
): Promise<void> {
  await getProjectForCaller(ctx, auth, project.id);
  for (const f of findings.slice(0, MAX_COMMENTS)) {
    const line = docs.texts.get(f.path)?.split(/\r?\n/)[f.line - 1] ?? '';
    const draft = await draftLine(ctx, line, f.reason);
    await createReviewComment(ctx, auth, project.id, reviewId, {
      path: f.path,
      lineStart: f.line,
      lineEnd: f.line,
      body: `Docs agent: this line mentions ${f.reason}.${draft ? ' A model drafted the suggestion below; check it before applying.' : ''}`,
      ...(draft ? { suggestion: { lines: { start: f.line, end: f.line }, text: draft } } : {}),
    });
  }
}
