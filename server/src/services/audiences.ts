/**
 * Audience profiles (interface-spec.md "Audience profile", "Endpoints > Audience profiles",
 * "Errors"): the named sets of audience tags that tokens open. Create, list, get, partial update
 * (slug immutable, tags replaced, never empty), delete (its tokens die at once), and token
 * generation with the magic link (decisions.md section 6; signing in services/audience-tokens.ts).
 * Every change is audited in its transaction (`audience.created`, `audience.updated`,
 * `audience.deleted`, `audience.token_created`; resource type `audience`) and then announced as
 * `audience.changed`, so token verification caches of every process drop the profile at once.
 */
import { ApiError } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import {
  audienceSlugIssue,
  MAGIC_LINK_PARAMETER,
  type AudienceProfile,
  type AudienceTokenResult,
  type CreateAudienceProfileBody,
  type CreateAudienceTokenBody,
  type DeletedAudienceProfile,
  type UpdateAudienceProfileBody,
} from '@quire/shared/api/audiences';
import type { Config } from '../env';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import type { RequestAuth } from '../access/request-auth';
import { isUniqueViolation } from '../db/errors';
import { parseStringList } from '../db/json-columns';
import { recordAudit } from './audit';
import { expiryFrom } from './api-keys';
import { getProjectForCaller, projectSiteUrl, type ProjectRecord } from './projects';
import { issueAudienceToken } from './audience-tokens';
import { parseReaderClaims } from '@quire/shared/site/personalisation';

