/**
 * Conversations of site visitors with the assistant (interface-spec.md "Chat session and message",
 * "Chat conversation history"): `ChatSession` rows owned by a project and the visitor id that
 * started them, and their `ChatMessage`s. A conversation is returned only to its own project and
 * visitor; anything else reads as missing. Lists: at most {@link MAX_SESSIONS_LISTED} sessions,
 * newest first; a transcript holds the latest {@link MAX_MESSAGES_LISTED} messages, oldest first.
 */
import { randomUUID } from 'node:crypto';
import { MAX_MESSAGES_LISTED, MAX_SESSIONS_LISTED, MAX_VISITOR_ID, type ChatMessage, type ChatSession, type ChatSource } from '@quire/shared/api/chat';
import { ApiError } from '@quire/shared/errors';
import { findUnstorableText } from '@quire/shared/text';
import type { AppContext } from '../context';
import type { DbClient } from '../services/audit';
import { nextStamp } from '../db/stamps';

/** Most characters of a session title (the first question, cut at a word). */
export const MAX_TITLE = 120;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID (any version, as the spec's "sessionId UUID"). */
export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}

/**
 * Checks a history request's `visitorId` (interface-spec.md "Chat conversation history": required,
 * at most {@link MAX_VISITOR_ID} characters).
 * @throws ApiError `INVALID_REQUEST` (upper-case, as the spec gives it for these routes) with
 *   `details: {field: 'visitorId', issue}`.
 */
export function historyVisitorId(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ApiError('INVALID_REQUEST', 'visitorId: is required', { field: 'visitorId', issue: 'is required' });
  if (value.length > MAX_VISITOR_ID) throw new ApiError('INVALID_REQUEST', `visitorId: must be at most ${MAX_VISITOR_ID} characters`, { field: 'visitorId', issue: `must be at most ${MAX_VISITOR_ID} characters` });
  const bad = findUnstorableText(value);
  if (bad) throw new ApiError('INVALID_REQUEST', `visitorId: ${bad.issue}`, { field: 'visitorId', issue: bad.issue });
  return value;
}

