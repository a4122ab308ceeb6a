/**
 * The time range and buckets of the analytics reads (shared/src/api/analytics.ts): `from`
 * inclusive; `to` as a date includes that whole UTC day, as a date-time is the end itself; default
 * the {@link DEFAULT_RANGE_DAYS} days up to now. Buckets are UTC hours, days, weeks (from Monday) or
 * calendar months.
 */
import { invalidField } from '@quire/shared/errors';
import { DEFAULT_RANGE_DAYS, MAX_VIEW_BUCKETS, type AnalyticsRangeQuery, type ViewInterval } from '@quire/shared/api/analytics';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** A resolved range: `from` inclusive, `to` exclusive. */
export interface TimeRange {
  from: Date;
  to: Date;
}

const isDay = (s: string) => s.length === 10;

/**
 * The range a query names (see the module comment).
 * @throws ApiError invalid_request naming `from` when it is after `to`.
 */
export function resolveRange(query: AnalyticsRangeQuery, now = new Date()): TimeRange {
  const to = query.to === undefined ? now : new Date(Date.parse(query.to) + (isDay(query.to) ? DAY_MS : 0));
  const from = query.from === undefined ? new Date(to.getTime() - DEFAULT_RANGE_DAYS * DAY_MS) : new Date(Date.parse(query.from));
  if (from.getTime() > to.getTime()) throw invalidField('from', 'must not be after to', `from (${from.toISOString()}) is after to (${to.toISOString()}).`);
  return { from, to };
}

/** UTC days `YYYY-MM-DD` a range touches, first and last (for day-keyed rows). */
export function dayBounds(range: TimeRange): { first: string; last: string } {
  return { first: range.from.toISOString().slice(0, 10), last: new Date(Math.max(range.from.getTime(), range.to.getTime() - 1)).toISOString().slice(0, 10) };
}

/** Start of the bucket holding `t`. */
export function bucketStart(t: Date, interval: ViewInterval): Date {
  const ms = t.getTime();
  switch (interval) {
    case 'hour':
      return new Date(ms - (((ms % HOUR_MS) + HOUR_MS) % HOUR_MS));
    case 'day':
      return new Date(ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS));
    case 'week': {
      const day = bucketStart(t, 'day');
      return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
    }
    case 'month':
      return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1));
  }
}

/** The start after `start`'s bucket. */
function nextStart(start: Date, interval: ViewInterval): Date {
  if (interval === 'month') return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  return new Date(start.getTime() + (interval === 'hour' ? HOUR_MS : interval === 'day' ? DAY_MS : 7 * DAY_MS));
}

/**
 * The starts of the buckets covering a range, oldest first.
 * @throws ApiError invalid_request naming `interval` when there would be more than {@link MAX_VIEW_BUCKETS}.
 */
export function bucketStarts(range: TimeRange, interval: ViewInterval): Date[] {
  const out: Date[] = [];
  for (let s = bucketStart(range.from, interval); s.getTime() < range.to.getTime() || out.length === 0; s = nextStart(s, interval)) {
    if (out.length >= MAX_VIEW_BUCKETS) {
      throw invalidField('interval', `the range holds more than ${MAX_VIEW_BUCKETS} buckets`, `The range holds more than ${MAX_VIEW_BUCKETS} ${interval} buckets: pick a shorter range or a longer interval.`);
    }
    out.push(s);
  }
  return out;
}
