/**
 * Path globs for collaboration rules (decisions.md section 9: approval gates, ownership and access
 * rules name "path globs"). One implementation, `picomatch`, used everywhere a glob is matched, so
 * the server, the desktop app and every rule agree on what a glob means:
 *
 * - paths are repository-relative with `/` separators and no leading `/` (`docs/guide/intro.md`);
 *   a leading `/` or `./` on the tested path is ignored;
 * - `*` and `?` stay within one segment (`docs/*.md` matches `docs/a.md`, not `docs/x/a.md`);
 * - `**` crosses segments, including none (`docs/**` matches `docs/a.md` and `docs/x/y.md`;
 *   `**\/*.md` matches `a.md`);
 * - dotfiles and dot directories are matched like any other name (`docs/*` matches `docs/.env`);
 * - brace lists `{a,b}` and classes `[abc]` are supported; a leading `!` negates nothing (it is refused,
 *   rules list what they cover);
 * - matching is case-sensitive, like git paths.
 */
import picomatch from 'picomatch';

/** The longest glob accepted, in characters. */
export const MAX_PATH_GLOB_LENGTH = 500;

const PICOMATCH_OPTIONS: picomatch.PicomatchOptions = {
  dot: true,
  nonegate: true,
  noext: true,
  strictSlashes: false,
  windows: false,
};

/** Strips a leading `./` or `/` from a path or glob, the one normalisation both sides get. */
function normalise(value: string): string {
  let out = value;
  while (out.startsWith('./')) out = out.slice(2);
  while (out.startsWith('/')) out = out.slice(1);
  return out;
}

/**
 * Checks one glob before it is stored.
 * @param glob the glob as the user typed it.
 * @returns null when usable, else a sentence naming the problem (empty, too long, control characters,
 *   backslashes, a leading `!`, `..` segments, or a pattern picomatch cannot compile).
 */
export function validatePathGlob(glob: string): string | null {
  if (typeof glob !== 'string') return 'A path glob must be a string.';
  if (glob.trim() === '') return 'A path glob cannot be empty.';
  if (glob.length > MAX_PATH_GLOB_LENGTH) return `A path glob is at most ${MAX_PATH_GLOB_LENGTH} characters.`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(glob)) return 'A path glob cannot contain control characters.';
  if (glob.includes('\\')) return `The path glob "${glob}" contains a backslash; use "/" between folders.`;
  if (glob.startsWith('!')) return `The path glob "${glob}" starts with "!"; negated globs are not supported.`;
  if (normalise(glob).split('/').some((segment) => segment === '..')) {
    return `The path glob "${glob}" contains a ".." segment; globs are relative to the repository root.`;
  }
  try {
    picomatch.makeRe(normalise(glob), PICOMATCH_OPTIONS);
  } catch (error) {
    return `The path glob "${glob}" is not valid: ${error instanceof Error ? error.message : String(error)}.`;
  }
  return null;
}

/**
 * Compiles globs into one matcher: true when the path matches any of them (an empty list matches
 * nothing).
 * @param globs globs already checked with {@link validatePathGlob}.
 * @returns `(path) => boolean` for repository-relative paths (`docs/intro.md`).
 * @throws Error naming the glob when one is invalid (callers validate input first; a stored invalid
 *   glob is a bug).
 */
export function compilePathGlobs(globs: readonly string[]): (path: string) => boolean {
  const matchers = globs.map((glob) => {
    const problem = validatePathGlob(glob);
    if (problem) throw new Error(problem);
    return picomatch(normalise(glob), PICOMATCH_OPTIONS);
  });
  return (path: string) => {
    const target = normalise(path);
    return matchers.some((match) => match(target));
  };
}
