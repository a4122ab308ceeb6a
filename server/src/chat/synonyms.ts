/**
 * Words readers ask with and the words documentation usually writes for the same thing ("pause" →
 * "wait", "label" → "tag", "stop" → "cancel"), used by the assistant's retrieval
 * (question-terms.ts) as alternatives of a question word: a section holding an alternative holds
 * the word. Keyed and valued by stems (question-terms.ts `stemOf`: `delay` → `delai`), one direction
 * (reader → docs); a stem of five or more letters also matches longer words (`concurren` →
 * `concurrency`). General software-documentation vocabulary only: nothing here names one product
 * or mirrors one question's wording.
 */
const GROUPS: readonly (readonly [string, readonly string[]])[] = [
  ['paus', ['wait', 'delai', 'sleep']],
  ['sleep', ['wait', 'delai']],
  ['label', ['tag']],
  ['stop', ['cancel', 'abort']],
  ['kill', ['cancel', 'abort']],
  ['terminat', ['cancel']],
  ['rerun', ['replai', 'retri']],
  ['timeout', ['duration']],
  ['cost', ['pric', 'bill', 'usag']],
  ['pric', ['cost', 'bill']],
  ['limit', ['maximum', 'max']],
  ['maximum', ['limit', 'max']],
  ['biggest', ['maximum', 'limit', 'max']],
  ['largest', ['maximum', 'limit', 'max']],
  ['simultaneous', ['concurren', 'parallel']],
  ['parallel', ['concurren']],
  ['concurrent', ['concurren']],
  ['remov', ['delet']],
  ['eras', ['delet']],
  ['setup', ['install', 'configur']],
  ['configur', ['config', 'option']],
  ['fail', ['error', 'failur']],
  ['crash', ['error', 'fail']],
  ['error', ['fail', 'exception']],
  ['debug', ['troubleshoot', 'log']],
  ['slow', ['performanc', 'latenc']],
  ['speed', ['performanc', 'latenc']],
  ['track', ['record', 'monitor', 'observ']],
  ['monitor', ['observ', 'track']],
  ['secret', ['key', 'token']],
  ['password', ['secret', 'credential']],
  ['credential', ['key', 'secret', 'token']],
  ['publish', ['deploi', 'releas']],
  ['releas', ['deploi', 'version']],
  ['ship', ['deploi']],
  ['endpoint', ['url', 'host']],
  ['address', ['url', 'host']],
  ['notifi', ['webhook', 'alert']],
  ['alert', ['notif', 'webhook']],
  ['payload', ['input', 'data']],
  ['output', ['result', 'return']],
  ['result', ['output', 'return']],
  ['environment', ['env']],
  ['stag', ['environment']],
  ['production', ['environment']],
  ['variabl', ['env', 'var']],
  ['progress', ['status']],
  ['permission', ['rol', 'access']],
  ['login', ['auth', 'authent']],
  ['sign', ['auth', 'authent', 'login']],
];

const BY_STEM: ReadonlyMap<string, readonly string[]> = new Map(GROUPS);

/** The docs' usual words for a reader's word (stems), or none. */
export function synonymsOf(stem: string): readonly string[] {
  return BY_STEM.get(stem) ?? [];
}

/** Phrases readers use for a documented concept, and the concept's word. */
const PHRASES: readonly (readonly [RegExp, string])[] = [
  [/\b(?:at a time|at once|same time|simultaneous(?:ly)?|in parallel)\b/i, 'concurrency'],
  [/\b(?:too long|long[- ]running|runs? forever|time ?out)\b/i, 'duration'],
  [/\b(?:run|try|do) (?:it |that |this )?again\b|\bre-?run\b/i, 'replay'],
  [/\bevery (?:day|hour|minute|week|weekday|morning|night|month|\d+)\b|\b(?:daily|hourly|weekly|nightly)\b/i, 'schedule'],
];

/** The concept words the phrases of `question` suggest (e.g. "one at a time" → `concurrency`). */
export function phraseHints(question: string): string[] {
  return PHRASES.filter(([re]) => re.test(question)).map(([, word]) => word);
}