/** The response form of a profile row. */
export function toAudienceProfileDto(row: Models.AudienceProfileModel): AudienceProfile {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    audiences: parseStringList(row.audiences) ?? [],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** 404 `profile_not_found` for `profileId`. */
function profileNotFound(profileId: string): ApiError {
  return new ApiError('profile_not_found', `No audience profile ${profileId} in this project.`);
}

/**
 * The tags to store: each given tag once (first occurrence first; the schema already trimmed them).
 * @throws ApiError empty_audiences (422) when `audiences` is missing, null or empty (spec "Errors").
 */
function tagsToStore(audiences: string[] | null | undefined): string[] {
  if (!audiences || audiences.length === 0) {
    throw new ApiError('empty_audiences', 'audiences: give at least one audience tag.', { field: 'audiences', issue: 'must hold at least one tag' });
  }
  return [...new Set(audiences)];
}

/** The profile `profileId` of the project, or 404 `profile_not_found`. */
async function findProfile(ctx: AppContext, projectId: string, profileId: string): Promise<Models.AudienceProfileModel> {
  const row = await ctx.db.prisma.audienceProfile.findFirst({ where: { id: profileId, projectId } });
  if (!row) throw profileNotFound(profileId);
  return row;
}

/** Every profile of the project, oldest first (not paginated: spec "Limits", unpaginated lists). @throws ApiError not_found. */
export async function listAudienceProfiles(ctx: AppContext, auth: RequestAuth, projectId: string): Promise<AudienceProfile[]> {
  await getProjectForCaller(ctx, auth, projectId);
  const rows = await ctx.db.prisma.audienceProfile.findMany({ where: { projectId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map(toAudienceProfileDto);
}

/** One profile. @throws ApiError not_found (project), profile_not_found. */
export async function getAudienceProfile(ctx: AppContext, auth: RequestAuth, projectId: string, profileId: string): Promise<AudienceProfile> {
  await getProjectForCaller(ctx, auth, projectId);
  return toAudienceProfileDto(await findProfile(ctx, projectId, profileId));
}

/**
 * Creates a profile; audited as `audience.created` (metadata: slug, audiences).
 * @throws ApiError not_found (project), invalid_slug (400), empty_audiences (422), slug_exists (409),
 *   checked in that order.
 */
export async function createAudienceProfile(ctx: AppContext, auth: RequestAuth, projectId: string, body: CreateAudienceProfileBody): Promise<AudienceProfile> {
  await getProjectForCaller(ctx, auth, projectId);
  const slugIssue = audienceSlugIssue(body.slug);
  if (slugIssue) throw new ApiError('invalid_slug', `slug: ${slugIssue}.`, { field: 'slug', issue: slugIssue });
  const tags = tagsToStore(body.audiences);
  const slugExists = () => new ApiError('slug_exists', `An audience profile with the slug "${body.slug}" already exists in this project.`, { field: 'slug', issue: 'already exists' });
  try {
    const row = await ctx.db.prisma.$transaction(async (tx) => {
      if (await tx.audienceProfile.findUnique({ where: { projectId_slug: { projectId, slug: body.slug } }, select: { id: true } })) throw slugExists();
      const created = await tx.audienceProfile.create({
        data: { id: newId('audience'), projectId, name: body.name, slug: body.slug, description: body.description ?? null, audiences: JSON.stringify(tags) },
      });
      await recordAudit(tx, {
        orgId: auth.orgId,
        projectId,
        auth,
        action: 'audience.created',
        resource: { type: 'audience', id: created.id, name: created.name },
        metadata: { slug: created.slug, audiences: tags },
      });
      return created;
    });
    ctx.events.emit('audience.changed', { projectId, profileId: row.id });
    return toAudienceProfileDto(row);
  } catch (err) {
    // A concurrent create took the slug between our check and insert.
    if (isUniqueViolation(err)) throw slugExists();
    throw err;
  }
}

/**
 * Applies a partial update: `name`, `description` (null clears), `audiences` (replaces every tag).
 * A `slug` equal to the current one changes nothing; another value is refused. Audited as
 * `audience.updated` with `metadata.changes` (field names) and `metadata.values` (from/to); an update
 * that changes nothing writes nothing and is not audited. The profile's tokens open the new tags at once.
 * @throws ApiError not_found (project), profile_not_found, slug_immutable (422), empty_audiences (422),
 *   checked in that order.
 */
export async function updateAudienceProfile(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  profileId: string,
  body: UpdateAudienceProfileBody,
): Promise<AudienceProfile> {
  await getProjectForCaller(ctx, auth, projectId);
  const before = await findProfile(ctx, projectId, profileId);
  if (body.slug !== undefined && body.slug !== before.slug) {
    throw new ApiError('slug_immutable', `slug: an audience profile's slug cannot change (it is "${before.slug}").`, { field: 'slug', issue: 'is immutable' });
  }
  const tags = body.audiences === undefined ? undefined : tagsToStore(body.audiences);
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    const current = await tx.audienceProfile.findFirst({ where: { id: profileId, projectId } });
    if (!current) throw profileNotFound(profileId);
    const currentTags = parseStringList(current.audiences) ?? [];
    const changes: string[] = [];
    const values: Record<string, { from: unknown; to: unknown }> = {};
    const data: { name?: string; description?: string | null; audiences?: string } = {};
    if (body.name !== undefined && body.name !== current.name) {
      data.name = body.name;
      values.name = { from: current.name, to: body.name };
    }
    if (body.description !== undefined && body.description !== current.description) {
      data.description = body.description;
      values.description = { from: current.description, to: body.description };
    }
    if (tags !== undefined && JSON.stringify(tags) !== JSON.stringify(currentTags)) {
      data.audiences = JSON.stringify(tags);
      values.audiences = { from: currentTags, to: tags };
    }
    changes.push(...Object.keys(values));
    if (changes.length === 0) return null;
    // Conditional, so a profile deleted meanwhile (by another request) is a 404, not a 500.
    if ((await tx.audienceProfile.updateMany({ where: { id: profileId, projectId }, data })).count === 0) throw profileNotFound(profileId);
    const updated = await tx.audienceProfile.findFirstOrThrow({ where: { id: profileId } });
    await recordAudit(tx, {
      orgId: auth.orgId,
      projectId,
      auth,
      action: 'audience.updated',
      resource: { type: 'audience', id: profileId, name: updated.name },
      metadata: { slug: updated.slug, changes, values },
    });
    return updated;
  });
  if (!row) return toAudienceProfileDto(before);
  ctx.events.emit('audience.changed', { projectId, profileId });
  return toAudienceProfileDto(row);
}

/**
 * Deletes a profile and with it every token issued for it (they stop working at once, in every
 * process). Audited as `audience.deleted` (metadata: slug).
 * @returns the spec's confirmation `{deleted: true, id}`. @throws ApiError not_found (project), profile_not_found.
 */
export async function deleteAudienceProfile(ctx: AppContext, auth: RequestAuth, projectId: string, profileId: string): Promise<DeletedAudienceProfile> {
  await getProjectForCaller(ctx, auth, projectId);
  await ctx.db.prisma.$transaction(async (tx) => {
    const current = await tx.audienceProfile.findFirst({ where: { id: profileId, projectId }, select: { name: true, slug: true } });
    if (!current) throw profileNotFound(profileId);
    if ((await tx.audienceProfile.deleteMany({ where: { id: profileId, projectId } })).count === 0) throw profileNotFound(profileId);
    await recordAudit(tx, {
      orgId: auth.orgId,
      projectId,
      auth,
      action: 'audience.deleted',
      resource: { type: 'audience', id: profileId, name: current.name },
      metadata: { slug: current.slug },
    });
  });
  ctx.events.emit('audience.changed', { projectId, profileId });
  return { deleted: true, id: profileId };
}

/**
 * The address magic links point at: the project's active custom domain when it has one
 * (`http://<domain>/`: port 80 is where verification proved the domain reaches this installation,
 * services/domains.ts), else its production site `http://<slug>-docs.<sites domain>[:port]/` ({@link projectSiteUrl}).
 */
export function magicLinkBase(config: Pick<Config, 'sitesDomain' | 'port'>, project: Pick<ProjectRecord, 'slug' | 'customDomain'>): string {
  return project.customDomain ? `http://${project.customDomain}/` : projectSiteUrl(config, project.slug);
}

/**
 * Generates a token for a profile (spec "Audience access token (generation result)"): signed,
 * expiring after `expiresIn` (`30d`, `90d`, `1y` = 365 days, or `never`), recorded, audited as
 * `audience.token_created` without the token. The token is in this result only. `claims` (the
 * reader's name, plan, playground inputs: shared/src/site/personalisation.ts) are signed into it.
 * @returns `{token, magicLink, expiresAt, audiences, label}`; `magicLink` is
 *   `<site>/?_quire_token=<token>` (decisions.md section 6).
 * @throws ApiError not_found (project), profile_not_found; invalid_request for malformed `claims`.
 */
export async function createAudienceToken(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  profileId: string,
  body: CreateAudienceTokenBody,
): Promise<AudienceTokenResult> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const label = body.label ? body.label : null;
  const claims = body.claims === undefined ? undefined : parseReaderClaims(body.claims);
  if (claims && 'error' in claims) throw new ApiError('invalid_request', `${claims.error}.`, { field: 'claims', issue: claims.error });
  const issued = await issueAudienceToken(ctx, {
    orgId: auth.orgId,
    projectId,
    profileId,
    expiresAt: expiryFrom(body.expiresIn),
    label,
    auth,
    metadata: { expiresIn: body.expiresIn },
    ...(claims ? { claims } : {}),
  });
  const link = new URL(magicLinkBase(ctx.config, project));
  link.searchParams.set(MAGIC_LINK_PARAMETER, issued.token);
  return { token: issued.token, magicLink: link.toString(), expiresAt: issued.expiresAt?.toISOString() ?? null, audiences: issued.tags, label };
}
