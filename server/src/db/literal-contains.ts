/**
 * "Contains, literally" for every substring filter (decisions.md section 1: the same results on
 * SQLite and PostgreSQL). Prisma's `contains` becomes `LIKE '%' || term || '%'` without escaping:
 * `%` and `_` in the term act as wildcards on both databases, and `\` is PostgreSQL's default LIKE
 * escape character but a plain character on SQLite (whose LIKE has no ESCAPE clause here), so no
 * single escaping is right for both (prisma/prisma issue 19506).
 *
 * Instead the database gets a pattern that can only match more, never less: `%` and `_` stay
 * (each matches itself too) and `\` becomes `_` (any one character). Callers keep the rows whose
 * value {@link LiteralContains.matches} the term exactly. Use it where the database-side match
 * narrows a bounded set (e.g. the users who acted in an organization), then filter by id.
 */

/** A substring filter: a widened Prisma `where` member plus the exact test. */
export interface LiteralContains {
  /** Prisma string filter matching every value that contains the term (and possibly others). */
  where: { contains: string };
  /** Whether `value` contains the term as literal characters (`%`, `_` and `\` included). */
  matches(value: string): boolean;
}

/** Builds {@link LiteralContains} for `term` (compared as given: lower-case both sides for a case-insensitive filter). */
export function literalContains(term: string): LiteralContains {
  return {
    where: { contains: term.replaceAll('\\', '_') },
    matches: (value) => value.includes(term),
  };
}
