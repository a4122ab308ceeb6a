/**
 * The docs agent's drafts (decisions.md section 11: "with QUIRE_LLM_URL set, the model drafts edits
 * to the flagged lines as suggestions"): one flagged line written again by the configured model
 * (chat/llm.ts, the assistant's client), given the API change it mentions. Without a model nothing is
 * drafted; a model that fails, answers nothing, several lines, or the line unchanged gives no draft.
 * A draft is only ever a suggestion on a review: a person applies it or not.
 */
import type { AppContext } from '../context';
import { LlmError, llmSettingsOf, streamLlmAnswer } from '../chat/llm';

/** Longest line sent to the model or taken back, in characters. */
const MAX_LINE = 2_000;

/**
 * The model's rewrite of `line` for the change `reason` (markdown kept), or null (see the module comment).
 * Never throws: failures of the model are logged.
 */
export async function draftLine(ctx: Pick<AppContext, 'config' | 'log'>, line: string, reason: string): Promise<string | null> {
  const settings = llmSettingsOf(ctx.config);
  if (!settings || line.trim() === '' || line.length > MAX_LINE) return null;
  const question =
    'This line of the documentation mentions an API that changed. Rewrite the line so it matches the API change described in [1]. ' +
    'Keep its Markdown and wording otherwise. Answer with the rewritten line only: no quotes, no explanation, no citation.\n\n' +
    line;
  const section = { path: 'api-change', title: 'API change', text: reason, score: 1 };
  let answer = '';
  try {
    for await (const piece of streamLlmAnswer(settings, { question, sections: [section] })) {
      answer += piece;
      if (answer.length > MAX_LINE * 2) return null;
    }
  } catch (err) {
    if (!(err instanceof LlmError)) throw err;
    ctx.log.warn({ err }, 'docs agent: the model could not draft a line');
    return null;
  }
  const draft = answer.replace(/\s*\[\d+\]/g, '').replace(/^```\w*\n?|\n?```$/g, '').trim();
  if (draft === '' || draft.includes('\n') || draft === line.trim() || draft.length > MAX_LINE) return null;
  const indent = /^\s*/.exec(line)![0];
  return `${indent}${draft}`;
}
