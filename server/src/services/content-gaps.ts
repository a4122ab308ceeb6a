/**
 * Content gaps (interface-spec.md "Content health": `gaps` of `topic`, `source`, `frequency`;
 * decisions.md section 7: "questions and searches with no good answer, counted by topic"). A search
 * with no hits, or an assistant question without a good answer, counts one more for its topic: the
 * normalised query, per project, source and version (`ContentGap` rows, one per topic).
 *
 * Counting is one conditional increment of the row, or its creation; two processes creating the
 * same topic at once end with one row counting both (the loser of the unique constraint increments).
 * Callers that must not wait (a search answer) hand the gap to {@link ContentGapRecorder}, which
 * adds up repeats in memory and writes each topic once per {@link GAP_FLUSH_MS}; a graceful close
 * writes what is pending (`settle()` before the database closes).
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
 * Counts `times` occurrences (default 1) of a gap: `frequency + times` and `lastSeenAt` now on its
 * row, or a new row with frequency `times`. An empty topic (after normalising) counts nothing.
 * @throws Error when the database fails.
 */
export async function recordContentGap(ctx: Pick<AppContext, 'db'>, input: ContentGapInput, times = 1): Promise<void> {
  const topic = normaliseTopic(input.topic);
  if (topic === '') return;
  const key = { projectId: input.projectId, source: input.source, version: input.version ?? '', topic };
  const increment = () => ctx.db.prisma.contentGap.updateMany({ where: key, data: { frequency: { increment: times }, lastSeenAt: new Date() } });
  if ((await increment()).count > 0) return;
  try {
    await ctx.db.prisma.contentGap.create({ data: { id: newId('contentGap'), ...key, frequency: times } });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    await increment(); // another request created it a moment ago
  }
}

/** How long repeats of gaps are added up in memory before they are written, in ms. */
export const GAP_FLUSH_MS = 2_000;
/** Distinct topics held in memory at most; past this the pending ones are written at once. */
const MAX_PENDING_TOPICS = 1_000;

/**
 * Records gaps without making the caller wait: repeats are added up in memory and each topic is
 * written once per {@link GAP_FLUSH_MS} (a search answer never waits for, nor queues behind, a
 * database write per query). {@link settle} (awaited on close, before the database closes) writes
 * what is pending and waits for the writes under way, so a graceful close loses none. Failures are
 * logged. One per app (`ctx.search.gaps`).
 */
export class ContentGapRecorder {
  private readonly pending = new Map<string, { input: ContentGapInput; times: number }>();
  private readonly writes = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly ctx: Pick<AppContext, 'db' | 'log'>) {}

  /** Counts one gap (written within {@link GAP_FLUSH_MS}; see {@link recordContentGap}). */
  record(input: ContentGapInput): void {
    const topic = normaliseTopic(input.topic);
    if (topic === '') return;
    const key = JSON.stringify([input.projectId, input.source, input.version ?? '', topic]);
    const entry = this.pending.get(key);
    if (entry) entry.times++;
    else this.pending.set(key, { input: { ...input, topic }, times: 1 });
    if (this.pending.size >= MAX_PENDING_TOPICS) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), GAP_FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Starts writing every pending count now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const { input, times } of this.pending.values()) {
      const write = recordContentGap(this.ctx, input, times).catch((err: unknown) => this.ctx.log.error({ err, projectId: input.projectId }, 'a content gap could not be recorded'));
      this.writes.add(write);
      void write.finally(() => this.writes.delete(write));
    }
    this.pending.clear();
  }

  /** Writes what is pending and resolves once every write started so far has settled. */
  async settle(): Promise<void> {
    this.flush();
    while (this.writes.size > 0) await Promise.allSettled([...this.writes]);
  }
}
