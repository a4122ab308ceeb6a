/**
 * The search seam between the builder (which writes a deployment's search index), the server
 * (which loads it lazily and answers `GET /v1/projects/{projectId}/search` and the site's
 * `/_quire/search`) and the site's search dialog. decisions.md section 7 gives the API's hit
 * shape; interface-spec.md "Search" the `version` scoping.
 *
 * One index per deployment: a documentation version is its own deployment (its own channel), so
 * "per deployment and version" needs nothing more. Gated pages are in the same index with their
 * audience tags on each record; a query filters by the reader's tags ({@link SearchQuery.canRead}),
 * so no index is built per visitor or per audience.
 */

/** One searchable section of a page: its introduction (text before the first heading) or one heading's section. */
export interface SearchRecord {
  /** page path as served (`guides/setup`, `index` for the home page) */
  path: string;
  /** the page's title */
  title: string;
  /** the section's heading text; absent for the page's introduction */
  section?: string;
  /** the heading's id (`install`, as the page's `<h2 id>`); absent for the introduction */
  anchor?: string;
  /** the heading's level (2 or 3); absent for the introduction */
  depth?: 2 | 3;
  /** plain text of the section (Markdown and markup removed) */
  text: string;
  /** frontmatter `audience` tags: the page is gated (decisions.md section 6); absent: public */
  audience?: string[];
  /** the language division the page belongs to (`en`, `fr`) when the site has `languages`; absent otherwise */
  language?: string;
}

/** What a query asks. */
export interface SearchQuery {
  /** the reader's text (at most 200 characters are considered) */
  q: string;
  /** hits wanted, 1..50 */
  limit: number;
  /**
   * Whether the reader may see a gated record (called with its non-empty `audience`); absent:
   * gated records are never returned. Public records are always readable.
   */
  canRead?: (audience: readonly string[]) => boolean;
  /** only records of this language division */
  language?: string;
  /** hits carry their section's plain text ({@link SearchHit.text}), for the assistant's answers */
  withText?: boolean;
}

/** One hit, best first. */
export interface SearchHit {
  path: string;
  title: string;
  /** heading text of the section hit; absent when the hit is the page's introduction */
  section?: string;
  /** heading id to link to (`<path>#<anchor>`) */
  anchor?: string;
  /** HTML-escaped excerpt of the section with each matched word wrapped in `<mark>` */
  snippet: string;
  /** relevance, higher is better (not comparable across queries) */
  score: number;
  /** the section's plain text; only when the query asked `withText` */
  text?: string;
}

/** A loaded, queryable index of one deployment. */
export interface SearchIndex {
  /** hits for a query, best first (title over heading over body; prefixes and typos tolerated) */
  search(query: SearchQuery): SearchHit[];
  /** number of records indexed */
  readonly size: number;
  /** about how many bytes the loaded index holds (its files' sizes), for a cache bounded by bytes */
  readonly bytes?: number;
  /** records whose title, heading or text holds `term` (a folded term, tokens.ts); 0 when none (the assistant weighs question words by it) */
  documentFrequency?(term: string): number;
  /**
   * Terms of the index `term` may be a typo of: one edit away (insertion, deletion, substitution, adjacent swap), or two for a
   * long word with none at one (query.ts `typoMatches`: the typo tolerance search applies to query words), the `k` held by
   * most records first; empty when none. The assistant corrects question words with it.
   */
  similarTerms?(term: string, k: number): { term: string; df: number }[];
}
