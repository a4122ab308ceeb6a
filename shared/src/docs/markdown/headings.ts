/**
 * Heading ids and the table of contents (site-look.md "Layout" and "Typography and color"): ids from
 * github-slugger, unique per page (the same slugger also names accordions, steps and updates so no two
 * ids clash); toc = h2 and h3; every heading gets a hover anchor link (`a.q-heading-anchor`, drawn by
 * components.css).
 */
import GithubSlugger from 'github-slugger';
import type { TocEntry } from '../types';
import { escapeHtml } from './html';

/** Per-page heading bookkeeping. */
export class HeadingCollector {
  private readonly slugger = new GithubSlugger();
  readonly toc: TocEntry[] = [];
  /** text of the first h1, if any (title fallback) */
  firstH1: string | undefined;
  /**
   * Every id the engine generated on this page (handed out here or {@link reserve}d): the sanitizer
   * keeps these and prefixes all other ids as the author's (user-ids.ts).
   */
  readonly ids = new Set<string>();

  /** A unique id for `text` on this page (`Setup` → `setup`, again → `setup-1`). */
  id(text: string): string {
    const id = this.slugger.slug(text.trim() || 'section');
    this.ids.add(id);
    return id;
  }

  /** Records an id the engine derived from one handed out here (a tab set's `{base}-tab-0`). */
  reserve(id: string): void {
    this.ids.add(id);
  }

  /**
   * Registers a heading of `depth` with plain `text`: returns its id and records h2/h3 in the toc.
   * An explicit id (from HTML `id=`) is reserved as is.
   */
  heading(depth: number, text: string, explicitId?: string): string {
    const clean = text.replace(/\s+/g, ' ').trim();
    const id = explicitId ? this.slugger.slug(explicitId) : this.id(clean);
    this.ids.add(id);
    if (depth === 1 && this.firstH1 === undefined) this.firstH1 = clean;
    if (depth === 2 || depth === 3) this.toc.push({ depth, id, text: clean });
    return id;
  }
}

/** The anchor link appended inside each heading. */
export function anchorHtml(id: string): string {
  return `<a class="q-heading-anchor" href="#${escapeHtml(id)}" aria-label="Link to this section"></a>`;
}
