/**
 * AI Chat (interface-spec.md "Chat session and message", "Chat conversation history"; decisions.md
 * section 7): the public ask `POST /v1/projects/{projectId}/chat` (JSON or server-sent events) and
 * the visitor's history. No API key: the asker reads as a site visitor (public pages; gated pages
 * when `x-audience-token` opens them; the site's access rules and allowlists apply per page).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ChatAnswerSchema, ChatAskBodySchema, ChatMessageSchema, ChatSessionSchema } from '@quire/shared/api/chat';
import { dataEnvelope, errorResponses } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import { ApiError } from '@quire/shared/errors';
import { decideSiteAccess } from '../../../access/decide';
import { clientIp } from '../../../access/policy';
import { askAssistant, type AskInput } from '../../../chat/ask';
import { historyVisitorId, isUuid, listSessions, sessionTranscript } from '../../../chat/sessions';
import { respondWithEvents } from '../../../chat/sse';
import { isSiteOrigin, registerSiteCors, SITE_CORS_EXPOSED } from '../../../http/site-cors';
import { apiReader, API_TOKEN_HEADER } from '../../../search/api-reader';
import { searchTarget } from '../../../search/search-target';
import { pageAllowance } from '../../../sites/site-reader';
import { magicLinkBase } from '../../../services/audiences';
import type { AppContext } from '../../../context';
import { settleHijackedIdempotency } from '../../../plugins/idempotency';

/** `?visitorId=` as documented; checked by hand so errors carry the spec's upper-case codes. */
const HistoryQuerySchema = z.object({ visitorId: z.union([z.string(), z.array(z.string())]).optional().describe('the visitor who created the conversations (required, at most 100 characters)') });
const SessionParamsSchema = ProjectParamsSchema.extend({ sessionId: z.string().describe('the conversation (a UUID)') });

/** Whether a project may show its history (exists, assistant on). @throws ApiError NOT_FOUND. */
async function historyProject(ctx: AppContext, projectId: string): Promise<void> {
  const project = await ctx.projects.get(projectId);
  if (!project || !project.settings.aiEnabled) throw new ApiError('NOT_FOUND', `No conversations for project ${projectId}.`);
}

/** The asker of an API request: a visitor, opened further by `x-audience-token`. */
async function readerOf(ctx: AppContext, req: FastifyRequest, projectId: string): Promise<AskInput['reader']> {
  const header = req.headers[API_TOKEN_HEADER];
  const token = (Array.isArray(header) ? header[0] : header)?.trim() || undefined;
  const canRead = token ? await apiReader(ctx, projectId, token) : () => false;
  const ip = clientIp(ctx, req.raw);
  return { canRead, allow: pageAllowance((input) => decideSiteAccess(ctx, input), projectId, ip, token), ip };
}

/** The reply's headers so far (rate limit, request id) as name/value pairs for a hijacked response. */
function replyHeaders(reply: FastifyReply): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) out.push(name, String(value));
  return out;
}

const chatRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['AI Chat'];
  // CORS for the project's site origins (decisions.md section 7), preflights included
  registerSiteCors(base, ['/projects/:projectId/chat', '/projects/:projectId/chat/sessions', '/projects/:projectId/chat/sessions/:sessionId']);

  app.post('/projects/:projectId/chat', {
    config: { public: true },
    schema: {
      tags,
      summary: 'Ask the documentation assistant',
      description:
        'Answers `question` from the published documentation, with bracketed citations `[1]` naming `sources[0]` (title, page path, absolute URL with `#anchor` of the section). No API key: the asker reads as a site visitor — public pages, plus gated pages when an audience token in `x-audience-token` opens them; the site\'s access rules and IP allowlists apply to every cited page. ' +
        '`visitorId` (1-100 characters) owns the conversation; `sessionId` continues one of that visitor\'s conversations (404 otherwise); without it a new conversation starts, titled by the question. `version` answers from that documentation version (404 for an unknown label). ' +
        'Without a model configured the answer is extracted from the best-matching sections; with `QUIRE_LLM_URL` a model writes it from the same sections. When the docs do not answer, the message says so and the question is counted as a content gap (source `ai_chat`). ' +
        '`Accept: text/event-stream` streams the answer as server-sent events: `session` `{sessionId}`, `sources` `[{title, path, url}]`, `delta` `{text}` (concatenated: the message), then `done` with the same object as the JSON answer, or `error` with the error envelope. ' +
        'Errors: 404 `not_found` when the project does not exist or its `aiEnabled` is false; 403 `usage_limit_exceeded` past the organization\'s monthly assistant answers (nothing stored); 429 `rate_limited` past 20 questions per minute per client address and project.',
      security: [],
      params: ProjectParamsSchema,
      body: ChatAskBodySchema,
      response: { 200: dataEnvelope(ChatAnswerSchema), ...errorResponses(400, 403, 404, 429) },
    },
  }, async (req, reply) => {
    const { projectId } = req.params;
    const project = await app.ctx.projects.get(projectId);
    if (!project || !project.settings.aiEnabled) throw new ApiError('not_found', `No assistant for project ${projectId}: the project does not exist or its AI assistant is off.`);
    const input: AskInput = {
      projectId,
      body: req.body,
      reader: await readerOf(app.ctx, req, projectId),
      target: (version) => searchTarget(app.ctx, projectId, version),
      siteRoot: magicLinkBase(app.ctx.config, project),
    };
    const accept = req.headers.accept;
    if (!accept?.includes('text/event-stream')) return { data: await askAssistant(app.ctx, input) };
    // a hijacked reply skips the onSend hooks: the CORS headers are added here
    const origin = req.headers.origin;
    const cors = (await isSiteOrigin(app.ctx, projectId, origin).catch(() => false)) ? ['Access-Control-Allow-Origin', origin!, 'Access-Control-Expose-Headers', SITE_CORS_EXPOSED] : [];
    await respondWithEvents(
      reply.raw,
      () => {
        reply.hijack();
        return [...replyHeaders(reply), 'Vary', 'Origin', ...cors];
      },
      async (emit, signal) => {
        // what a retry with the same Idempotency-Key gets: the JSON form of the streamed answer,
        // settled before the stream ends (a retry after the end finds it)
        let outcome = { status: 500, body: '' };
        try {
          const answer = await askAssistant(app.ctx, { ...input, signal }, emit);
          outcome = { status: 200, body: JSON.stringify({ data: answer }) };
          return answer;
        } catch (err) {
          if (err instanceof ApiError) outcome = { status: err.status, body: JSON.stringify(err.toEnvelope()) };
          throw err;
        } finally {
          await settleHijackedIdempotency(app.ctx, req, outcome.status, outcome.body).catch((err: unknown) => req.log.warn({ err }, 'the Idempotency-Key of a streamed answer could not be settled'));
        }
      },
      req.log,
    );
    return reply;
  });

  app.get('/projects/:projectId/chat/sessions', {
    config: { public: true },
    schema: {
      tags,
      summary: 'List a visitor\'s conversations',
      description: 'The conversations `visitorId` started with the project\'s assistant, newest first, at most 50. 400 `INVALID_REQUEST` when `visitorId` is missing or longer than 100 characters; 404 `NOT_FOUND` when the project does not exist or its assistant is off. No API key.',
      security: [],
      params: ProjectParamsSchema,
      querystring: HistoryQuerySchema,
      response: { 200: dataEnvelope(z.object({ sessions: z.array(ChatSessionSchema) })), ...errorResponses(400, 404, 429) },
    },
  }, async (req) => {
    const visitorId = historyVisitorId(req.query.visitorId);
    await historyProject(app.ctx, req.params.projectId);
    return { data: { sessions: await listSessions(app.ctx, req.params.projectId, visitorId) } };
  });

  app.get('/projects/:projectId/chat/sessions/:sessionId', {
    config: { public: true },
    schema: {
      tags,
      summary: 'Read a conversation',
      description: 'The messages of one conversation, oldest first (the latest 100). Only the visitor who created it gets it: 404 `NOT_FOUND` for a conversation that does not exist or belongs to another project or visitor. 400 `INVALID_REQUEST` when `visitorId` is missing or too long, or `sessionId` is not a UUID. Assistant messages carry the `sources` their citations name. No API key.',
      security: [],
      params: SessionParamsSchema,
      querystring: HistoryQuerySchema,
      response: { 200: dataEnvelope(z.object({ messages: z.array(ChatMessageSchema) })), ...errorResponses(400, 404, 429) },
    },
  }, async (req) => {
    const visitorId = historyVisitorId(req.query.visitorId);
    const { projectId, sessionId } = req.params;
    if (!isUuid(sessionId)) throw new ApiError('INVALID_REQUEST', 'sessionId: must be a UUID', { field: 'sessionId', issue: 'must be a UUID' });
    await historyProject(app.ctx, projectId);
    return { data: { messages: await sessionTranscript(app.ctx, projectId, visitorId, sessionId) } };
  });
};
export default chatRoutes;
