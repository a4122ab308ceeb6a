/**
 * `sync.pull`: what changed since a cursor, for the desktop app's offline copy (decisions.md
 * section 9). Returns the reviews of the caller's organization's projects (or of the projects
 * given) whose `updatedAt` is at or after the cursor's time: a new review, an edit, a status move,
 * a merge and a new comment all move `updatedAt` (review-comments.ts bumps it). Each review comes
 * as a {@link ReviewSnapshot}: the REST review, its comments (with `outdated`), and each changed
 * file's content before (at the base commit) and after (the change set), each side capped at
 * {@link SNAPSHOT_FILE_CAP_BYTES} (null beyond, with `truncated`). A binary file (base64 in the change
 * set, or a base version that is not text) comes with `binary`, `encoding: 'base64'` (both sides are
 * base64) and the bytes of each side (shared/src/sync/mutations.ts `ReviewSnapshotFile`).
 *
 * The cursor is opaque to clients: base64url of `{t, id?}`. A caught-up answer's cursor is the
 * time the query started minus {@link CURSOR_OVERLAP_MS}, so a transaction that stamped its
 * `updatedAt` before the query but committed after it is still seen next time (the client
 * de-duplicates by id and `updatedAt`). A page cut at {@link PULL_PAGE_SIZE} reviews gives the
 * keyset `(updatedAt, id)` of its last review instead, and the next pull continues after it.
 * A null cursor starts over: the newest {@link FIRST_PULL_PER_PROJECT} reviews of each project.
 * Reviews are never deleted one by one (a project's deletion takes its reviews), so
 * `removedReviewIds` lists nothing today; it is there for the desktop to drop what it holds.
 */
import { ApiError, invalidField } from '@quire/shared/errors';
import type { ReviewSnapshot, ReviewSnapshotFile, SyncPullInput, SyncPullResult } from '@quire/shared/sync/mutations';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import { encodeBase64 } from '@quire/shared/base64';
import { bytesAsText, changeEntryBytes } from '@quire/shared/collab/change-set';
import { readFileBytesAt } from '../git/repo-reader';
import { getProjectForCaller, type ProjectRecord } from './projects';
import { repoOf } from './reviews';
import { REVIEW_INCLUDE, toReviewDtos, type ReviewWithParts } from './review-dto';
import { listReviewComments } from './review-comments';

/** How far back (milliseconds) a caught-up cursor reaches before the time of the query it answers. */
export const CURSOR_OVERLAP_MS = 5_000;
/** The most reviews one pull returns (the cursor then continues after the last one). */
export const PULL_PAGE_SIZE = 100;
/** A first pull (null cursor) returns at most this many reviews of each project, the most recently changed. */
export const FIRST_PULL_PER_PROJECT = 200;
/** The largest file content (bytes of the file) a snapshot carries; a larger side is null with `truncated`. */
export const SNAPSHOT_FILE_CAP_BYTES = 2 * 1024 * 1024;

interface Cursor {
  /** milliseconds since the epoch */
  t: number;
  /** with a cut page: the id of the last review returned at `t` */
  id?: string;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

/** @throws ApiError invalid_request (field `cursor`) for a cursor this server did not give. */
function decodeCursor(text: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor;
    if (typeof value.t === 'number' && Number.isFinite(value.t) && (value.id === undefined || typeof value.id === 'string')) return value;
  } catch {
    // fall through
  }
  throw invalidField('cursor', 'is not a cursor this server gave; pull with cursor null to start over');
}

/**
 * The reviews changed since `input.cursor` (see the module comment).
 * @throws ApiError not_found for a given project the caller cannot see; invalid_request for a bad
 *   cursor; service_unavailable when a repository cannot be read.
 */
