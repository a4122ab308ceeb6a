/**
 * The analytics reads of a project (shared/src/api/analytics.ts): page views over time, top pages,
 * searches, agent traffic and assistant questions, from the counts the recorder wrote (buffer.ts,
 * batch.ts) and the chat transcripts. Every function checks the caller may see the project first.
 */
import type { AgentTraffic, ChatAnalytics, RankedQuery, SearchAnalytics, SearchCount, TopPage, Views, ViewsQuery } from '@quire/shared/api/analytics';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import { normaliseTopic } from '../services/content-gaps';
import { getProjectForCaller } from '../services/projects';
import { bucketStart, bucketStarts, dayBounds, resolveRange, type TimeRange } from './range';

/** Paths listed per agent. */
const AGENT_TOP_PATHS = 5;
/** Most questions read for the chat summary (the newest). */
const MAX_CHAT_QUESTIONS = 50_000;

const hourWhere = (projectId: string, range: TimeRange) => ({ projectId, hour: { gte: bucketStart(range.from, 'hour'), lt: range.to } });

/**
 * `GET .../analytics/views`: views of people and agents, and unique people, per bucket.
 * @throws ApiError not_found (project); invalid_request for `from` after `to` or too many buckets.
 */
export async function viewsOverTime(ctx: AppContext, auth: RequestAuth, projectId: string, query: ViewsQuery): Promise<Views> {
  await getProjectForCaller(ctx, auth, projectId);
  const range = resolveRange(query);
  const starts = bucketStarts(range, query.interval);
  const buckets = starts.map((s) => ({ start: s.toISOString(), people: 0, agents: 0, visitors: query.interval === 'hour' ? null : (0 as number | null) }));
  const index = new Map(buckets.map((b, i) => [b.start, i]));
  const rows = await ctx.db.prisma.pageViewCount.groupBy({ by: ['hour', 'reader'], where: hourWhere(projectId, range), _sum: { count: true } });
  for (const r of rows) {
    const b = buckets[index.get(bucketStart(r.hour, query.interval).toISOString()) ?? -1];
    if (!b) continue;
    if (r.reader === 'agent') b.agents += r._sum.count ?? 0;
    else b.people += r._sum.count ?? 0;
  }
  if (query.interval !== 'hour') {
    const { first, last } = dayBounds(range);
    const days = await ctx.db.prisma.dailyVisitor.groupBy({ by: ['day'], where: { projectId, reader: 'person', day: { gte: first, lte: last } }, _count: { _all: true } });
    for (const d of days) {
      const b = buckets[index.get(bucketStart(new Date(`${d.day}T00:00:00Z`), query.interval).toISOString()) ?? -1];
      if (b) b.visitors = (b.visitors ?? 0) + d._count._all;
    }
  }
  return { from: range.from.toISOString(), to: range.to.toISOString(), interval: query.interval, buckets };
}

/**
 * `GET .../analytics/top-pages`: the most viewed paths (people and agents together), most first, ties by path.
 * @throws ApiError not_found (project); invalid_request for `from` after `to`.
 */
export async function topPages(ctx: AppContext, auth: RequestAuth, projectId: string, query: RankedQuery): Promise<TopPage[]> {
  await getProjectForCaller(ctx, auth, projectId);
  const range = resolveRange(query);
  const rows = await ctx.db.prisma.pageViewCount.groupBy({ by: ['path', 'reader'], where: hourWhere(projectId, range), _sum: { count: true } });
  const byPath = new Map<string, TopPage>();
  for (const r of rows) {
    const page = byPath.get(r.path) ?? { path: r.path, views: 0, people: 0, agents: 0 };
    const n = r._sum.count ?? 0;
    page.views += n;
    if (r.reader === 'agent') page.agents += n;
    else page.people += n;
    byPath.set(r.path, page);
  }
  return [...byPath.values()].sort((a, b) => b.views - a.views || a.path.localeCompare(b.path)).slice(0, query.limit);
}

/**
 * `GET .../analytics/searches`: the most frequent queries (all surfaces together) and those that
 * found nothing, by UTC day of the range.
 * @throws ApiError not_found (project); invalid_request for `from` after `to`.
 */
