/**
 * What one OpenAPI page may expand to (limits.ts, decisions.md section 10): a spec whose schemas
 * reference each other wide and deep describes exponentially many fields and example values, so
 * every field and example of a page draws on one {@link PageBudget}. Past it the page degrades (a
 * truncated example, a "too large to show" note) and says why through {@link PageBudget.notes},
 * which the renderers turn into `openapi` warnings; a build never fails because a schema is huge.
 */
import { formatSize, MAX_OPENAPI_EXAMPLE_CHARS, MAX_OPENAPI_PAGE_CHARS } from '../limits';

/** A character allowance for one example; `truncated` is set when something was left out for it. */
export class ExampleAllowance {
  used = 0;
  truncated = false;
  constructor(readonly limit: number) {}

  /** Takes `chars` from the allowance; false (and `truncated`) when they do not fit. */
  take(chars: number): boolean {
    if (this.used + chars > this.limit) {
      this.truncated = true;
      return false;
    }
    this.used += chars;
    return true;
  }

  /** Characters left. */
  get left(): number {
    return this.limit - this.used;
  }
}

/** The characters of fields and examples one page may still produce, and what was cut. */
export class PageBudget {
  used = 0;
  /** what was truncated or left out, phrased for a writer (`response 200: example truncated at 200 KB`) */
  readonly notes = new Set<string>();
  constructor(readonly limit = MAX_OPENAPI_PAGE_CHARS) {}

  /** True once the page has used its characters: nested fields are no longer expanded. */
  get exhausted(): boolean {
    return this.used >= this.limit;
  }

  /** Counts `chars` of output (always: the caller has produced them). */
  spend(chars: number): void {
    this.used += chars;
  }

  /** An allowance for one example: MAX_OPENAPI_EXAMPLE_CHARS, or what the page has left if less. */
  allowance(): ExampleAllowance {
    return new ExampleAllowance(Math.max(0, Math.min(MAX_OPENAPI_EXAMPLE_CHARS, this.limit - this.used)));
  }

  /** Counts what an example used; notes `what` when it was truncated. */
  settle(a: ExampleAllowance, what: string): void {
    this.used += a.used;
    if (a.truncated) this.notes.add(`${what}: example truncated at ${formatSize(a.limit)} (the schema expands too far)`);
  }
}

/**
 * Characters of `value` written as compact JSON (strings count their length plus quotes), counting
 * shared or cyclic parts once per occurrence; stops past `cap` (returns a number above it), so the
 * work is bounded by `cap` however the value is shaped (YAML aliases can make it a graph).
 */
export function jsonSize(value: unknown, cap: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= cap) {
    const v = stack.pop();
    if (typeof v === 'string') size += v.length + 2;
    else if (Array.isArray(v)) {
      size += 2 + v.length;
      for (let i = v.length - 1; i >= 0 && size <= cap; i--) stack.push(v[i]);
    } else if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v as Record<string, unknown>);
      size += 2 + entries.length;
      for (const [k, x] of entries) {
        size += k.length + 3;
        stack.push(x);
        if (size > cap) break;
      }
    } else size += String(v).length;
  }
  return size;
}

/** Written in place of an example left out of the page. */
export const EXAMPLE_TOO_LARGE = `<example too large to show (over ${formatSize(MAX_OPENAPI_EXAMPLE_CHARS)})>`;

/**
 * A spec-given example as the page may show it: the value itself when it fits one example's
 * allowance, else {@link EXAMPLE_TOO_LARGE} with a note for `what` (`response 200`). Undefined stays undefined.
 */
export function fitExample(value: unknown, budget: PageBudget, what: string): unknown {
  if (value === undefined) return undefined;
  const a = budget.allowance();
  if (a.take(jsonSize(value, a.limit))) {
    budget.settle(a, what);
    return value;
  }
  budget.notes.add(`${what}: example over ${formatSize(a.limit)} left out`);
  return EXAMPLE_TOO_LARGE;
}