export async function pullSyncChanges(ctx: AppContext, auth: RequestAuth, input: SyncPullInput): Promise<SyncPullResult> {
  const started = Date.now();
  const projects = await projectsFor(ctx, auth, input.projectIds);
  const byId = new Map(projects.map((p) => [p.id, p]));
  const projectIds = [...byId.keys()];
  let rows: ReviewWithParts[];
  let cursor: Cursor;
  if (input.cursor === null) {
    rows = [];
    for (const projectId of projectIds) {
      rows.push(...(await ctx.db.prisma.review.findMany({ where: { projectId }, include: REVIEW_INCLUDE, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], take: FIRST_PULL_PER_PROJECT })));
    }
    cursor = { t: started - CURSOR_OVERLAP_MS };
  } else {
    const since = decodeCursor(input.cursor);
    const at = new Date(since.t);
    const after = since.id === undefined ? { updatedAt: { gte: at } } : { OR: [{ updatedAt: { gt: at } }, { updatedAt: at, id: { gt: since.id } }] };
    rows = await ctx.db.prisma.review.findMany({
      where: { projectId: { in: projectIds }, ...after },
      include: REVIEW_INCLUDE,
      orderBy: [{ updatedAt: 'asc' }, { id: 'asc' }],
      take: PULL_PAGE_SIZE,
    });
    const last = rows[rows.length - 1];
    cursor = rows.length === PULL_PAGE_SIZE && last ? { t: last.updatedAt.getTime(), id: last.id } : { t: Math.max(since.t, started - CURSOR_OVERLAP_MS) };
  }
  const reviews: ReviewSnapshot[] = [];
  for (const row of rows) reviews.push(await snapshotOf(ctx, auth, byId.get(row.projectId)!, row));
  return { cursor: encodeCursor(cursor), reviews, removedReviewIds: [] };
}

/**
 * The projects a pull covers: the given ones (each checked, 404 otherwise) or every project of the caller's organization (or its
 * one project for a project-scoped caller).
 */
async function projectsFor(ctx: AppContext, auth: RequestAuth, ids: string[] | undefined): Promise<ProjectRecord[]> {
  const wanted = ids ?? (auth.projectId ? [auth.projectId] : (await ctx.db.prisma.project.findMany({ where: { orgId: auth.orgId }, select: { id: true }, orderBy: { id: 'asc' } })).map((p) => p.id));
  const out: ProjectRecord[] = [];
  for (const id of new Set(wanted)) out.push(await getProjectForCaller(ctx, auth, id));
  return out;
}

/** A review with its comments and the before/after contents of its changed files. */
async function snapshotOf(ctx: AppContext, auth: RequestAuth, project: ProjectRecord, row: ReviewWithParts): Promise<ReviewSnapshot> {
  const [review] = await toReviewDtos(ctx, project, [row]);
  const comments = await listReviewComments(ctx, auth, project.id, row.id);
  const contents = await ctx.db.prisma.reviewFile.findMany({ where: { reviewId: row.id }, select: { path: true, change: true, content: true, encoding: true }, orderBy: { path: 'asc' } });
  const files: ReviewSnapshotFile[] = [];
  for (const f of contents) {
    let truncated = false;
    const cap = (bytes: Uint8Array | null): Uint8Array | null => {
      if (bytes !== null && bytes.length > SNAPSHOT_FILE_CAP_BYTES) {
        truncated = true;
        return null;
      }
      return bytes;
    };
    const before = f.change === 'added' ? null : cap(await baseBytes(ctx, project, row.baseCommit, f.path, () => (truncated = true)));
    const afterBytes = f.content === null ? null : changeEntryBytes({ content: f.content, encoding: f.encoding === 'base64' ? 'base64' : 'utf-8' });
    const after = cap(afterBytes);
    const change = f.change as ReviewSnapshotFile['change'];
    const binary = f.encoding === 'base64' || (before !== null && bytesAsText(before) === null);
    const sides = binary
      ? {
          before: before && encodeBase64(before),
          after: after && encodeBase64(after),
          binary: true as const,
          encoding: 'base64' as const,
          beforeSize: before?.length ?? null,
          afterSize: afterBytes?.length ?? null,
        }
      : { before: before && bytesAsText(before), after: after === null ? null : f.content };
    files.push({ path: f.path, change, ...sides, ...(truncated ? { truncated } : {}) });
  }
  return { review: review!, comments, files };
}

/** A file's bytes at the base commit; a file too large to read counts as past the cap (`onTooLarge`, null). */
async function baseBytes(ctx: AppContext, project: ProjectRecord, commit: string, path: string, onTooLarge: () => void): Promise<Uint8Array | null> {
  try {
    return await readFileBytesAt(ctx, repoOf(project), commit, path);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'payload_too_large') {
      onTooLarge();
      return null;
    }
    throw err;
  }
}
