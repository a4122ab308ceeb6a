/**
 * Who read a page: a person or an AI agent / crawler (the analytics split of decisions.md section 7).
 *
 * - A user agent naming a known AI agent, assistant or crawler counts as that agent, by the name it
 *   gives itself (`GPTBot`, `ClaudeBot`, `PerplexityBot`, ...; {@link KNOWN_AGENTS}); any other user
 *   agent containing `bot`, `crawler` or `spider` counts as agent `bot`.
 * - Otherwise the file decides: a page's Markdown (`.md`) is agent `markdown`, `llms.txt` and
 *   `llms-full.txt` are agents of those names (people read HTML); MCP calls are agent `mcp`.
 * - Everything else is a person (agent "").
 *
 * Cheap on the serving path: one precompiled regular expression, and nothing allocated but the result.
 */
import type { ReaderKind } from './recorder';

/** Known AI agents, assistants and crawlers, by the token their user agent carries (case as they spell it). */
export const KNOWN_AGENTS = [
  'GPTBot', 'ChatGPT-User', 'OAI-SearchBot', 'ClaudeBot', 'Claude-User', 'Claude-Web', 'anthropic-ai',
  'PerplexityBot', 'Perplexity-User', 'Google-Extended', 'Googlebot', 'Bingbot', 'CCBot', 'Bytespider',
  'Applebot', 'Amazonbot', 'meta-externalagent', 'cohere-ai', 'DuckAssistBot', 'YouBot', 'Cursor',
] as const;

/** What a file served was, as far as the reader split cares. */
export type ServedKind = 'page' | 'markdown' | 'llms.txt' | 'llms-full.txt' | 'mcp';

/** The reader of one request. */
export interface Reader {
  reader: ReaderKind;
  /** the agent's name; "" for people */
  agent: string;
}

const escape = (s: string) => s.replace(/[-.]/g, '\\$&');
/**
 * A known name anywhere in the user agent (longest names first, so `Claude-User` is not read as a
 * shorter one), else the generic words: a known name wins even after a generic word (`robot ... GPTBot`).
 */
const AGENT_RE = new RegExp(`^(?:.*(${[...KNOWN_AGENTS].sort((a, b) => b.length - a.length).map(escape).join('|')})|.*(?:bot|crawler|spider))`, 'is');

const PERSON: Reader = { reader: 'person', agent: '' };
const BY_KIND: Record<Exclude<ServedKind, 'page'>, Reader> = {
  markdown: { reader: 'agent', agent: 'markdown' },
  'llms.txt': { reader: 'agent', agent: 'llms.txt' },
  'llms-full.txt': { reader: 'agent', agent: 'llms-full.txt' },
  mcp: { reader: 'agent', agent: 'mcp' },
};
const GENERIC_BOT: Reader = { reader: 'agent', agent: 'bot' };
/** Results for known agents, made once. */
const NAMED = new Map<string, Reader>(KNOWN_AGENTS.map((a) => [a.toLowerCase(), { reader: 'agent', agent: a }]));

/**
 * Classifies a request by its `User-Agent` (may be absent) and what it fetched (see the module
 * comment). A named agent wins over the file kind (GPTBot reading `llms.txt` is GPTBot).
 */
export function classifyReader(userAgent: string | undefined, kind: ServedKind): Reader {
  if (userAgent) {
    const m = AGENT_RE.exec(userAgent);
    if (m) return (m[1] !== undefined && NAMED.get(m[1].toLowerCase())) || GENERIC_BOT;
  }
  return kind === 'page' ? PERSON : BY_KIND[kind];
}

/**
 * What a deployment file is for {@link classifyReader} and the path recorded: a page's HTML is the
 * page (`guides/setup`), its `.md` is `guides/setup.md`, `llms.txt`/`llms-full.txt` (also per
 * language, `fr/llms.txt`) are themselves; undefined for anything else (assets, sitemap, images),
 * which is not counted.
 * @param file deployment-relative file (`guides/setup.html`)
 * @param page the page the file belongs to, when it is a page's HTML or Markdown
 */
export function servedKindOf(file: string, page: string | undefined): { kind: ServedKind; path: string } | undefined {
  if (page !== undefined) {
    if (file.endsWith('.html')) return { kind: 'page', path: page };
    if (file.endsWith('.md')) return { kind: 'markdown', path: `${page}.md` };
    return undefined;
  }
  if (file === 'llms.txt' || file.endsWith('/llms.txt')) return { kind: 'llms.txt', path: file };
  if (file === 'llms-full.txt' || file.endsWith('/llms-full.txt')) return { kind: 'llms-full.txt', path: file };
  return undefined;
}
