/**
 * `@mentions` in review comments (decisions.md section 11, review comments): the one parser the
 * server (which stores who a comment mentions, server/src/services/review-comments.ts) and the
 * desktop (which shows a comment written offline with its mentions, desktop/src/core/reviews.ts)
 * both use, so they agree on who is mentioned.
 *
 * Rules:
 * - A mention starts with `@` at the start of the text or after a character that is not a letter,
 *   digit, `_`, `.`, `+`, `-` or `@` (so the `@` inside `ana@x.org` written without a leading `@` is no mention).
 * - `@<email>` mentions the member with that e-mail address (compared without case); a `.` ending the
 *   sentence is not part of the address.
 * - `@<display name>` mentions the member whose name follows, compared without case, when it ends
 *   at a word boundary (not followed by a letter, digit or `_`); the longest name wins ("@Ana Lopes"
 *   over "@Ana"). A name two members share mentions neither: mention them by e-mail.
 * - Anything else after `@` (an unknown address or name) is plain text.
 */

/** A member who can be mentioned: user id, display name (may be empty) and e-mail address. */
export interface Mentionable {
  id: string;
  name: string;
  email: string;
}

/** One mention found in a text: the member's id and where it is written (`start` at the `@`, `end` exclusive; UTF-16 offsets). */
export interface Mention {
  userId: string;
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}_]/u;
const BEFORE_AT = /[\p{L}\p{N}_.+\-@]/u;
const EMAIL = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/;

/**
 * The mentions of members in `text`, in the order written (a member mentioned twice appears twice).
 * @param members the people who can be mentioned (the project's organization members); others stay plain text.
 */
export function findMentions(text: string, members: readonly Mentionable[]): Mention[] {
  if (!text.includes('@') || members.length === 0) return [];
  const byEmail = new Map(members.filter((m) => m.email).map((m) => [m.email.toLowerCase(), m.id]));
  const nameCount = new Map<string, number>();
  for (const m of members) {
    const name = m.name.trim().toLowerCase();
    if (name) nameCount.set(name, (nameCount.get(name) ?? 0) + 1);
  }
  const names = members
    .map((m) => ({ id: m.id, name: m.name.trim().toLowerCase() }))
    .filter((m) => m.name && nameCount.get(m.name) === 1)
    .sort((a, b) => b.name.length - a.name.length);
  const found: Mention[] = [];
  for (let i = text.indexOf('@'); i !== -1; i = text.indexOf('@', i + 1)) {
    if (i > 0 && BEFORE_AT.test(text[i - 1]!)) continue;
    const rest = text.slice(i + 1);
    const email = EMAIL.exec(rest)?.[0].replace(/[.-]+$/, '');
    const byAddress = email ? byEmail.get(email.toLowerCase()) : undefined;
    if (email && byAddress) {
      found.push({ userId: byAddress, start: i, end: i + 1 + email.length });
      i += email.length;
      continue;
    }
    const named = names.find((m) => text.slice(i + 1, i + 1 + m.name.length).toLowerCase() === m.name && !WORD.test(text[i + 1 + m.name.length] ?? ''));
    if (named) {
      found.push({ userId: named.id, start: i, end: i + 1 + named.name.length });
      i += named.name.length;
    }
  }
  return found;
}

/** The distinct ids of the members `text` mentions, in the order first written. */
export function mentionedIds(text: string, members: readonly Mentionable[]): string[] {
  return [...new Set(findMentions(text, members).map((m) => m.userId))];
}
