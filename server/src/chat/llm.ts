/**
 * The optional model behind the assistant (decisions.md section 1 and 7: `QUIRE_LLM_URL`,
 * `QUIRE_LLM_MODEL`, `QUIRE_LLM_API_KEY`): an OpenAI-compatible Chat Completions endpoint, called
 * with `fetch` and `stream: true` (OpenAI's "Create chat completion" API: server-sent events whose
 * `data:` lines hold `choices[0].delta.content`, ended by `data: [DONE]`).
 *
 * The model writes its answer from the same sections the default answerer retrieved, numbered in
 * the system prompt; it is told to answer only from them and to cite them `[n]`. Earlier turns of
 * the conversation come along so follow-up questions read naturally. Timeouts: {@link FIRST_BYTE_MS}
 * for the answer to start, {@link IDLE_MS} between pieces, {@link TOTAL_MS} in all. Failures reject
 * with {@link LlmError}; the caller (ask.ts) falls back to the default answerer and logs.
 * The endpoint is the operator's own choice, so it is not held to the outbound address policy
 * (decisions.md section 10: "the LLM endpoint excepted").
 */
import type { Config } from '../env';
import type { RetrievedSection } from './answerer';

/** Wait for the answer's response headers and first piece, in ms. */
export const FIRST_BYTE_MS = 20_000;
/** Longest pause between two pieces of the answer, in ms. */
export const IDLE_MS = 30_000;
/** Longest whole answer, in ms. */
export const TOTAL_MS = 120_000;
/** Characters of a section's text put in the prompt at most. */
const SECTION_CHARS = 2_500;

/** Where the model is. */
export interface LlmSettings {
  /** the Chat Completions URL (`<QUIRE_LLM_URL>/chat/completions` unless the URL already ends so) */
  url: string;
  model?: string;
  apiKey?: string;
}

/** A failure of the model's endpoint (status, timeout, malformed stream). */
export class LlmError extends Error {
  override name = 'LlmError';
}

/** The settings of `config`, or null when no endpoint is configured (the default answerer answers alone). */
export function llmSettingsOf(config: Pick<Config, 'llmUrl' | 'llmModel' | 'llmApiKey'>): LlmSettings | null {
  if (!config.llmUrl) return null;
  const base = config.llmUrl.replace(/\/+$/, '');
  const url = base.endsWith('/chat/completions') ? base : `${base}/chat/completions`;
  return { url, ...(config.llmModel ? { model: config.llmModel } : {}), ...(config.llmApiKey ? { apiKey: config.llmApiKey } : {}) };
}

/** One turn of the conversation as the model reads it. */
export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** The system prompt: the rules and the numbered sections. */
export function systemPrompt(sections: readonly RetrievedSection[]): string {
  const numbered = sections.map((s, i) => {
    const heading = s.section ? `${s.title} — ${s.section}` : s.title;
    const text = s.text.length > SECTION_CHARS ? `${s.text.slice(0, SECTION_CHARS)}…` : s.text;
    return `[${i + 1}] ${heading} (${s.path}${s.anchor ? `#${s.anchor}` : ''})\n${text}`;
  });
  return [
    'You are the documentation assistant of this site. Answer the reader\'s question using ONLY the numbered documentation sections below.',
    'Cite the sections you use with their numbers in square brackets, like [1] or [2], right after the sentence they support.',
    'If the sections do not answer the question, say plainly that it is not in the docs; never invent APIs, options or facts.',
    'Be brief: a few sentences, with a short code example only when the sections hold one.',
    '',
    'Documentation sections:',
    '',
    numbered.join('\n\n'),
  ].join('\n');
}

/** Reads the `data:` payloads of a server-sent event stream. */
async function* eventData(body: ReadableStream<Uint8Array>, pause: () => void): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    pause();
    buffer += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl).replace(/\r$/, '');
      buffer = buffer.slice(nl + 1);
      if (line.startsWith('data:')) yield line.slice(5).trimStart();
    }
  }
  if (buffer.startsWith('data:')) yield buffer.slice(5).trimStart();
}

/**
 * Streams the model's answer to `question` from `sections`, piece by piece.
 * @param signal aborts the request (the reader went away)
 * @throws LlmError for a refused request (non-2xx), a timeout, or a stream that is not Chat
 *   Completions chunks; an abort through `signal` rejects with its reason.
 */
export async function* streamLlmAnswer(
  settings: LlmSettings,
  input: { question: string; sections: readonly RetrievedSection[]; history?: readonly ChatTurn[] },
  signal?: AbortSignal,
): AsyncGenerator<string> {
  const aborter = new AbortController();
  const onAbort = () => aborter.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  let timeoutReason = '';
  const expire = (why: string) => {
    timeoutReason = why;
    aborter.abort(new LlmError(why));
  };
  const total = setTimeout(() => expire(`the model took longer than ${TOTAL_MS} ms`), TOTAL_MS);
  let idle = setTimeout(() => expire(`the model did not start answering within ${FIRST_BYTE_MS} ms`), FIRST_BYTE_MS);
  const pause = () => {
    clearTimeout(idle);
    idle = setTimeout(() => expire(`the model paused longer than ${IDLE_MS} ms`), IDLE_MS);
  };
  try {
    let res: Response;
    try {
      res = await fetch(settings.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
        },
        body: JSON.stringify({
          ...(settings.model ? { model: settings.model } : {}),
          stream: true,
          temperature: 0.2,
          messages: [{ role: 'system', content: systemPrompt(input.sections) }, ...(input.history ?? []), { role: 'user', content: input.question }],
        }),
        signal: aborter.signal,
      });
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      throw new LlmError(timeoutReason || `the model endpoint could not be reached: ${(err as Error).message}`);
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => undefined);
      throw new LlmError(`the model endpoint answered ${res.status}`);
    }
    try {
      for await (const data of eventData(res.body, pause)) {
        if (data === '[DONE]') return;
        let chunk: { choices?: { delta?: { content?: unknown } }[] };
        try {
          chunk = JSON.parse(data) as typeof chunk;
        } catch {
          throw new LlmError('the model endpoint sent a chunk that is not JSON');
        }
        const piece = chunk.choices?.[0]?.delta?.content;
        if (typeof piece === 'string' && piece !== '') yield piece;
      }
    } catch (err) {
      if (err instanceof LlmError) throw err;
      if (signal?.aborted) throw signal.reason;
      throw new LlmError(timeoutReason || `the model's answer broke off: ${(err as Error).message}`);
    }
  } finally {
    clearTimeout(total);
    clearTimeout(idle);
    signal?.removeEventListener('abort', onAbort);
    aborter.abort();
  }
}
