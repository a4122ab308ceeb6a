/**
 * Code blocks are most of a page's HTML (one styled span per token) and are produced by Quire itself from
 * escaped text (shiki escapes every token; titles and languages are escaped by highlight.ts). Running them
 * through the sanitizer costs about a quarter of a page's render time for nothing, so the renderers put a
 * placeholder in their place and the blocks are put back after sanitizing. A placeholder is private-use
 * characters around a random per-process nonce, which page content cannot know; a placeholder that the
 * sanitizer drops (e.g. inside a removed element) simply loses its block.
 */

const NONCE = Array.from({ length: 16 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
const OPEN = '\uE000';
const CLOSE = '\uE001';
const PATTERN = new RegExp(`${OPEN}q${NONCE}:(\\d+)${CLOSE}`, 'g');

/** Holds trusted HTML fragments of one page render. */
export class TrustedSlots {
  private readonly items: string[] = [];

  /** Stores trusted `html` and returns the placeholder to put in the untrusted HTML instead. */
  put(html: string): string {
    this.items.push(html);
    return `${OPEN}q${NONCE}:${this.items.length - 1}${CLOSE}`;
  }

  /** Replaces the placeholders in sanitized HTML by the stored fragments. */
  restore(html: string): string {
    if (this.items.length === 0) return html;
    return html.replace(PATTERN, (_m, i: string) => this.items[Number(i)] ?? '');
  }
}
