/**
 * Heading ids and the table of contents (site-look.md "Layout" and "Typography and color"): ids by Mintlify's
 * rule (heading-ids.ts), unique per page (the same allocator also names accordions, steps and updates so no two
 * ids clash); toc = h2 and h3; every heading gets a hover anchor link (`a.q-heading-anchor`, drawn by
 * components.css). A heading whose earlier Quire id (github-slugger) differs also carries that id on an empty
 * `span.q-heading-alias`, so links written against either rule land on it.
 */
import type { TocEntry } from '../types';
import { HeadingIds } from './heading-ids';
import { escapeHtml } from './html';

/** Per-page heading bookkeeping. */
export class HeadingCollector {
  private readonly allocator = new HeadingIds();
  private readonly aliases = new Map<string, string>();
  readonly toc: TocEntry[] = [];
  /** text of the first h1, if any (title fallback) */
  firstH1: string | undefined;
  /**
   * Every id the engine generated on this page (handed out here, {@link reserve}d, or a heading's alias): the
   * sanitizer keeps these and prefixes all other ids as the author's (user-ids.ts).
   */
  readonly ids = new Set<string>();

  /** A unique id for `text` on this page (`Setup` → `setup`, again → `setup-2`; `chat.agent()` → `chat-agent`). */
  id(text: string): string {
    const { id } = this.allocator.next(text);
    this.ids.add(id);
    return id;
  }

  /** Records an id the engine derived from one handed out here (a tab set's `{base}-tab-0`). */
  reserve(id: string): void {
    this.allocator.take(id);
    this.ids.add(id);
  }

  /**
   * Registers a heading of `depth` with plain `text`: returns its id and records h2/h3 in the toc.
   * An explicit id (from HTML `id=`) is kept as written (with `-2`… when the page already uses it).
   */
  heading(depth: number, text: string, explicitId?: string): string {
    const clean = text.replace(/\s+/g, ' ').trim();
    let id: string;
    if (explicitId) id = this.allocator.take(explicitId);
    else {
      const pair = this.allocator.next(clean);
      id = pair.id;
      if (pair.legacy && !this.allocator.has(pair.legacy)) {
        this.allocator.take(pair.legacy);
        this.ids.add(pair.legacy);
        this.aliases.set(id, pair.legacy);
      }
    }
    this.ids.add(id);
    if (depth === 1 && this.firstH1 === undefined) this.firstH1 = clean;
    if (depth === 2 || depth === 3) this.toc.push({ depth, id, text: clean });
    return id;
  }

  /** The HTML put first inside the heading with `id`: an empty target with its older id, or ``. */
  aliasTarget(id: string): string {
    const alias = this.aliases.get(id);
    return alias ? `<span class="q-heading-alias" id="${escapeHtml(alias)}"></span>` : '';
  }
}

/** The anchor link appended inside each heading. */
export function anchorHtml(id: string): string {
  return `<a class="q-heading-anchor" href="#${escapeHtml(id)}" aria-label="Link to this section"></a>`;
}