export async function searchAnalytics(ctx: AppContext, auth: RequestAuth, projectId: string, query: RankedQuery): Promise<SearchAnalytics> {
  await getProjectForCaller(ctx, auth, projectId);
  const { first, last } = dayBounds(resolveRange(query));
  const rows = await ctx.db.prisma.searchQueryCount.groupBy({ by: ['query'], where: { projectId, day: { gte: first, lte: last } }, _sum: { count: true, noResults: true } });
  const all: SearchCount[] = rows.map((r) => ({ query: r.query, count: r._sum.count ?? 0, noResults: r._sum.noResults ?? 0 }));
  return {
    top: [...all].sort((a, b) => b.count - a.count || a.query.localeCompare(b.query)).slice(0, query.limit),
    withoutResults: all.filter((s) => s.noResults > 0).sort((a, b) => b.noResults - a.noResults || a.query.localeCompare(b.query)).slice(0, query.limit),
  };
}

/**
 * `GET .../analytics/agents`: views per AI agent or crawler, most first, with their most read paths.
 * @throws ApiError not_found (project); invalid_request for `from` after `to`.
 */
export async function agentTraffic(ctx: AppContext, auth: RequestAuth, projectId: string, query: RankedQuery): Promise<AgentTraffic[]> {
  await getProjectForCaller(ctx, auth, projectId);
  const range = resolveRange(query);
  const rows = await ctx.db.prisma.pageViewCount.groupBy({ by: ['agent', 'path'], where: { ...hourWhere(projectId, range), reader: 'agent' }, _sum: { count: true } });
  const byAgent = new Map<string, { views: number; paths: { path: string; views: number }[] }>();
  for (const r of rows) {
    const a = byAgent.get(r.agent) ?? { views: 0, paths: [] };
    const n = r._sum.count ?? 0;
    a.views += n;
    a.paths.push({ path: r.path, views: n });
    byAgent.set(r.agent, a);
  }
  return [...byAgent]
    .map(([agent, a]) => ({
      agent,
      views: a.views,
      topPaths: a.paths.sort((x, y) => y.views - x.views || x.path.localeCompare(y.path)).slice(0, AGENT_TOP_PATHS),
    }))
    .sort((a, b) => b.views - a.views || a.agent.localeCompare(b.agent))
    .slice(0, query.limit);
}

/**
 * `GET .../analytics/chat`: questions asked to the assistant (chat messages of role `user`) per
 * UTC day, and the most asked (normalised like content gaps: lower case, spaces collapsed).
 * Reads at most the newest {@link MAX_CHAT_QUESTIONS} questions of the range.
 * @throws ApiError not_found (project); invalid_request for `from` after `to`.
 */
export async function chatAnalytics(ctx: AppContext, auth: RequestAuth, projectId: string, query: RankedQuery): Promise<ChatAnalytics> {
  await getProjectForCaller(ctx, auth, projectId);
  const range = resolveRange(query);
  const rows = await ctx.db.prisma.chatMessage.findMany({
    where: { role: 'user', createdAt: { gte: range.from, lt: range.to }, session: { projectId } },
    select: { content: true, createdAt: true },
    orderBy: { createdAt: 'desc' },
    take: MAX_CHAT_QUESTIONS,
  });
  const days = new Map<string, number>();
  const questions = new Map<string, number>();
  for (const r of rows) {
    const day = r.createdAt.toISOString().slice(0, 10);
    days.set(day, (days.get(day) ?? 0) + 1);
    const q = normaliseTopic(r.content);
    if (q) questions.set(q, (questions.get(q) ?? 0) + 1);
  }
  return {
    questions: rows.length,
    days: [...days].map(([day, n]) => ({ day, questions: n })).sort((a, b) => a.day.localeCompare(b.day)),
    top: [...questions]
      .map(([question, count]) => ({ question, count }))
      .sort((a, b) => b.count - a.count || a.question.localeCompare(b.question))
      .slice(0, query.limit),
  };
}
