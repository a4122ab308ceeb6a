/**
 * Preview links (interface-spec.md "Collaboration": `GET, POST /previews` "optionally
 * password-protected or expiring", `PATCH /previews/{previewId}` "update or revoke"; decisions.md
 * section 9: "Preview links may carry a password and an expiry"; section 2: reads need
 * `projects:read`, writes `projects:write`).
 *
 * A link opens one preview channel of the project (`pr-12`, `feature-x`: the preview site
 * `<previewName>--<slug>-docs.<sites domain>`) through `<preview site>/_quire/link/<token>`. The
 * token is shown once, in the create response; only its SHA-256 is stored
 * (access/preview-links.ts), the password only as an scrypt hash (services/passwords.ts). A link is
 * `active`, `expired` (past `expiresAt`) or `revoked` (final). Changes are audited as
 * `preview_link.created|updated|revoked`.
 */
import { ApiError, invalidField } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import {
  PREVIEW_LINK_LIFETIMES,
  type CreatedPreviewLink,
  type PreviewLink,
  type PreviewLinkBody,
  type PreviewLinkFilters,
  type PreviewLinkLifetime,
  type PreviewLinkPatch,
} from '@quire/shared/api/access';
import type { Prisma } from '../db/generated/client';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import type { RequestAuth } from '../access/request-auth';
import type { PageRequest } from '@quire/shared/api/common';
import { newPreviewLinkToken, previewLinkState } from '../access/preview-links';
import { previewSiteUrl } from '../deployments/site-host';
import { hashPassword } from './passwords';
import { getProjectForCaller, projectSiteUrl, type ProjectRecord } from './projects';
import { recordAudit } from './audit';

type LinkRow = Models.PreviewLinkModel;

/** The preview site of a channel, e.g. `http://feature-x--acme-docs.localhost:4000/`. */
function previewUrlOf(ctx: AppContext, project: Pick<ProjectRecord, 'slug'>, previewName: string): string {
  return previewSiteUrl(projectSiteUrl(ctx.config, project.slug), previewName);
}

/** The REST form of a link (never its token or password hash). */
export function toPreviewLinkDto(row: LinkRow, previewUrl: string, now = Date.now()): PreviewLink {
  return {
    id: row.id,
    previewName: row.previewName,
    previewUrl,
    label: row.label,
    hasPassword: row.passwordHash !== null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revoked: row.revokedAt !== null,
    state: previewLinkState(row, now),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The expiry a body asks for: `expiresIn` from now, `expiresAt` as given (null: never), or
 * undefined when it names none.
 * @throws ApiError invalid_request naming `expiresAt` when it is not in the future.
 */
function expiryOf(body: { expiresAt?: string | null; expiresIn?: PreviewLinkLifetime }, now: number): Date | null | undefined {
  if (body.expiresIn !== undefined) return new Date(now + PREVIEW_LINK_LIFETIMES[body.expiresIn]);
  if (body.expiresAt === undefined || body.expiresAt === null) return body.expiresAt;
  const at = new Date(body.expiresAt);
  if (at.getTime() <= now) throw invalidField('expiresAt', 'must be in the future', `expiresAt: ${body.expiresAt} is not in the future.`);
  return at;
}

/**
 * Creates a link to a preview channel that has a deployment; audited as `preview_link.created`
 * (without the token or the password). From then on the preview opens only through a link or a
 * member pass, whatever the project's `protectPreviews` (decisions.md section 11).
 * @returns the link with `url` = `<preview site>/_quire/link/<token>`, the only time the token is shown.
 * @throws ApiError not_found (project; or no preview deployment named `previewName`, with
 *   `details.field: "previewName"`); invalid_request naming `expiresAt` when it is not in the future.
 */
export async function createPreviewLink(ctx: AppContext, auth: RequestAuth, projectId: string, body: PreviewLinkBody): Promise<CreatedPreviewLink> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const now = Date.now();
  const expiresAt = expiryOf(body, now) ?? null;
  const deployed = await ctx.db.prisma.deployment.findFirst({ where: { projectId, kind: 'preview', previewName: body.previewName }, select: { id: true } });
  if (!deployed) {
    throw new ApiError('not_found', `The project has no preview "${body.previewName}" (no preview deployment by that name).`, { field: 'previewName' });
  }
  const passwordHash = body.password !== undefined ? await hashPassword(body.password) : null;
  const { token, tokenHash } = newPreviewLinkToken();
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    const created = await tx.previewLink.create({
      data: { id: newId('previewLink'), projectId, previewName: body.previewName, tokenHash, label: body.label ?? null, passwordHash, expiresAt, createdById: auth.userId },
    });
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: 'preview_link.created',
      resource: { type: 'preview_link', id: created.id, name: created.label ?? created.previewName },
      metadata: { previewName: body.previewName, hasPassword: passwordHash !== null, expiresAt: expiresAt?.toISOString() ?? null },
    });
    return created;
  });
  // Site hosts cache whether a preview has links: from now on it opens only through one (decisions.md section 11).
  ctx.events.emit('access.changed', { projectId });
  const previewUrl = previewUrlOf(ctx, project, row.previewName);
  return { ...toPreviewLinkDto(row, previewUrl, now), url: `${previewUrl}_quire/link/${token}` };
}

