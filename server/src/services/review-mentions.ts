/**
 * Who review comments mention (`ReviewMention` rows): written with each comment from its body by
 * the one parser of mentions (shared/src/collab/mentions.ts; `@<email>` or `@<display name>` of a
 * member of the project's organization), so that "Requested from me" (`GET /reviews?requestedFrom=`)
 * and the mentions of a review or comment are queries, not scans of comment bodies.
 */
import { mentionedIds } from '@quire/shared/collab/mentions';
import type { AppContext } from '../context';

type Db = AppContext['db']['prisma'];

/**
 * The members of organization `orgId` that `body` mentions, as user ids in the order first written
 * (unknown mentions are plain text and give nothing).
 */
export async function mentionsIn(db: Db, orgId: string, body: string): Promise<string[]> {
  if (!body.includes('@')) return [];
  const members = await db.membership.findMany({ where: { orgId }, select: { user: { select: { id: true, name: true, email: true } } } });
  return mentionedIds(body, members.map((m) => m.user));
}

/** Records that comment `commentId` of review `reviewId` mentions `userIds` (inside the comment's transaction). */
export async function storeMentions(
  tx: Pick<Db, 'reviewMention'>,
  input: { reviewId: string; commentId: string; userIds: string[]; at: Date },
): Promise<void> {
  if (input.userIds.length === 0) return;
  const { reviewId, commentId, at } = input;
  await tx.reviewMention.createMany({ data: input.userIds.map((userId) => ({ reviewId, commentId, userId, createdAt: at })) });
}

/** The user ids each comment of review `reviewId` mentions, by comment id (ids in the order stored). */
export async function mentionsByComment(db: Db, reviewId: string): Promise<Map<string, string[]>> {
  const rows = await db.reviewMention.findMany({ where: { reviewId }, select: { commentId: true, userId: true }, orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }] });
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.commentId, [...(out.get(r.commentId) ?? []), r.userId]);
  return out;
}

/** The distinct user ids the comments of each review mention, by review id. */
export async function mentionedByReview(db: Db, reviewIds: string[]): Promise<Map<string, string[]>> {
  if (reviewIds.length === 0) return new Map();
  const rows = await db.reviewMention.findMany({
    where: { reviewId: { in: reviewIds } },
    select: { reviewId: true, userId: true },
    distinct: ['reviewId', 'userId'],
    orderBy: [{ reviewId: 'asc' }, { userId: 'asc' }],
  });
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.reviewId, [...(out.get(r.reviewId) ?? []), r.userId]);
  return out;
}
