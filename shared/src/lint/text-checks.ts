/**
 * The prose checks of the linter as plain functions over text: the built-in ones (repeated words,
 * passive voice), the project's style rules (Vale's rule shapes, types.ts) and the glossary. Each
 * check says where it looks (`scope`): running text, heading text, or whole paragraphs (sentence
 * length); prose.ts feeds them the text of the MDX/Markdown tree.
 */
import { toSentenceCase, toTitleCase } from './casing';
import { literalPattern, wordPattern, type SafePattern } from './safe-pattern';
import type { GlossaryTerm, LintSeverity, StyleRule } from './types';

/** One problem a check found in the text it was given (offsets into that text). */
export interface TextHit {
  start: number;
  end: number;
  message: string;
  /** Replacement of `start..end` that fixes it. */
  fix?: string;
}

/** A prose check: where it looks, its rule id and default severity, and what it finds. */
export interface TextCheck {
  ruleId: string;
  severity: LintSeverity;
  description: string;
  fixable: boolean;
  scope: 'text' | 'heading' | 'paragraph';
  /** Hits in one piece of text; `state` is per page (for counts across a page). */
  run(text: string, state: Map<string, number>): TextHit[];
}

const fill = (template: string, matched: string) => template.replaceAll('%s', matched);

/** Keeps the first letter's case of `matched` on `replacement` ("Utilize" -> "Use"). */
function sameCase(matched: string, replacement: string): string {
  return /^\p{Lu}/u.test(matched) ? replacement.replace(/\p{L}/u, (c) => c.toUpperCase()) : replacement;
}

/** Doubled words ("the the"); the fix removes the second. */
export function repeatedWords(): TextCheck {
  return {
    ruleId: 'prose/repeated-words',
    severity: 'warning',
    description: 'A word written twice in a row.',
    fixable: true,
    scope: 'text',
    run(text) {
      const hits: TextHit[] = [];
      const words = [...text.matchAll(/\p{L}+/gu)];
      for (let i = 1; i < words.length; i++) {
        const [a, b] = [words[i - 1]!, words[i]!];
        const gap = text.slice(a.index! + a[0].length, b.index!);
        if (a[0].toLowerCase() !== b[0].toLowerCase() || !/^\s+$/.test(gap)) continue;
        hits.push({ start: a.index! + a[0].length, end: b.index! + b[0].length, message: `"${a[0]}" is repeated.`, fix: '' });
      }
      return hits;
    },
  };
}

const PARTICIPLES =
  'known|written|given|taken|seen|done|made|built|shown|sent|found|kept|held|run|read|put|left|told|thought|brought|bought|chosen|driven|drawn|eaten|fallen|forgotten|hidden|spoken|stolen|thrown|worn|begun|broken|frozen|paid|said|sold|spent|won';
const PASSIVE = new RegExp(`\\b(?:am|is|are|was|were|be|been|being)\\s+(?:\\p{L}+ly\\s+)?(?:\\p{L}+ed|${PARTICIPLES})\\b`, 'giu');

/** "was written", "is being used": a suggestion to name who acts (no fix: the rewrite needs the writer). */
export function passiveVoice(): TextCheck {
  return {
    ruleId: 'prose/passive-voice',
    severity: 'suggestion',
    description: 'Passive voice; say who does what.',
    fixable: false,
    scope: 'text',
    run(text) {
      return [...text.matchAll(PASSIVE)].map((m) => ({ start: m.index!, end: m.index! + m[0].length, message: `"${m[0]}" is passive voice; consider saying who acts.` }));
    },
  };
}

/**
 * The check of one style rule.
 * @throws PatternError when one of its patterns is not valid RE2.
 */
