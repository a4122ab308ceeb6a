/**
 * Dates read by raw SQL (`prisma.$queryRaw`). Each database hands a DateTime column over in its own
 * form: PostgreSQL's driver gives a `Date`; SQLite stores DateTime as Unix epoch milliseconds
 * (client.ts: the adapter's `timestampFormat: 'unixepoch-ms'`), which raw SQL returns as an integer
 * (`bigint`, or `number`). Prisma's own aggregates cannot read the SQLite form (`_max` of a DateTime
 * answers an Invalid Date there), so an aggregate of dates is written as raw SQL and read with this.
 */

/**
 * The date a raw query returned for a DateTime column or an aggregate of one (`MAX("createdAt")`).
 * @param value a `Date` (PostgreSQL), epoch milliseconds as `bigint` or `number` (SQLite), or an ISO 8601 string
 * @throws Error when `value` is none of these or names no valid date.
 */
export function rawDate(value: unknown): Date {
  const date =
    value instanceof Date ? value : typeof value === 'bigint' ? new Date(Number(value)) : typeof value === 'number' || typeof value === 'string' ? new Date(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) throw new Error(`Not a date from the database: ${String(value)}`);
  return date;
}
