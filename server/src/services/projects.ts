/**
 * Projects (interface-spec.md "Projects"; decisions.md sections 3, 4, 6, 10): create with slug
 * rules and quota, list, get (from an in-memory cache, no ORM round trip), partial update with
 * merged settings and a write-only webhook secret, delete. Every change is audited in the same
 * transaction and announced on `ctx.events` ('project.changed').
 */
import { ApiError } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import {
  DEFAULT_PROJECT_SETTINGS,
  ProjectSettingsSchema,
  SLUG_MAX_LENGTH,
  slugify,
  type CreateProjectBody,
  type Project,
  type ProjectSettings,
  type UpdateProjectBody,
} from '@quire/shared/api/projects';
import type { Config } from '../env';
import { LRUCache } from 'lru-cache';
import type { Db, Models } from '../db/client';
import type { EventBus } from '../events';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import type { PageRequest } from '@quire/shared/api/common';
import { recordAudit, type DbClient } from './audit';
import { planLimits } from './organizations';
import { validateRepoUrl, validateSourceRepoUrls } from './repo-url';
import { isUniqueViolation } from '../db/errors';
import { lockKey } from '../db/locks';
import { siteHostName } from '../deployments/site-host';

/** A Project row with `settings` parsed. */
export type ProjectRecord = Omit<Models.ProjectModel, 'settings'> & { settings: ProjectSettings };

/**
 * The production site address of a project (decisions.md section 6):
 * `http://<slug>-docs.<QUIRE_SITES_DOMAIN>:<port>/`, without `:80`.
 */
export function projectSiteUrl(config: Pick<Config, 'sitesDomain' | 'port'>, slug: string): string {
  const port = config.port === 80 ? '' : `:${config.port}`;
  return `http://${siteHostName(slug, config.sitesDomain)}${port}/`;
}

/**
 * A project's stored settings JSON as the API shows them: switches it lacks (or holds with a wrong
 * type) take their defaults (`DEFAULT_PROJECT_SETTINGS`: true, requireResolvedThreads false).
 * @throws SyntaxError when `json` is not JSON (the column is only ever written by this service)
 */
export function projectSettingsOf(json: string): ProjectSettings {
  const parsed = ProjectSettingsSchema.partial().safeParse(JSON.parse(json));
  return { ...DEFAULT_PROJECT_SETTINGS, ...(parsed.success ? parsed.data : {}) };
}

/** A row as a {@link ProjectRecord}. */
export function toProjectRecord(row: Models.ProjectModel): ProjectRecord {
  return { ...row, settings: projectSettingsOf(row.settings) };
}

