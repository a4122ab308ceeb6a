/**
 * PLACEHOLDER: the answerer seam (written by the chat work). See `composeAnswer` below for the contract.
 */
import type { SearchIndex } from '@quire/shared/search/types';

/** A retrieved section the answer may cite. */
export interface RetrievedSection {
  path: string;
  title: string;
  section?: string;
  anchor?: string;
  /** the section's plain text */
  text: string;
  score: number;
}

/** What the default answerer composed. */
export interface ComposedAnswer {
  /** the answer with bracketed citations `[1]`, `[2]` naming `sources` by position (1-based) */
  text: string;
  /** the sections cited, in citation order */
  sources: RetrievedSection[];
  /** false when the docs held no answer (the text then says so plainly; a content gap is counted) */
  answered: boolean;
}

/** Options of {@link composeAnswer}. */
export interface ComposeOptions {
  /** whether the reader may read a record with these audience tags */
  canRead?: (audience: readonly string[]) => boolean;
}

/**
 * Answers `question` from `index` with no model and no network: retrieval + extraction.
 * PLACEHOLDER implementation: says the docs do not answer.
 */
export function composeAnswer(question: string, index: SearchIndex, options: ComposeOptions = {}): ComposedAnswer {
  void question; void index; void options;
  return { text: 'The documentation does not answer this question.', sources: [], answered: false };
}
