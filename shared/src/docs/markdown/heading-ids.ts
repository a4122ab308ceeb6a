/**
 * Heading ids the way Mintlify makes them, so links written for a Mintlify site (`#chat-agent` to a heading
 * `chat.agent()`) land on the same heading of a Quire-built site. The rule, from Mintlify's own docs
 * ("Automatic anchor IDs", create/text.mdx of the Mintlify docs corpus) and checked against the anchor links of
 * the five real corpora (fixtures/corpora, fixtures/corpora-heldout):
 * - letters are lower-cased in place (`OAuth` → `oauth`, no hyphen inside camelCase words);
 * - a straight apostrophe becomes `’` and stays (`What's new` → `what’s-new`);
 * - whitespace and ASCII punctuation other than `& / $ @ _ ’` separate words: each run of them becomes one `-`,
 *   and leading/trailing separators are dropped (`chat.agent()` → `chat-agent`, `Config.json options` →
 *   `config-json-options`, `Rate limits (per minute)` → `rate-limits-per-minute`, `1. Define a tool` →
 *   `1-define-a-tool`, `Step 1: Issue a proxy secret` → `step-1-issue-a-proxy-secret`);
 * - `&`, `/`, `$`, `@`, `_` and every non-ASCII character (emoji, `—`, `→`, accented letters) are kept
 *   (`Fees & billing` → `fees-&-billing`, `Read/write access` → `read/write-access`);
 * - a repeated id on a page gets `-2`, `-3`, … (`Overview` twice → `overview`, `overview-2`).
 * Quire named headings with github-slugger before; {@link HeadingIds} also returns that older id so a page can
 * keep it as an alias target and old links keep working.
 */
import GithubSlugger from 'github-slugger';

/** ASCII characters that separate words in an id: whitespace, controls and punctuation except `& / $ @ _ -`. */
const SEPARATORS = /[\s\p{Cc}!"#%()*+,.:;<=>?[\\\]^`{|}~-]+/gu;

/**
 * The Mintlify id of one heading text, before page uniqueness (see the module comment for the rule and its
 * evidence). Empty when the text has no character that survives (`(…)` → ``).
 */
export function mintlifyHeadingId(text: string): string {
  return text
    .toLowerCase()
    .replace(/'/g, '’')
    .replace(SEPARATORS, '-')
    .replace(/^-+|-+$/g, '');
}

/** A heading's id on a page and, when github-slugger (Quire's earlier rule) named it differently, that older id. */
export interface HeadingIdPair {
  id: string;
  /** the github-slugger id of the same text at the same place, when it differs from `id` */
  legacy?: string;
}

/**
 * Page-unique heading ids: {@link mintlifyHeadingId} plus `-2`, `-3`, … for repeats (also past ids taken by
 * {@link take}). Also tracks the ids github-slugger would have given, for aliases. One instance per page.
 */
export class HeadingIds {
  private readonly taken = new Set<string>();
  private readonly legacySlugger = new GithubSlugger();

  /** The next id for `text` (`section` when nothing of it survives), and its github-slugger id when different. */
  next(text: string): HeadingIdPair {
    const trimmed = text.trim();
    const base = mintlifyHeadingId(trimmed) || 'section';
    const legacy = this.legacySlugger.slug(trimmed || 'section');
    const id = this.unique(base);
    return legacy !== id ? { id, legacy } : { id };
  }

  /** Marks `id` as used on this page (an author's explicit id, an alias); the first `-n` free form when taken. */
  take(id: string): string {
    return this.unique(id);
  }

  /** Whether `id` is already used on this page. */
  has(id: string): boolean {
    return this.taken.has(id);
  }

  private unique(base: string): string {
    let id = base;
    for (let n = 2; this.taken.has(id); n++) id = `${base}-${n}`;
    this.taken.add(id);
    return id;
  }
}