/** The response form of a project; `webhookSecret` never leaves, only `webhookSecretSet`. */
export function toProjectDto(record: ProjectRecord, config: Pick<Config, 'sitesDomain' | 'port'>): Project {
  return {
    id: record.id,
    name: record.name,
    slug: record.slug,
    description: record.description,
    url: projectSiteUrl(config, record.slug),
    ...(record.customDomain ? { customDomain: record.customDomain } : {}),
    repoUrl: record.repoUrl,
    repoBranch: record.repoBranch,
    settings: record.settings,
    webhookSecretSet: Boolean(record.webhookSecret),
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
}

/** Projects held in memory by {@link ProjectCache} (the most recently used are kept). */
const MAX_CACHED_PROJECTS = 10_000;

/**
 * Projects by id with their response form, so a GET of a known project needs no database round
 * trip and no re-rendering. An entry is dropped on `project.changed` (from any process through
 * the event transport) and everything on `reconnected` (events may have been missed). One per app,
 * built by `createAppContext` (`ctx.projects`).
 */
export class ProjectCache {
  private readonly byId = new LRUCache<string, { record: ProjectRecord; dto?: Project }>({ max: MAX_CACHED_PROJECTS });

  constructor(private readonly deps: { db: Db; events: EventBus; config: Pick<Config, 'sitesDomain' | 'port'> }) {
    deps.events.on('project.changed', ({ projectId }) => this.byId.delete(projectId));
    deps.events.on('reconnected', () => this.byId.clear());
  }

  /** The project `projectId` (any organization), or null when there is none. */
  async get(projectId: string): Promise<ProjectRecord | null> {
    const hit = this.byId.get(projectId);
    if (hit) return hit.record;
    const row = await this.deps.db.prisma.project.findUnique({ where: { id: projectId } });
    if (!row) return null;
    const record = toProjectRecord(row);
    this.byId.set(projectId, { record });
    return record;
  }

  /** The project `projectId` when it is in memory, without waiting (undefined: not cached, call {@link get}). */
  cached(projectId: string): ProjectRecord | undefined {
    return this.byId.get(projectId)?.record;
  }

  /** {@link toProjectDto} of `record`, built once while it is the cached record (callers must not mutate it). */
  dto(record: ProjectRecord): Project {
    const entry = this.byId.get(record.id);
    if (entry?.record !== record) return toProjectDto(record, this.deps.config);
    return (entry.dto ??= toProjectDto(record, this.deps.config));
  }
}

/**
 * `record` when the caller may see it (decisions.md section 10: another organization's resources
 * answer 404, never 403, so their existence does not leak).
 * @throws ApiError not_found for a missing record, another organization's project, and a project
 *   outside a project-scoped key's project.
 */
function visibleProject(auth: RequestAuth, projectId: string, record: ProjectRecord | null | undefined): ProjectRecord {
  if (!record || record.orgId !== auth.orgId || (auth.projectId !== null && auth.projectId !== projectId)) {
    throw new ApiError('not_found', `No project ${projectId}.`);
  }
  return record;
}

/**
 * The project `projectId` as the caller may see it (served from memory after the first read).
 * @throws ApiError not_found for unknown or deleted projects, projects of another organization,
 *   and projects outside a project-scoped key's project (never 403, so existence does not leak).
 */
export async function getProjectForCaller(ctx: AppContext, auth: RequestAuth, projectId: string): Promise<ProjectRecord> {
  return visibleProject(auth, projectId, await ctx.projects.get(projectId));
}

/**
 * {@link getProjectForCaller} without a promise when the project is in memory, for code on every
 * request (the API's resource gate, plugins/resource-gate.ts): the record, or a promise of it when
 * it must be read first.
 * @throws ApiError not_found as {@link getProjectForCaller} does (a cached project throws at once,
 *   otherwise the promise rejects).
 */
export function projectForCaller(ctx: AppContext, auth: RequestAuth, projectId: string): ProjectRecord | Promise<ProjectRecord> {
  const hit = ctx.projects.cached(projectId);
  return hit ? visibleProject(auth, projectId, hit) : getProjectForCaller(ctx, auth, projectId);
}

/** 409 `conflict` for a slug another project already has (slugs are unique across the service). */
function slugTaken(slug: string): ApiError {
  return new ApiError('conflict', `The slug "${slug}" is already taken.`, { field: 'slug', issue: 'already exists' });
}

/** The first free slug among `base`, `base-2`, `base-3`, ... (cut so the suffix fits). */
async function freeSlug(db: DbClient, name: string): Promise<string> {
  const base = slugify(name);
  const taken = new Set(
    (await db.project.findMany({ where: { slug: { startsWith: base.slice(0, SLUG_MAX_LENGTH - 4) } }, select: { slug: true } })).map((p) => p.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * Creates a project in the caller's organization (201), audited as `project.created`.
 * @throws ApiError invalid_request (bad repoUrl), conflict (slug taken anywhere in the service),
 *   quota_exceeded (402, the plan's project limit), forbidden for project-scoped keys.
 */
export async function createProject(ctx: AppContext, auth: RequestAuth, body: CreateProjectBody): Promise<ProjectRecord> {
  if (auth.projectId) throw new ApiError('forbidden', 'A key scoped to one project cannot create projects.');
  if (body.repoUrl !== undefined) validateRepoUrl(body.repoUrl, ctx.config);
  if (body.settings?.sourceRepos) validateSourceRepoUrls(body.settings.sourceRepos, ctx.config);
  const settings = { ...DEFAULT_PROJECT_SETTINGS, ...body.settings };
  for (let attempt = 0; ; attempt++) {
    try {
      const row = await ctx.db.prisma.$transaction(async (tx) => {
        // The quota's count and the insert as one step, also with several server processes (db/locks.ts).
        await lockKey(tx, ctx.db.provider, `projects:${auth.orgId}`);
        const org = await tx.organization.findUniqueOrThrow({ where: { id: auth.orgId } });
        const { projectLimit } = planLimits(org, ctx.config);
        const count = await tx.project.count({ where: { orgId: auth.orgId } });
        if (count >= projectLimit) {
          throw new ApiError('quota_exceeded', `The ${org.plan} plan allows ${projectLimit} projects; delete one or change plan.`, { limit: projectLimit, plan: org.plan });
        }
        let slug = body.slug;
        if (slug !== undefined) {
          if (await tx.project.findUnique({ where: { slug }, select: { id: true } })) {
            throw slugTaken(slug);
          }
        } else {
          slug = await freeSlug(tx, body.name);
        }
        const created = await tx.project.create({
          data: {
            id: newId('project'),
            orgId: auth.orgId,
            name: body.name,
            slug,
            description: body.description ?? null,
            repoUrl: body.repoUrl ?? null,
            repoBranch: body.repoBranch,
            settings: JSON.stringify(settings),
            webhookSecret: body.webhookSecret ?? null,
          },
        });
        await recordAudit(tx, {
          orgId: auth.orgId,
          projectId: created.id,
          auth,
          action: 'project.created',
          resource: { type: 'settings', id: created.id, name: created.name },
          metadata: { slug: created.slug, fields: Object.keys(body).filter((k) => body[k as keyof CreateProjectBody] !== undefined) },
        });
        return created;
      });
      ctx.events.emit('project.changed', { projectId: row.id, slug: row.slug });
      return toProjectRecord(row);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // A concurrent create took the slug between our check and insert.
      if (body.slug !== undefined || attempt >= 3) {
        throw slugTaken(body.slug ?? slugify(body.name));
      }
    }
  }
}

/**
 * The caller's projects, newest first, one page. A project-scoped key sees only its project.
 */
export async function listProjects(ctx: AppContext, auth: RequestAuth, page: PageRequest): Promise<{ items: ProjectRecord[]; total: number }> {
  const where = { orgId: auth.orgId, ...(auth.projectId ? { id: auth.projectId } : {}) };
  const [rows, total] = await Promise.all([
    ctx.db.prisma.project.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: page.skip, take: page.take }),
    ctx.db.prisma.project.count({ where }),
  ]);
  return { items: rows.map(toProjectRecord), total };
}

/**
 * Applies a partial update (only given fields change; `settings` merged; `null` clears
 * `description`, `repoUrl`, `webhookSecret`). Audited as `settings.updated` with
 * `metadata.changes` (changed field names; secrets by name only) and `metadata.values` (from/to
 * of non-secret fields). An update that changes nothing writes nothing.
 * @throws ApiError not_found, invalid_request (bad repoUrl), conflict (slug taken).
 */
export async function updateProject(ctx: AppContext, auth: RequestAuth, projectId: string, body: UpdateProjectBody): Promise<ProjectRecord> {
  const current = await getProjectForCaller(ctx, auth, projectId);
  if (body.repoUrl) validateRepoUrl(body.repoUrl, ctx.config);

  const changes: string[] = [];
  const values: Record<string, { from: unknown; to: unknown }> = {};
  const data: Record<string, unknown> = {};
  for (const field of ['name', 'slug', 'description', 'repoUrl', 'repoBranch'] as const) {
    const next = body[field];
    if (next === undefined || next === current[field]) continue;
    data[field] = next;
    changes.push(field);
    values[field] = { from: current[field], to: next };
  }
  const settings = { ...current.settings };
  if (body.settings?.sourceRepos) validateSourceRepoUrls(body.settings.sourceRepos, ctx.config);
  for (const [k, v] of Object.entries(body.settings ?? {}) as [keyof ProjectSettings, ProjectSettings[keyof ProjectSettings] | undefined][]) {
    if (v === undefined || JSON.stringify(v) === JSON.stringify(settings[k])) continue;
    values[`settings.${k}`] = { from: settings[k], to: v };
    changes.push(`settings.${k}`);
    (settings as Record<string, unknown>)[k] = v;
  }
  if (changes.some((c) => c.startsWith('settings.'))) data.settings = JSON.stringify(settings);
  if (body.webhookSecret !== undefined && body.webhookSecret !== current.webhookSecret) {
    data.webhookSecret = body.webhookSecret;
    changes.push('webhookSecret');
  }
  if (changes.length === 0) return current;

  try {
    const row = await ctx.db.prisma.$transaction(async (tx) => {
      if (typeof data.slug === 'string' && (await tx.project.findUnique({ where: { slug: data.slug }, select: { id: true } }))) {
        throw slugTaken(data.slug);
      }
      const updated = await tx.project.update({ where: { id: projectId }, data });
      await recordAudit(tx, {
        orgId: auth.orgId,
        projectId,
        auth,
        action: 'settings.updated',
        resource: { type: 'settings', id: projectId, name: updated.name },
        metadata: { changes, values },
      });
      return updated;
    });
    ctx.events.emit('project.changed', { projectId, slug: row.slug });
    return toProjectRecord(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw slugTaken(String(data.slug));
    throw err;
  }
}

/**
 * Deletes a project with its builds and deployments (204); the site goes offline (listeners of
 * 'project.changed' with `deleted: true`). Audited as `project.deleted`; the audit entries stay.
 * @throws ApiError not_found.
 */
export async function deleteProject(ctx: AppContext, auth: RequestAuth, projectId: string): Promise<void> {
  const current = await getProjectForCaller(ctx, auth, projectId);
  await ctx.db.prisma.$transaction(async (tx) => {
    await tx.project.delete({ where: { id: projectId } });
    await recordAudit(tx, {
      orgId: auth.orgId,
      projectId,
      auth,
      action: 'project.deleted',
      resource: { type: 'settings', id: projectId, name: current.name },
      metadata: { slug: current.slug },
    });
  });
  ctx.events.emit('project.changed', { projectId, slug: current.slug, deleted: true });
}
