/**
 * Writes of analytics counts (analytics/batch.ts), one implementation per database, as one SQL
 * statement per row kind instead of an ORM call per row: a batch holds up to thousands of distinct
 * counts (every distinct search query of 2 seconds), and an ORM upsert per count costs the serving
 * process's event loop about a millisecond of JavaScript each (measured: `/_quire/search` under load
 * stalled for hundreds of milliseconds at every flush).
 *
 * - SQLite: prepared `INSERT ... ON CONFLICT DO UPDATE` statements in one transaction (synchronous,
 *   a few microseconds a row).
 * - PostgreSQL: multi-row `INSERT ... ON CONFLICT DO UPDATE` in chunks inside one transaction, rows
 *   sorted by key so two processes writing overlapping batches take row locks in the same order.
 *
 * Counts are added (`count = count + excluded.count`), so batches from several processes never
 * overwrite each other; a visitor row is created unless it exists. Rows of projects that no longer
 * exist are dropped (a project deleted between the view and the write).
 */
import type Database from 'better-sqlite3';
import type pg from 'pg';

/** Page views of one hour, page and kind of reader (schema `PageViewCount`). */
export interface ViewCountRow {
  projectId: string;
  /** the UTC hour, ms since the epoch */
  hour: number;
  path: string;
  reader: string;
  agent: string;
  count: number;
}

/** One visitor of one day (schema `DailyVisitor`). */
export interface VisitorRow {
  projectId: string;
  /** `YYYY-MM-DD` */
  day: string;
  visitor: string;
  reader: string;
}

/** Searches of one day and query (schema `SearchQueryCount`). */
export interface SearchCountRow {
  projectId: string;
  day: string;
  query: string;
  source: string;
  count: number;
  noResults: number;
}

/** What one write adds. Keys must be distinct within each list (the recorder adds repeats up). */
export interface AnalyticsRowsBatch {
  views: ViewCountRow[];
  visitors: VisitorRow[];
  searches: SearchCountRow[];
}

/** Adds analytics counts. */
export interface AnalyticsRows {
  /**
   * Adds a batch in one transaction (all of it or nothing).
   * @throws Error when the database fails.
   */
  add(batch: AnalyticsRowsBatch): Promise<void>;
}

/** The batch without rows of projects that do not exist (`known`). */
function ofKnownProjects(batch: AnalyticsRowsBatch, known: ReadonlySet<string>): AnalyticsRowsBatch {
  return {
    views: batch.views.filter((r) => known.has(r.projectId)),
    visitors: batch.visitors.filter((r) => known.has(r.projectId)),
    searches: batch.searches.filter((r) => known.has(r.projectId)),
  };
}

/** The distinct project ids of a batch. */
function projectsOf(batch: AnalyticsRowsBatch): string[] {
  return [...new Set([...batch.views, ...batch.visitors, ...batch.searches].map((r) => r.projectId))];
}

/** {@link AnalyticsRows} on a SQLite connection. */
export function sqliteAnalyticsRows(sqlite: Database.Database): AnalyticsRows {
  const view = sqlite.prepare(
    `INSERT INTO PageViewCount (projectId, hour, path, reader, agent, count) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (projectId, hour, path, reader, agent) DO UPDATE SET count = count + excluded.count`,
  );
  const visitor = sqlite.prepare(`INSERT INTO DailyVisitor (projectId, day, visitor, reader) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`);
  const search = sqlite.prepare(
    `INSERT INTO SearchQueryCount (projectId, day, query, source, count, noResults) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (projectId, day, query, source) DO UPDATE SET count = count + excluded.count, noResults = noResults + excluded.noResults`,
  );
  const exists = sqlite.prepare<[string], { id: string }>('SELECT id FROM Project WHERE id = ?');
  const write = sqlite.transaction((batch: AnalyticsRowsBatch) => {
    const known = new Set(projectsOf(batch).filter((id) => exists.get(id) !== undefined));
    const rows = ofKnownProjects(batch, known);
    for (const r of rows.views) view.run(r.projectId, r.hour, r.path, r.reader, r.agent, r.count);
    for (const r of rows.visitors) visitor.run(r.projectId, r.day, r.visitor, r.reader);
    for (const r of rows.searches) search.run(r.projectId, r.day, r.query, r.source, r.count, r.noResults);
  });
  return {
    add: async (batch) => write(batch),
  };
}

/** Rows per multi-row statement on PostgreSQL (at most 6 parameters a row: well under its 65,535). */
const PG_CHUNK = 1_000;

/** `($1, $2, ...), (...)` for `rows` rows of `width` parameters. */
function placeholders(rows: number, width: number): string {
  const out: string[] = [];
  for (let r = 0; r < rows; r++) out.push(`(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`);
  return out.join(', ');
}

/** Runs `sql(values)` over `rows` in chunks, each row's parameters from `params`. */
async function insertChunks<T>(client: pg.PoolClient, rows: T[], width: number, params: (row: T) => unknown[], sql: (values: string) => string): Promise<void> {
  for (let i = 0; i < rows.length; i += PG_CHUNK) {
    const chunk = rows.slice(i, i + PG_CHUNK);
    await client.query(sql(placeholders(chunk.length, width)), chunk.flatMap(params));
  }
}

const byKey = <T>(key: (row: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/** {@link AnalyticsRows} on a PostgreSQL pool. */
export function postgresAnalyticsRows(pool: pg.Pool): AnalyticsRows {
  return {
    async add(batch) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const ids = projectsOf(batch);
        const found = ids.length === 0 ? [] : (await client.query<{ id: string }>('SELECT id FROM "Project" WHERE id = ANY($1)', [ids])).rows;
        const rows = ofKnownProjects(batch, new Set(found.map((r) => r.id)));
        const views = rows.views.sort(byKey((r) => `${r.projectId}\n${r.hour}\n${r.path}\n${r.reader}\n${r.agent}`));
        await insertChunks(client, views, 6, (r) => [r.projectId, new Date(r.hour), r.path, r.reader, r.agent, r.count], (values) =>
          `INSERT INTO "PageViewCount" ("projectId", "hour", "path", "reader", "agent", "count") VALUES ${values}
           ON CONFLICT ("projectId", "hour", "path", "reader", "agent") DO UPDATE SET "count" = "PageViewCount"."count" + EXCLUDED."count"`);
        const visitors = rows.visitors.sort(byKey((r) => `${r.projectId}\n${r.day}\n${r.visitor}`));
        await insertChunks(client, visitors, 4, (r) => [r.projectId, r.day, r.visitor, r.reader], (values) =>
          `INSERT INTO "DailyVisitor" ("projectId", "day", "visitor", "reader") VALUES ${values} ON CONFLICT DO NOTHING`);
        const searches = rows.searches.sort(byKey((r) => `${r.projectId}\n${r.day}\n${r.query}\n${r.source}`));
        await insertChunks(client, searches, 6, (r) => [r.projectId, r.day, r.query, r.source, r.count, r.noResults], (values) =>
          `INSERT INTO "SearchQueryCount" ("projectId", "day", "query", "source", "count", "noResults") VALUES ${values}
           ON CONFLICT ("projectId", "day", "query", "source") DO UPDATE SET "count" = "SearchQueryCount"."count" + EXCLUDED."count", "noResults" = "SearchQueryCount"."noResults" + EXCLUDED."noResults"`);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
  };
}
