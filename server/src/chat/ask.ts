/**
 * One question to the assistant (decisions.md section 7; interface-spec.md "Chat session and
 * message"), shared by `POST /v1/projects/{projectId}/chat` and the site's `POST /_quire/chat`:
 *
 * 1. the project must exist with `settings.aiEnabled` (else 404 `not_found`); at most
 *    {@link ASKS_PER_MINUTE} questions per minute per client address and project (429
 *    `rate_limited` with `Retry-After`); the version asked for must exist (404);
 * 2. in one transaction: one `assistant_answers` use of the organization's monthly plan limit
 *    (services/usage.ts; past it 403 `usage_limit_exceeded` and nothing is stored, decisions.md
 *    section 2) and the question, in the visitor's session or a new one (sessions.ts);
 * 3. retrieval from the deployment's search index, restricted to what the reader may read: the
 *    index's audience filter (`canRead`) and the site's access decision per page (`allow`), so a
 *    gated or rule-protected page is never cited to a reader who could not open it (decisions.md
 *    section 6);
 * 4. the answer: the default answerer (answerer.ts), or the configured model (llm.ts) writing from
 *    the same sections, falling back to the default answerer when the model fails before its first
 *    words (logged); a question the docs do not answer is counted as a content gap (source
 *    `ai_chat`, services/content-gaps.ts) and never sent to the model;
 * 5. the answer is stored with its sources and returned as `{sessionId, message, sources}`.
 *
 * `onEvent` receives the stream's events in the order shared/src/api/chat.ts gives: `session` once
 * the question is stored, `sources`, `delta`s whose concatenation is the stored message, `done`.
 */
import type { ChatAnswer, ChatAskBody, ChatSource, ChatStreamEvent } from '@quire/shared/api/chat';
import { ApiError } from '@quire/shared/errors';
import type { AppContext } from '../context';
import { deploymentIndex, hitUrl } from '../search/search-service';
import type { SearchTarget } from '../search/search-target';
import { rateLimitedError } from '../services/rate-limiter';
import { consumeUsage } from '../services/usage';
import { composeFromSections, NOT_IN_DOCS_ANSWER, retrieveSections, type ComposedAnswer, type RetrievedSection } from './answerer';
import { llmSettingsOf, streamLlmAnswer, type ChatTurn } from './llm';
import { recentTurns, storeAnswer, storeQuestion } from './sessions';

/** Questions per minute per client address and project. */
export const ASKS_PER_MINUTE = 20;
/** Sections the model is given at most. */
const LLM_SECTIONS = 5;
/** Earlier messages of the session the model reads. */
const LLM_HISTORY = 6;
/** Words per streamed piece of a composed answer. */
const WORDS_PER_DELTA = 4;

/** The deployment a question is answered from (search/search-target.ts). */
export type AnswerTarget = Pick<SearchTarget, 'files' | 'createdAt' | 'version' | 'basePath'>;

/** Who asks, and what they may read. */
export interface ChatReader {
  /** whether the reader may read a record with these (non-empty) audience tags */
  canRead: (audience: readonly string[]) => boolean;
  /** whether the reader may open the page at `path` by the site's access rules and allowlists */
  allow: (path: string) => boolean | Promise<boolean>;
  /** the client's address (rate limit) */
  ip: string;
}

/** One question. */
export interface AskInput {
  projectId: string;
  /** the validated body (shared/src/api/chat.ts `ChatAskBodySchema`) */
  body: ChatAskBody;
  reader: ChatReader;
  /**
   * The deployment answering for `version` (absent: the one the caller serves); null when nothing
   * is deployed. @throws ApiError not_found for an unknown version.
   */
  target: (version: string | undefined) => Promise<AnswerTarget | null>;
  /** where sources' URLs start: the site's absolute root for the API, `/` on the site */
  siteRoot: string;
  /** aborts the model's answer (the client went away) */
  signal?: AbortSignal;
}

/** The pieces a composed answer is streamed in (concatenated they are `text`). */
export function deltasOf(text: string): string[] {
  const words = text.split(/(?<=\s)(?=\S)/);
  const out: string[] = [];
  for (let i = 0; i < words.length; i += WORDS_PER_DELTA) out.push(words.slice(i, i + WORDS_PER_DELTA).join(''));
  return out;
}

/** The project's assistant, or 404. */
async function assistantProject(ctx: AppContext, projectId: string): Promise<{ orgId: string }> {
  const project = await ctx.projects.get(projectId);
  if (!project || !project.settings.aiEnabled) throw new ApiError('not_found', `No assistant for project ${projectId}: the project does not exist or its AI assistant is off.`);
  return project;
}

/**
 * Whether the project's assistant is on (`GET /_quire/chat`).
 * @throws Error when the database fails.
 */
