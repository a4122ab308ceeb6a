/**
 * The site's assistant endpoints under `/_quire/chat` (decisions.md sections 6 and 7; the Ask AI
 * panel codes against them, shared/src/api/chat.ts):
 *
 * - `GET /_quire/chat`: 200 `{data: {enabled: true}}` when the project's `settings.aiEnabled`, else
 *   404 `not_found` (the panel shows itself only after a 200);
 * - `POST /_quire/chat`: body `{question, visitorId, sessionId?, version?}` (JSON); answers 200
 *   `{data: {sessionId, message, sources}}`, or server-sent events with `Accept: text/event-stream`
 *   (chat/sse.ts). Errors: 400 `invalid_request` (`details.field`), 404 (assistant off, unknown
 *   version or session), 403 `usage_limit_exceeded`, 429 `rate_limited` (chat/ask.ts).
 *   `Idempotency-Key` as on the API (site-idempotency.ts): a retry gets the answer as JSON, asked once;
 * - `GET /_quire/chat/sessions?visitorId=`: `{data: {sessions}}`; `GET /_quire/chat/sessions/<id>?visitorId=`:
 *   `{data: {messages}}`, with the spec's upper-case `INVALID_REQUEST` / `NOT_FOUND` (interface-spec.md
 *   "Chat conversation history"; chat/sessions.ts);
 * - other methods: 405 with `Allow`; other paths: 404.
 *
 * The reader is the site's (site-reader.ts): public pages, gated pages their audience token opens,
 * and only pages the site's access rules let them open. Without `version` the answer comes from the
 * deployment this host serves (production, a preview, or a version under its prefix); with a label,
 * from that version's live deployment (search/search-target.ts). Sources' URLs are path-relative
 * (`/guides/setup#install`). Answers are never cached.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { ChatAskBodySchema, type ChatAskBody } from '@quire/shared/api/chat';
import { defaultVersion } from '@quire/shared/docs/versions';
import { ApiError } from '@quire/shared/errors';
import { invalidInput } from '@quire/shared/api/invalid-input';
import type { AppContext } from '../context';
import { askAssistant, assistantEnabled, type AnswerTarget } from '../chat/ask';
import { historyVisitorId, isUuid, listSessions, sessionTranscript } from '../chat/sessions';
import { respondWithEvents } from '../chat/sse';
import { searchTarget } from '../search/search-target';
import type { DeploymentSite } from './deployment-site';
import type { SiteAccess } from './site-access';
import { claimSiteKey, settled } from './site-idempotency';
import { readJsonBody, sendSiteError, sendSiteJson, sendSiteMethodNotAllowed } from './site-json';
import { siteReaderOf } from './site-reader';
import { SECURITY_HEADERS } from './security-headers';

/** The answer target of a site request: the served deployment, or a version's. */
function siteTarget(ctx: AppContext, site: DeploymentSite): (version: string | undefined) => Promise<AnswerTarget | null> {
  return async (version) => {
    if (version !== undefined) return searchTarget(ctx, site.projectId, version);
    return {
      files: site.source,
      createdAt: new Date(site.manifest.createdAt),
      version: defaultVersion(site.manifest.versions)?.label ?? null,
      basePath: site.basePath,
    };
  };
}

/** A validated ask body. @throws ApiError invalid_request with `details: {field, issue}`. */
export function parseAskBody(raw: unknown): ChatAskBody {
  const parsed = ChatAskBodySchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw invalidInput(parsed.error, { input: raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {} });
}

/** Whether the client asked for server-sent events. */
export function wantsEvents(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('text/event-stream');
}

/** The query parameter `name` of a raw URL (null when absent). */
function queryParam(rawUrl: string, name: string): string | null {
  const q = rawUrl.indexOf('?');
  return q === -1 ? null : new URLSearchParams(rawUrl.slice(q + 1)).get(name);
}

