/**
 * Text rules every URL Quire connects to shares (repository URLs, webhook destinations;
 * decisions.md section 10): a length bound, and no characters URL parsers disagree on.
 */

/** Longest URL accepted, in characters. */
export const URL_MAX_LENGTH = 2048;

/**
 * Whitespace, control characters and backslashes: the WHATWG parser drops tabs and newlines and
 * reads `\` as `/` in http(s) URLs, git, curl and ssh do not, so a URL holding one could name a
 * different host to each of them.
 */
// eslint-disable-next-line no-control-regex
export const UNSAFE_URL_CHARS = /[\s\x00-\x1f\x7f\\]/;
