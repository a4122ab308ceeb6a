/**
 * User-written patterns (style rule tokens, glossary words) run on RE2JS, a linear-time regular
 * expression engine (a port of RE2): a rule's pattern cannot make a page take exponential time, so
 * no time budget is needed (designs-to-learn-from.md: patterns must not run on a backtracking
 * engine without one). RE2 syntax: no backreferences or lookaround.
 */
import { RE2JS } from 're2js';

/** One match of a {@link SafePattern}. */
export interface PatternMatch {
  start: number;
  end: number;
  text: string;
  /** Index into the alternatives the pattern was compiled from. */
  alternative: number;
}

/** A compiled user pattern. */
export interface SafePattern {
  /**
   * Every non-overlapping match in `text`: 0-based UTF-16 offsets (end exclusive), the matched text
   * and the index of the alternative that matched.
   */
  matches(text: string): PatternMatch[];
}

/** A pattern RE2 refuses; `message` says why, naming the pattern. */
export class PatternError extends Error {
  override name = 'PatternError';
}

/**
 * Compiles `alternatives` (each an RE2 regular expression; a plain word is one) into one pattern
 * that matches any of them as whole words (`\b` on both sides where the alternative starts or ends
 * with a word character). Compile once per rule set (see `createLinter`), not per page.
 * @throws PatternError when an alternative is not valid RE2 syntax.
 */
export function wordPattern(alternatives: readonly string[], ignoreCase: boolean): SafePattern {
  // The group number of each alternative's own group (user patterns may hold groups of their own).
  const groupOf: number[] = [];
  let next = 1;
  for (const alt of alternatives) {
    try {
      groupOf.push(next);
      next += 1 + RE2JS.compile(alt).groupCount();
    } catch (err) {
      throw new PatternError(`The pattern "${alt}" is not a valid RE2 regular expression: ${(err as Error).message}`);
    }
  }
  // One capturing group per alternative, to tell which matched.
  const source = alternatives.map((alt) => `(${/^\w/.test(alt) ? '\\b' : ''}(?:${alt})${/\w$/.test(alt) ? '\\b' : ''})`).join('|');
  const re = RE2JS.compile(source, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  return {
    matches(text) {
      const out: PatternMatch[] = [];
      const m = re.matcher(text);
      while (m.find()) {
        if (m.end() === m.start()) continue;
        let alternative = 0;
        while (alternative < alternatives.length - 1 && m.group(groupOf[alternative]!) === null) alternative++;
        out.push({ start: m.start(), end: m.end(), text: m.group() ?? '', alternative });
      }
      return out;
    },
  };
}

/** Escapes `literal` for use as an RE2 pattern that matches exactly that text. */
export function literalPattern(literal: string): string {
  return RE2JS.quote(literal);
}

/**
 * Compiles one user-written RE2 regular expression `source` as it is (no word boundaries added, unlike
 * {@link wordPattern}): the search of Quire Desktop's "Search in files" runs user regexes on it, in
 * linear time. Empty matches are skipped; `alternative` is always 0.
 * @throws PatternError when `source` is not valid RE2 syntax (backreferences and lookaround are not).
 */
export function searchPattern(source: string, ignoreCase: boolean): SafePattern {
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (err) {
    throw new PatternError(`The pattern "${source}" is not a valid RE2 regular expression: ${(err as Error).message}`);
  }
  return {
    matches(text) {
      const out: PatternMatch[] = [];
      const m = re.matcher(text);
      while (m.find()) {
        if (m.end() === m.start()) continue;
        out.push({ start: m.start(), end: m.end(), text: m.group() ?? '', alternative: 0 });
      }
      return out;
    },
  };
}