export function styleRuleCheck(rule: StyleRule): TextCheck {
  const base = { ruleId: `style/${rule.name}`, severity: rule.severity };
  switch (rule.type) {
    case 'existence': {
      const pattern = wordPattern(rule.tokens, rule.ignoreCase);
      const message = rule.message ?? 'Avoid "%s".';
      return { ...base, description: `Avoid: ${rule.tokens.join(', ')}`, fixable: false, scope: 'text', run: (text) => pattern.matches(text).map((m) => ({ start: m.start, end: m.end, message: fill(message, m.text) })) };
    }
    case 'substitution': {
      const entries = Object.entries(rule.swap);
      const pattern = wordPattern(entries.map(([from]) => from), rule.ignoreCase);
      return {
        ...base,
        description: `Prefer: ${entries.map(([a, b]) => `${b} (not ${a})`).join(', ')}`,
        fixable: true,
        scope: 'text',
        run: (text) =>
          pattern.matches(text).map((m) => {
            const to = sameCase(m.text, entries[m.alternative]![1]);
            return { start: m.start, end: m.end, message: rule.message ? fill(rule.message, m.text) : `Use "${to}" instead of "${m.text}".`, fix: to };
          }),
      };
    }
    case 'occurrence': {
      const pattern = wordPattern([rule.token], rule.ignoreCase);
      return {
        ...base,
        description: `At most ${rule.max} of "${rule.token}" a page`,
        fixable: false,
        scope: 'text',
        run(text, state) {
          const hits: TextHit[] = [];
          for (const m of pattern.matches(text)) {
            const seen = (state.get(base.ruleId) ?? 0) + 1;
            state.set(base.ruleId, seen);
            if (seen === rule.max + 1) hits.push({ start: m.start, end: m.end, message: rule.message ? fill(rule.message, m.text) : `"${m.text}" appears more than ${rule.max} times on this page.` });
          }
          return hits;
        },
      };
    }
    case 'capitalization': {
      const convert = rule.match === '$title' ? toTitleCase : toSentenceCase;
      const name = rule.match === '$title' ? 'title case' : 'sentence case';
      return {
        ...base,
        description: `Headings in ${name}`,
        fixable: true,
        scope: 'heading',
        run(text) {
          const expected = convert(text, rule.exceptions);
          return expected === text ? [] : [{ start: 0, end: text.length, message: rule.message ? fill(rule.message, text) : `Write the heading in ${name}: "${expected}".`, fix: expected }];
        },
      };
    }
    case 'repetition': {
      const pattern = wordPattern(rule.tokens, rule.ignoreCase);
      return {
        ...base,
        description: `Not twice in a row: ${rule.tokens.join(', ')}`,
        fixable: true,
        scope: 'text',
        run(text) {
          const hits: TextHit[] = [];
          const found = pattern.matches(text);
          for (let i = 1; i < found.length; i++) {
            const [a, b] = [found[i - 1]!, found[i]!];
            if (a.text.toLowerCase() === b.text.toLowerCase() && /^\s+$/.test(text.slice(a.end, b.start))) {
              hits.push({ start: a.end, end: b.end, message: rule.message ? fill(rule.message, b.text) : `"${b.text}" is repeated.`, fix: '' });
            }
          }
          return hits;
        },
      };
    }
    case 'sentence-length':
      return {
        ...base,
        description: `Sentences of at most ${rule.max} words`,
        fixable: false,
        scope: 'paragraph',
        run(text) {
          const hits: TextHit[] = [];
          for (const m of text.matchAll(/[^.!?]+(?:[.!?]+|$)/g)) {
            const words = m[0].match(/[\p{L}\p{N}][^\s]*/gu)?.length ?? 0;
            if (words <= rule.max) continue;
            const lead = m[0].length - m[0].trimStart().length;
            hits.push({ start: m.index! + lead, end: m.index! + m[0].trimEnd().length, message: rule.message ? fill(rule.message, String(words)) : `This sentence has ${words} words; keep sentences to ${rule.max}.` });
          }
          return hits;
        },
      };
  }
}

/** A rule id for a glossary term: `glossary/<term in lower case, words joined by hyphens>`. */
export function glossaryRuleId(term: string): string {
  return `glossary/${term.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'term'}`;
}

/**
 * The check of one glossary term: its synonyms to avoid (fix: the term), and, when its case
 * matters, the term written in another case (fix: the term as written in the glossary).
 */
export function glossaryCheck(entry: GlossaryTerm): TextCheck {
  const avoid: SafePattern | null = entry.avoid.length ? wordPattern(entry.avoid.map(literalPattern), true) : null;
  const own: SafePattern | null = entry.caseSensitive ? wordPattern([literalPattern(entry.term)], true) : null;
  return {
    ruleId: glossaryRuleId(entry.term),
    severity: 'warning',
    description: `Glossary: ${entry.term}`,
    fixable: true,
    scope: 'text',
    run(text) {
      const hits: TextHit[] = [];
      for (const m of avoid?.matches(text) ?? []) hits.push({ start: m.start, end: m.end, message: `Use the glossary term "${entry.term}" instead of "${m.text}".`, fix: entry.term });
      for (const m of own?.matches(text) ?? []) if (m.text !== entry.term) hits.push({ start: m.start, end: m.end, message: `Write "${entry.term}" as the glossary does, not "${m.text}".`, fix: entry.term });
      return hits;
    },
  };
}
