/**
 * Keeps the layout of an edited block: the Markdown written from HTML is on long lines with single spaces,
 * while the file may wrap its paragraphs or align list text. The start and end the old and new text share
 * (white space runs counting as equal unless only one of them holds a blank line) are kept as written;
 * only the middle comes from the new text.
 */

const WS = /\s/;

/** Length of a white-space run starting at `i`. */
function runAt(s: string, i: number, step: 1 | -1): number {
  let n = 0;
  while (i + n * step >= 0 && i + n * step < s.length && WS.test(s[i + n * step]!)) n++;
  return n;
}

/** 1 when a run holds a blank line (it separates blocks), else 0 (spaces and single line breaks read alike); 0 for all when `lax`. */
function breaks(run: string, lax: boolean): number {
  return !lax && (run.match(/\n/g) ?? []).length >= 2 ? 1 : 0;
}

/** How far `old` and `next` agree from the start (step 1) or the end (step -1), up to `limitOld`/`limitNew` characters. */
function agree(old: string, next: string, step: 1 | -1, limitOld: number, limitNew: number, lax: boolean): [number, number] {
  let i = 0;
  let j = 0;
  const at = (s: string, k: number) => (step === 1 ? k : s.length - 1 - k);
  while (i < limitOld && j < limitNew) {
    const a = old[at(old, i)]!;
    const b = next[at(next, j)]!;
    if (WS.test(a) && WS.test(b)) {
      const ra = runAt(old, at(old, i), step);
      const rb = runAt(next, at(next, j), step);
      const sa = step === 1 ? old.slice(i, i + ra) : old.slice(old.length - i - ra, old.length - i);
      const sb = step === 1 ? next.slice(j, j + rb) : next.slice(next.length - j - rb, next.length - j);
      if (breaks(sa, lax) !== breaks(sb, lax) || i + ra > limitOld || j + rb > limitNew) break;
      i += ra;
      j += rb;
    } else if (a === b) {
      i++;
      j++;
    } else break;
  }
  return [i, j];
}

/**
 * `next` with the start and end it shares with `old` written as in `old` (see the module comment). With `lax`,
 * a blank line and a single line break count as equal too (a list written tight where the new text is loose):
 * the caller checks that the result still means `next`.
 */
export function mergeKeepingLayout(old: string, next: string, lax = false): string {
  const [pi, pj] = agree(old, next, 1, old.length, next.length, lax);
  if (pi === old.length && pj === next.length) return old;
  const [si, sj] = agree(old, next, -1, old.length - pi, next.length - pj, lax);
  return old.slice(0, pi) + next.slice(pj, next.length - sj) + old.slice(old.length - si);
}
