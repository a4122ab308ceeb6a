/**
 * Content gaps (interface-spec.md "Content health": `gaps` of `topic`, `source`, `frequency`;
 * decisions.md section 7: "questions and searches with no good answer, counted by topic"). A search
 * with no hits, or an assistant question without a good answer, counts one more for its topic: the
 * normalised query, per project, source and version (`ContentGap` rows, one per topic).
 *
 * Counting is one conditional increment of the row, or its creation; two processes creating the
 * same topic at once end with one row counting both (the loser of the unique constraint increments).
 * Callers that must not wait (a search answer) hand the write to {@link ContentGapRecorder}, which
 * keeps it until it settles, so a graceful close waits for it (`settle()` before the database closes).
 */
import { newId } from '@quire/shared/ids';
import type { AppContext } from '../context';
import { isUniqueViolation } from '../db/errors';

/** Where a gap was seen (the spec's example `ai_chat`; `search` for the site's and the API's search). */
export type ContentGapSource = 'search' | 'ai_chat';

/** Most characters of a topic. */
export const MAX_TOPIC_LENGTH = 200;

/** One gap seen once. */
export interface ContentGapInput {
  projectId: string;
  source: ContentGapSource;
  /** the reader's text; normalised by {@link normaliseTopic} */
  topic: string;
  /** the version searched; null or absent: none */
  version?: string | null;
}

/**
 * A query as a topic: lower case (locale-independent), whitespace runs as one space, trimmed, at
 * most {@link MAX_TOPIC_LENGTH} characters (never ending inside a surrogate pair).
 */
export function normaliseTopic(text: string): string {
  let topic = text.toLowerCase().replace(/\s+/gu, ' ').trim();
  if (topic.length > MAX_TOPIC_LENGTH) {
    topic = topic.slice(0, MAX_TOPIC_LENGTH);
    if (/[\uD800-\uDBFF]$/.test(topic)) topic = topic.slice(0, -1);
    topic = topic.trimEnd();
  }
  return topic;
}

/**
 * Counts one occurrence of a gap: `frequency + 1` and `lastSeenAt` now on its row, or a new row with
 * frequency 1. An empty topic (after normalising) counts nothing.
 * @throws Error when the database fails.
 */
export async function recordContentGap(ctx: Pick<AppContext, 'db'>, input: ContentGapInput): Promise<void> {
  const topic = normaliseTopic(input.topic);
  if (topic === '') return;
  const key = { projectId: input.projectId, source: input.source, version: input.version ?? '', topic };
  const increment = () => ctx.db.prisma.contentGap.updateMany({ where: key, data: { frequency: { increment: 1 }, lastSeenAt: new Date() } });
  if ((await increment()).count > 0) return;
  try {
    await ctx.db.prisma.contentGap.create({ data: { id: newId('contentGap'), ...key } });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    await increment(); // another request created it a moment ago
  }
}

/**
 * Records gaps without making the caller wait, and keeps each write until it settles so that
 * {@link settle} (awaited on close, before the database closes) loses none. Failures are logged.
 * One per app (`ctx.search.gaps`).
 */
export class ContentGapRecorder {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly ctx: Pick<AppContext, 'db' | 'log'>) {}

  /** Starts counting one gap (see {@link recordContentGap}). */
  record(input: ContentGapInput): void {
    const write = recordContentGap(this.ctx, input).catch((err: unknown) => this.ctx.log.error({ err, projectId: input.projectId }, 'a content gap could not be recorded'));
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }

  /** Resolves once every write started so far has settled. */
  async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
