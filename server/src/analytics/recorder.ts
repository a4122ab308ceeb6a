/**
 * The analytics seam (the server side of page views, searches and agent traffic): every surface that
 * serves readers hands what it served to `ctx.analytics`, which must never slow serving (no await, no
 * database, never throws). What is recorded is added up in memory and written in batches through the
 * job queue seam (`analytics` jobs), so a burst of views costs one write per batch and no count is
 * lost on a graceful close (`close()` flushes).
 *
 * No cookie is set and no third party is called: visitors are counted by a hash of address and user
 * agent with a random salt of the UTC day, thrown away after that day (schema `DailyVisitor`,
 * `AnalyticsSalt`).
 */

/** Who read: a person (a browser) or an AI agent / crawler (known user agents, `.md`, `llms*.txt`, MCP). */
export type ReaderKind = 'person' | 'agent';

/** One page (or agent file) served. */
export interface PageViewEvent {
  projectId: string;
  /**
   * What was read: the page path (`guides/setup`, `index` for the home page), or the agent file
   * (`llms.txt`, `llms-full.txt`, `guides/setup.md`, `mcp`)
   */
  path: string;
  reader: ReaderKind;
  /** the agent's name (`GPTBot`, `ClaudeBot`, `markdown`, `llms.txt`, `mcp`); "" for people */
  agent: string;
  /** the visitor, for unique-visitor counts (hashed with the day's salt, never stored as given) */
  visitor?: { ip: string; userAgent: string };
}

/** One search answered. */
export interface SearchEvent {
  projectId: string;
  /** the reader's text as sent (normalised by the recorder) */
  query: string;
  /** hits returned */
  results: number;
  /** which surface: the site's dialog, the API, the site's MCP server */
  source: 'site' | 'api' | 'mcp';
}

/** Records what readers did (see the module comment). One per app: `ctx.analytics`. */
export interface AnalyticsRecorder {
  /** Counts one page view. Synchronous, never throws. */
  pageView(view: PageViewEvent): void;
  /** Counts one search. Synchronous, never throws. */
  search(event: SearchEvent): void;
  /** Hands everything buffered to the job queue now and waits until it is written (tests, shutdown). */
  flush(): Promise<void>;
  /** Flushes and stops the timer; later calls record nothing. */
  close(): Promise<void>;
}

/** A recorder that records nothing (analytics switched off for a process, unit tests of other parts). */
export const NO_ANALYTICS: AnalyticsRecorder = {
  pageView() {},
  search() {},
  flush: async () => {},
  close: async () => {},
};
