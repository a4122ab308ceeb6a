/**
 * A project's git credential (decisions.md section 9: "the project's write-only git credential
 * (HTTPS token or SSH deploy key, stored encrypted)"): set, described, removed, and opened for a
 * merge's push. The secret is sealed with AES-256-GCM (git/secret-box.ts) bound to the project and
 * kind, never returned by any route and never written to the audit log (`git_credential.updated`
 * and `git_credential.deleted` record the kind only).
 */
import { ApiError } from '@quire/shared/errors';
import { DEFAULT_HTTPS_USERNAME, type GitCredentialBody, type GitCredentialStatus } from '@quire/shared/api/git-credential';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import type { GitPushCredential } from '../git/push-credential';
import { openSecret, sealSecret, secretKeyOf, SecretBoxError } from '../git/secret-box';
import { recordAudit } from './audit';
import { getProjectForCaller } from './projects';

export type { GitPushCredential } from '../git/push-credential';

/** The sealing context: a sealed secret opens only for its project and kind. */
function sealContext(projectId: string, kind: string): string {
  return `git-credential/${projectId}/${kind}`;
}

function statusOf(row: { kind: string; username: string | null; updatedAt: Date } | null): GitCredentialStatus {
  if (!row) return { set: false };
  return {
    set: true,
    kind: row.kind as 'https_token' | 'ssh_key',
    ...(row.kind === 'https_token' ? { username: row.username ?? DEFAULT_HTTPS_USERNAME } : {}),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Whether the project has a credential, its kind and HTTPS user name; never the secret. @throws ApiError not_found. */
export async function getGitCredentialStatus(ctx: AppContext, auth: RequestAuth, projectId: string): Promise<GitCredentialStatus> {
  await getProjectForCaller(ctx, auth, projectId);
  const row = await ctx.db.prisma.gitCredential.findUnique({ where: { projectId }, select: { kind: true, username: true, updatedAt: true } });
  return statusOf(row);
}

/**
 * Sets (or replaces) the project's credential, sealed; audited as `git_credential.updated` with the
 * kind (and whether it replaced one), never the secret.
 * @returns the new status. @throws ApiError not_found.
 */
export async function putGitCredential(ctx: AppContext, auth: RequestAuth, projectId: string, body: GitCredentialBody): Promise<GitCredentialStatus> {
  await getProjectForCaller(ctx, auth, projectId);
  const secret = body.kind === 'https_token' ? body.token : body.privateKey;
  const username = body.kind === 'https_token' ? (body.username ?? DEFAULT_HTTPS_USERNAME) : null;
  const sealed = sealSecret(secretKeyOf(ctx.config), secret, sealContext(projectId, body.kind));
  const row = await ctx.db.prisma.$transaction(async (tx) => {
    const before = await tx.gitCredential.findUnique({ where: { projectId }, select: { kind: true } });
    const saved = await tx.gitCredential.upsert({
      where: { projectId },
      create: { projectId, kind: body.kind, username, secret: sealed },
      update: { kind: body.kind, username, secret: sealed },
    });
    await recordAudit(tx, {
      orgId: auth.orgId,
      projectId,
      auth,
      action: 'git_credential.updated',
      resource: { type: 'git_credential', id: projectId },
      metadata: { kind: body.kind, replaced: before !== null },
    });
    return saved;
  });
  return statusOf(row);
}

/** Removes the project's credential; audited as `git_credential.deleted`. @throws ApiError not_found (also when none is set). */
export async function deleteGitCredential(ctx: AppContext, auth: RequestAuth, projectId: string): Promise<void> {
  await getProjectForCaller(ctx, auth, projectId);
  await ctx.db.prisma.$transaction(async (tx) => {
    const removed = await tx.gitCredential.deleteMany({ where: { projectId } });
    if (removed.count === 0) throw new ApiError('not_found', 'The project has no git credential.');
    await recordAudit(tx, { orgId: auth.orgId, projectId, auth, action: 'git_credential.deleted', resource: { type: 'git_credential', id: projectId } });
  });
}

/**
 * The project's opened credential for a push, or null when none is set. Internal: callers check
 * the project's access first; the value must never reach a response, a log or an error.
 * @throws ApiError `service_unavailable` when the stored secret cannot be opened (the installation's
 *   secret key changed: set the credential again).
 */
export async function loadGitCredential(ctx: AppContext, projectId: string): Promise<GitPushCredential | null> {
  const row = await ctx.db.prisma.gitCredential.findUnique({ where: { projectId } });
  if (!row) return null;
  let secret: string;
  try {
    secret = openSecret(secretKeyOf(ctx.config), row.secret, sealContext(projectId, row.kind));
  } catch (err) {
    if (!(err instanceof SecretBoxError)) throw err;
    throw new ApiError(
      'service_unavailable',
      "The project's git credential cannot be decrypted with this installation's secret key (QUIRE_SECRET_KEY or <data dir>/secret-key); set the credential again.",
    );
  }
  return row.kind === 'ssh_key'
    ? { kind: 'ssh_key', privateKey: secret }
    : { kind: 'https_token', username: row.username ?? DEFAULT_HTTPS_USERNAME, token: secret };
}
