/**
 * The assistant's wire shapes (interface-spec.md "Chat session and message", "Chat conversation
 * history"; decisions.md section 7): the ask body, the answer, sessions and messages, and the
 * server-sent events of a streamed answer. Used by `POST /v1/projects/{projectId}/chat`, the site's
 * `POST /_quire/chat` and the site's Ask AI panel.
 */
import { z } from 'zod';

/** Most characters of a visitor id (interface-spec.md "Limits": visitor identifier). */
export const MAX_VISITOR_ID = 100;
/** Most characters of a question. */
export const MAX_QUESTION = 2_000;
/** Sessions a history list returns (interface-spec.md "Limits": conversations returned). */
export const MAX_SESSIONS_LISTED = 50;
/** Messages a transcript returns (interface-spec.md "Limits": messages returned). */
export const MAX_MESSAGES_LISTED = 100;

/** `POST .../chat` body. `version`: answer from that documentation version (absent: the default); `language`: from that language's pages (absent: all). */
export const ChatAskBodySchema = z.object({
  question: z.string().trim().min(1).max(MAX_QUESTION),
  visitorId: z.string().min(1).max(MAX_VISITOR_ID),
  sessionId: z.string().uuid().optional(),
  version: z.string().min(1).max(100).optional(),
  /** answer from the pages of this language division only (docs.json `navigation.languages` code; the site's panel sends the page's) */
  language: z.string().min(1).max(35).optional(),
}).strict();
export type ChatAskBody = z.infer<typeof ChatAskBodySchema>;

/** A cited source: `[n]` in the answer names `sources[n-1]`. `url` links to the section. */
export const ChatSourceSchema = z.object({ title: z.string(), path: z.string(), url: z.string() });
export type ChatSource = z.infer<typeof ChatSourceSchema>;

/**
 * A message of a session (interface-spec.md "Chat session and message"). `sources`: the sections an
 * assistant message cites (`[n]` names `sources[n-1]`); absent on questions and uncited answers.
 */
export const ChatMessageSchema = z.object({
  id: z.string().uuid(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  createdAt: z.string(),
  sources: z.array(ChatSourceSchema).optional(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** A session (interface-spec.md "Chat session and message"): the title is the first question. */
export const ChatSessionSchema = z.object({ id: z.string().uuid(), title: z.string(), createdAt: z.string(), updatedAt: z.string().optional().describe('when its last message was added') });
export type ChatSession = z.infer<typeof ChatSessionSchema>;

/** The answer of an ask: `{data: ChatAnswer}` (decisions.md section 7). `message` is the assistant's. */
export const ChatAnswerSchema = z.object({ sessionId: z.string().uuid(), message: ChatMessageSchema, sources: z.array(ChatSourceSchema) });
export type ChatAnswer = z.infer<typeof ChatAnswerSchema>;

/**
 * Server-sent events of a streamed answer (`Accept: text/event-stream`), in this order:
 * - `session` once: `{sessionId}` (as soon as the question is stored);
 * - `sources` once: `ChatSource[]` (the sections retrieved, in citation order);
 * - `delta` any number of times: `{text}`, the next piece of the answer (concatenated they are `message.content`);
 * - `done` once: the full {@link ChatAnswer};
 * - or `error` once, instead of what is left: the error envelope `{error: {code, message, details?}}`.
 * Each event is `event: <name>\ndata: <JSON>\n\n`.
 */
export type ChatStreamEvent =
  | { event: 'session'; data: { sessionId: string } }
  | { event: 'sources'; data: ChatSource[] }
  | { event: 'delta'; data: { text: string } }
  | { event: 'done'; data: ChatAnswer }
  | { event: 'error'; data: { error: { code: string; message: string; details?: unknown } } };