/** `POST /_quire/chat`. */
async function ask(
  ctx: AppContext,
  req: IncomingMessage,
  res: ServerResponse,
  site: DeploymentSite,
  access: SiteAccess,
  log: FastifyBaseLogger,
): Promise<void> {
  const body = parseAskBody(await readJsonBody(req));
  const reader = await siteReaderOf(req, site, access, log);
  const claim = await claimSiteKey(ctx, req, res, reader.ip, body);
  if (claim === 'replayed') return;
  const input = { projectId: site.projectId, body, reader, target: siteTarget(ctx, site), siteRoot: '/' };
  if (!wantsEvents(req.headers.accept)) {
    const answer = await settled(claim, 200, async () => ({ data: await askAssistant(ctx, input) }));
    return sendSiteJson(req, res, 200, answer, true);
  }
  // a retry with the key gets the JSON form of the streamed answer, stored before the stream ends
  await respondWithEvents(
    res,
    () => ['Vary', 'Cookie, X-Audience-Token', ...SECURITY_HEADERS],
    async (emit, signal) => (await settled(claim, 200, async () => ({ data: await askAssistant(ctx, { ...input, signal }, emit) }))).data,
    log,
  );
}

/** An error's own headers (`Retry-After` of a 429) as name/value pairs. */
function headersOf(err: ApiError): string[] {
  return err.headers ? Object.entries(err.headers).flat() : [];
}

/**
 * Answers a request under `/_quire/chat` (see the module comment). Errors of the request are
 * answered in the envelope; anything unexpected is logged and answered 500.
 * @param rest the path after `/_quire/chat` (`''`, `/sessions`, `/sessions/<id>`)
 */
export async function answerSiteChat(
  ctx: AppContext,
  req: IncomingMessage,
  res: ServerResponse,
  site: DeploymentSite,
  access: SiteAccess,
  log: FastifyBaseLogger,
  rest: string,
): Promise<void> {
  const method = req.method ?? 'GET';
  const read = method === 'GET' || method === 'HEAD';
  try {
    if (rest === '' || rest === '/') {
      if (method === 'POST') return await ask(ctx, req, res, site, access, log);
      if (!read) return sendSiteMethodNotAllowed(req, res, 'GET, HEAD, POST');
      if (!(await assistantEnabled(ctx, site.projectId))) throw new ApiError('not_found', 'The assistant is off for this site.');
      return sendSiteJson(req, res, 200, { data: { enabled: true } }, false);
    }
    const history = /^\/sessions(?:\/([^/]*))?\/?$/.exec(rest);
    if (!history) throw new ApiError('not_found', 'Not found.');
    if (!read) return sendSiteMethodNotAllowed(req, res, 'GET, HEAD');
    const url = req.url ?? '/';
    const visitorId = historyVisitorId(queryParam(url, 'visitorId') ?? undefined);
    const sessionId = history[1] === undefined ? undefined : decodeURIComponent(history[1]);
    if (sessionId !== undefined && !isUuid(sessionId)) throw new ApiError('INVALID_REQUEST', 'sessionId: must be a UUID', { field: 'sessionId', issue: 'must be a UUID' });
    if (!(await assistantEnabled(ctx, site.projectId))) throw new ApiError('NOT_FOUND', 'The assistant is off for this site.');
    if (sessionId === undefined) return sendSiteJson(req, res, 200, { data: { sessions: await listSessions(ctx, site.projectId, visitorId) } }, true);
    return sendSiteJson(req, res, 200, { data: { messages: await sessionTranscript(ctx, site.projectId, visitorId, sessionId) } }, true);
  } catch (err) {
    if (res.headersSent) return;
    if (err instanceof ApiError && err.status < 500) {
      req.resume();
      return sendSiteError(req, res, err, headersOf(err));
    }
    if (err instanceof URIError) return sendSiteError(req, res, new ApiError('INVALID_REQUEST', 'sessionId: must be a UUID', { field: 'sessionId', issue: 'must be a UUID' }));
    log.error({ err, url: req.url }, 'site chat failed');
    sendSiteError(req, res, new ApiError('internal_error', 'The assistant failed; try again.'));
  }
}