export async function assistantEnabled(ctx: AppContext, projectId: string): Promise<boolean> {
  const project = await ctx.projects.get(projectId);
  return Boolean(project?.settings.aiEnabled);
}

/** Counts the question against the client's per-minute allowance. @throws ApiError rate_limited. */
async function limitRate(ctx: AppContext, projectId: string, ip: string): Promise<void> {
  const state = await ctx.rateLimits.hit(`chat:${projectId}:${ip}`, ASKS_PER_MINUTE);
  if (state.exceeded) throw rateLimitedError(state, 'questions to the assistant');
}

/** The sections the reader may read: `allow` per page (each page asked once). */
async function readable(sections: readonly RetrievedSection[], allow: ChatReader['allow']): Promise<RetrievedSection[]> {
  const verdicts = new Map<string, boolean | Promise<boolean>>();
  for (const s of sections) if (!verdicts.has(s.path)) verdicts.set(s.path, allow(s.path));
  const known = new Map<string, boolean>();
  for (const [path, v] of verdicts) known.set(path, await v);
  return sections.filter((s) => known.get(s.path));
}

/**
 * Answers one question (see the module comment).
 * @param onEvent receives the stream's events (SSE callers); absent for a JSON answer
 * @returns the stored answer `{sessionId, message, sources}`
 * @throws ApiError not_found (assistant off, unknown project, version or session of this visitor),
 *   rate_limited, usage_limit_exceeded (nothing stored); Error when the database or the store fails.
 */
export async function askAssistant(ctx: AppContext, input: AskInput, onEvent?: (event: ChatStreamEvent) => void): Promise<ChatAnswer> {
  const emit = onEvent ?? (() => undefined);
  const { projectId, body, reader } = input;
  const project = await assistantProject(ctx, projectId);
  await limitRate(ctx, projectId, reader.ip);
  const target = await input.target(body.version);
  const stored = await ctx.db.prisma.$transaction(async (tx) => {
    const org = await tx.organization.findUniqueOrThrow({ where: { id: project.orgId }, select: { id: true, plan: true } });
    await consumeUsage(tx, ctx.config, org, 'assistant_answers');
    return storeQuestion(tx, {
      projectId,
      visitorId: body.visitorId,
      question: body.question,
      ...(body.sessionId !== undefined ? { sessionId: body.sessionId } : {}),
    });
  });
  emit({ event: 'session', data: { sessionId: stored.sessionId } });

  const index = target ? await deploymentIndex(ctx, projectId, target) : null;
  const sections = index
    ? await readable(
        retrieveSections(body.question, index, { canRead: reader.canRead, ...(body.language !== undefined ? { language: body.language } : {}) }),
        reader.allow,
      )
    : [];
  const composed: ComposedAnswer = index ? composeFromSections(body.question, sections, index) : { text: NOT_IN_DOCS_ANSWER, sources: [], answered: false };
  const sourceOf = (s: RetrievedSection): ChatSource => ({ title: s.title, path: s.path, url: hitUrl(input.siteRoot, target?.basePath ?? '', s) });

  let text = '';
  let sources: ChatSource[] = [];
  const llm = composed.answered ? llmSettingsOf(ctx.config) : null;
  if (llm) {
    const given = sections.slice(0, LLM_SECTIONS);
    const history: ChatTurn[] = stored.created ? [] : (await recentTurns(ctx, stored.sessionId, LLM_HISTORY + 1)).slice(0, -1);
    try {
      for await (const piece of streamLlmAnswer(llm, { question: body.question, sections: given, history }, input.signal)) {
        if (text === '') {
          sources = given.map(sourceOf);
          emit({ event: 'sources', data: sources });
        }
        text += piece;
        emit({ event: 'delta', data: { text: piece } });
      }
    } catch (err) {
      if (input.signal?.aborted && text === '') {
        // the reader went away before the model answered: store the default answer for the transcript
      } else if (text === '') ctx.log.warn({ err, projectId }, 'the model endpoint failed; answering with the default answerer');
      else {
        ctx.log.warn({ err, projectId }, 'the model endpoint broke off an answer');
        const note = '\n\n(The answer was cut short.)';
        text += note;
        emit({ event: 'delta', data: { text: note } });
      }
    }
  }
  if (text === '') {
    text = composed.text;
    sources = composed.sources.map(sourceOf);
    emit({ event: 'sources', data: sources });
    for (const piece of deltasOf(text)) emit({ event: 'delta', data: { text: piece } });
  }
  if (!composed.answered) ctx.search.gaps.record({ projectId, source: 'ai_chat', topic: body.question, version: target?.version ?? null });
  const message = await storeAnswer(ctx, { sessionId: stored.sessionId, after: stored.at, content: text, sources, unanswered: !composed.answered });
  const answer: ChatAnswer = { sessionId: stored.sessionId, message, sources };
  emit({ event: 'done', data: answer });
  return answer;
}
