/**
 * Branch names and commit ids handed to git (decisions.md section 10: "branch names, refs and
 * SHAs are validated"). One rule for the API schemas, the build trigger and the builder.
 */

/** Longest branch name accepted, in characters. */
export const BRANCH_MAX_LENGTH = 250;

/** A full 40 (SHA-1) or 64 (SHA-256) lowercase hex digit commit id. */
export const COMMIT_SHA_PATTERN = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

const BRANCH_CHARS = /^[A-Za-z0-9._/+@-]+$/;

/** The outcome of a check: ok, or the problem in words a user can act on. */
export type RefCheck = { ok: true } | { ok: false; issue: string };

/**
 * Checks a branch (or tag) name: git's check-ref-format rules (no `..`, `//`, lone `@`, leading or
 * trailing `/`, trailing `.`, a component starting with `.` or ending with `.lock`), plus no leading
 * `-` (so it can never become an option), only `[A-Za-z0-9._/+@-]` (which leaves out `@{`, `~`,
 * `^`, `:`, `?`, `*`, `[`, `\`, spaces and control characters), and 1 to {@link BRANCH_MAX_LENGTH}
 * characters.
 * @returns `{ok: false, issue}` naming the first rule broken; never throws.
 */
export function checkBranchName(branch: string): RefCheck {
  const fail = (issue: string): RefCheck => ({ ok: false, issue });
  if (branch.length === 0) return fail('must not be empty');
  if (branch.length > BRANCH_MAX_LENGTH) return fail(`must be at most ${BRANCH_MAX_LENGTH} characters`);
  if (!BRANCH_CHARS.test(branch)) return fail("may hold only letters, digits and '.', '_', '-', '/', '+', '@'");
  if (branch.startsWith('-')) return fail('must not start with "-"');
  if (branch === '@') return fail('must not be "@"');
  if (branch.includes('..')) return fail('must not contain ".."');
  if (branch.startsWith('/') || branch.endsWith('/') || branch.includes('//')) {
    return fail('must not start or end with "/" or contain "//"');
  }
  if (branch.endsWith('.')) return fail('must not end with "."');
  for (const part of branch.split('/')) {
    if (part.startsWith('.')) return fail('no "/"-separated part may start with "."');
    if (part.endsWith('.lock')) return fail('no "/"-separated part may end with ".lock"');
  }
  return { ok: true };
}

/**
 * Checks a commit id: exactly {@link COMMIT_SHA_PATTERN} (callers lowercase first if they accept
 * upper case).
 * @returns `{ok: false, issue}` when it is anything else; never throws.
 */
export function checkCommitSha(sha: string): RefCheck {
  return COMMIT_SHA_PATTERN.test(sha) ? { ok: true } : { ok: false, issue: 'must be a full 40 hex digit commit id' };
}