/** The `where` of a state filter at `now`. */
function stateWhere(state: PreviewLinkFilters['state'], now: Date): Prisma.PreviewLinkWhereInput {
  switch (state) {
    case 'revoked':
      return { revokedAt: { not: null } };
    case 'expired':
      return { revokedAt: null, expiresAt: { lte: now } };
    case 'active':
      return { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
    default:
      return {};
  }
}

/**
 * One page of the project's links, newest first (never their tokens).
 * @throws ApiError not_found (project unknown or not the caller's).
 */
export async function listPreviewLinks(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  filters: PreviewLinkFilters,
  page: PageRequest,
): Promise<{ items: PreviewLink[]; total: number }> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const now = new Date();
  const where: Prisma.PreviewLinkWhereInput = {
    projectId,
    ...(filters.previewName ? { previewName: filters.previewName } : {}),
    ...stateWhere(filters.state, now),
  };
  const [rows, total] = await Promise.all([
    ctx.db.prisma.previewLink.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: page.skip, take: page.take }),
    ctx.db.prisma.previewLink.count({ where }),
  ]);
  return { items: rows.map((row) => toPreviewLinkDto(row, previewUrlOf(ctx, project, row.previewName), now.getTime())), total };
}

/**
 * Changes a link's label, expiry or password (null removes each), or revokes it (`revoked: true`,
 * final: a revoked link changes no more). Audited as `preview_link.revoked` when revoking, else
 * `preview_link.updated` with the changed field names (never the password).
 * @throws ApiError not_found; conflict for a revoked link; invalid_request naming `expiresAt` when
 *   it is not in the future.
 */
export async function updatePreviewLink(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  previewId: string,
  patch: PreviewLinkPatch,
): Promise<PreviewLink> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const now = Date.now();
  const before = await ctx.db.prisma.previewLink.findFirst({ where: { id: previewId, projectId } });
  if (!before) throw new ApiError('not_found', `No preview link ${previewId} in this project.`);
  if (before.revokedAt) throw new ApiError('conflict', `Preview link ${previewId} is revoked; create a new link instead.`);
  const expiresAt = expiryOf(patch, now);
  const passwordHash = patch.password === undefined ? undefined : patch.password === null ? null : await hashPassword(patch.password);
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    const changed = await tx.previewLink.updateMany({
      where: { id: previewId, revokedAt: null },
      data: {
        ...(patch.label !== undefined ? { label: patch.label } : {}),
        ...(expiresAt !== undefined ? { expiresAt } : {}),
        ...(passwordHash !== undefined ? { passwordHash } : {}),
        ...(patch.revoked ? { revokedAt: new Date(now) } : {}),
      },
    });
    if (changed.count === 0) throw new ApiError('conflict', `Preview link ${previewId} is revoked; create a new link instead.`);
    const updated = await tx.previewLink.findUniqueOrThrow({ where: { id: previewId } });
    const changes = Object.entries(patch)
      .filter(([, v]) => v !== undefined)
      .map(([k]) => (k === 'expiresIn' ? 'expiresAt' : k))
      .filter((k) => k !== 'revoked');
    await recordAudit(tx, {
      orgId: project.orgId,
      projectId,
      auth,
      action: patch.revoked ? 'preview_link.revoked' : 'preview_link.updated',
      resource: { type: 'preview_link', id: previewId, name: updated.label ?? updated.previewName },
      metadata: { previewName: updated.previewName, changes },
    });
    return updated;
  });
  // Site hosts cache link states: a revoked or changed link must stop (or start) opening its preview at once.
  ctx.events.emit('access.changed', { projectId });
  return toPreviewLinkDto(row, previewUrlOf(ctx, project, row.previewName), now);
}