/** A title from a conversation's first question: spaces collapsed, at most {@link MAX_TITLE} characters. */
export function titleOf(question: string): string {
  const text = question.replace(/\s+/g, ' ').trim();
  if (text.length <= MAX_TITLE) return text;
  const cut = text.slice(0, MAX_TITLE - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_TITLE / 2 ? cut.slice(0, space) : cut).replace(/[\uD800-\uDBFF]$/, '')}…`;
}

/** A stored message as the API shows it (`sources` on assistant messages that cite any). */
function messageOf(row: { id: string; role: string; content: string; sources: string; createdAt: Date }): ChatMessage {
  const sources = row.role === 'assistant' ? parseSources(row.sources) : [];
  return { id: row.id, role: row.role as ChatMessage['role'], content: row.content, createdAt: row.createdAt.toISOString(), ...(sources.length ? { sources } : {}) };
}

function parseSources(json: string): ChatSource[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as ChatSource[]) : [];
  } catch {
    return [];
  }
}

/**
 * The visitor's sessions of a project, newest first, at most {@link MAX_SESSIONS_LISTED}.
 * @throws Error when the database fails.
 */
export async function listSessions(ctx: Pick<AppContext, 'db'>, projectId: string, visitorId: string): Promise<ChatSession[]> {
  const rows = await ctx.db.prisma.chatSession.findMany({
    where: { projectId, visitorId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: MAX_SESSIONS_LISTED,
    select: { id: true, title: true, createdAt: true, updatedAt: true },
  });
  return rows.map((r) => ({ id: r.id, title: r.title, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString() }));
}

/**
 * The messages of a session, oldest first: the latest {@link MAX_MESSAGES_LISTED}.
 * @throws ApiError `NOT_FOUND` (upper-case, interface-spec.md "Chat conversation history") when
 *   the session does not exist or belongs to another project or visitor.
 */
export async function sessionTranscript(ctx: Pick<AppContext, 'db'>, projectId: string, visitorId: string, sessionId: string): Promise<ChatMessage[]> {
  const session = await ctx.db.prisma.chatSession.findFirst({ where: { id: sessionId, projectId, visitorId }, select: { id: true } });
  if (!session) throw new ApiError('NOT_FOUND', 'No such conversation for this visitor.');
  const rows = await ctx.db.prisma.chatMessage.findMany({
    where: { sessionId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: MAX_MESSAGES_LISTED,
    select: { id: true, role: true, content: true, sources: true, createdAt: true },
  });
  return rows.reverse().map(messageOf);
}

/** The earlier turns of a session for the LLM's context: the last `max` messages, oldest first. */
export async function recentTurns(ctx: Pick<AppContext, 'db'>, sessionId: string, max: number): Promise<{ role: 'user' | 'assistant'; content: string }[]> {
  const rows = await ctx.db.prisma.chatMessage.findMany({ where: { sessionId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: max, select: { role: true, content: true } });
  return rows.reverse().map((r) => ({ role: r.role === 'assistant' ? 'assistant' : 'user', content: r.content }));
}

/** A stored question. */
export interface StoredQuestion {
  sessionId: string;
  /** whether this question started the session */
  created: boolean;
  /** when it was stored (the answer is stored after it) */
  at: Date;
}

/** A time after `after`, and after every earlier stamp of this process (sessions and messages keep their order). */
function stampAfter(after: Date | null): Date {
  const next = nextStamp();
  return after && after.getTime() >= next.getTime() ? new Date(after.getTime() + 1) : next;
}

/**
 * Stores a visitor's question inside the caller's transaction: in session `sessionId` (which must
 * be the project's and the visitor's) or in a new session titled by it.
 * @throws ApiError not_found when `sessionId` names no session of this project and visitor.
 */
export async function storeQuestion(
  tx: DbClient,
  input: { projectId: string; visitorId: string; sessionId?: string; question: string },
): Promise<StoredQuestion> {
  let sessionId = input.sessionId;
  let at: Date;
  if (sessionId !== undefined) {
    const session = await tx.chatSession.findFirst({
      where: { id: sessionId, projectId: input.projectId, visitorId: input.visitorId },
      select: { updatedAt: true },
    });
    if (!session) throw new ApiError('not_found', `No conversation ${sessionId} for this visitor.`, { field: 'sessionId', issue: 'not found' });
    at = stampAfter(session.updatedAt);
    await tx.chatSession.update({ where: { id: sessionId }, data: { updatedAt: at } });
  } else {
    sessionId = randomUUID();
    at = stampAfter(null);
    await tx.chatSession.create({
      data: { id: sessionId, projectId: input.projectId, visitorId: input.visitorId, title: titleOf(input.question), createdAt: at, updatedAt: at },
    });
  }
  await tx.chatMessage.create({ data: { id: randomUUID(), sessionId, role: 'user', content: input.question, createdAt: at } });
  return { sessionId, created: input.sessionId === undefined, at };
}

/**
 * Stores the assistant's answer after the question stored at `after`.
 * @returns the stored message as the API shows it (its sources included)
 * @throws Error when the database fails.
 */
export async function storeAnswer(ctx: Pick<AppContext, 'db'>, input: { sessionId: string; after: Date; content: string; sources: ChatSource[]; unanswered: boolean }): Promise<ChatMessage> {
  const at = stampAfter(input.after);
  const id = randomUUID();
  const sources = JSON.stringify(input.sources);
  await ctx.db.prisma.$transaction([
    ctx.db.prisma.chatMessage.create({ data: { id, sessionId: input.sessionId, role: 'assistant', content: input.content, sources, unanswered: input.unanswered, createdAt: at } }),
    ctx.db.prisma.chatSession.update({ where: { id: input.sessionId }, data: { updatedAt: at } }),
  ]);
  return messageOf({ id, role: 'assistant', content: input.content, sources, createdAt: at });
}
