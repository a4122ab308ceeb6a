/**
 * Incremental preview rendering: a long page is cut into sections at its top-level headings
 * (outside code fences), each section is rendered by the shared engine on its own and kept by its
 * text, so an edit re-renders only the section it touched (a 2,000-line page: one section of a few
 * dozen lines instead of the whole page; `pnpm bench:desktop`). The page's ESM lines (imports of
 * snippets, exports) are given to every section. The result is the same HTML as rendering the page
 * whole, except that repeated heading or step titles in different sections keep the same id
 * (anchors only; the published build numbers them).
 *
 * Pages this cannot do exactly answer null, and the caller renders them whole: no frontmatter
 * title (the title would come from the first heading), link reference definitions or footnotes
 * (page-wide), fewer than {@link MIN_SECTIONS} sections, or a section that does not parse alone
 * (a component open across a heading: the whole page's parse gives the right error).
 */
import { markGlossaryTerms, renderPage, splitFrontmatter, type CodeHighlighter, type GlossaryEntry } from '@quire/shared/docs/markdown/index';
import type { DocsFiles, TocEntry } from '@quire/shared/docs/types';

/** Pages with fewer sections are rendered whole (nothing to gain). */
export const MIN_SECTIONS = 4;
/** Rendered sections kept per project (the oldest are dropped beyond it). */
const MAX_CACHED = 4000;

/** One rendered section: its HTML (data-line relative to the section's first line) and its toc entries. */
interface RenderedSection {
  html: string;
  toc: TocEntry[];
}

/** The rendered sections of a project, by section text (cleared when the project's files reload). */
export type SectionCache = Map<string, RenderedSection>;

/** What {@link renderSections} answers: what the site theme needs of a page. */
export interface SectionedPage {
  html: string;
  toc: TocEntry[];
  title: string;
  description?: string;
  /** how many sections were rendered now (the others came from the cache) */
  rendered: number;
  sections: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^#{1,6}\s/;
const ESM = /^(import|export)\s/;

/** The page body cut into sections: `[firstLine (1-based), text]`, and its ESM blocks (kept apart). */
export function splitSections(body: string): { sections: [number, string][]; esm: string } | null {
  const lines = body.split('\n');
  const sections: [number, string][] = [];
  const esm: string[] = [];
  let start = 0;
  let fence: string | undefined;
  let inEsm = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (inEsm) {
      if (line.trim() === '') inEsm = false;
      else {
        esm.push(line);
        lines[i] = '';
        continue;
      }
    }
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim() === f[1]) fence = undefined;
      continue;
    }
    if (f) {
      fence = f[1];
      continue;
    }
    if (/^\[[^\]]+\]:\s/.test(line) || line.includes('[^')) return null;
    if (ESM.test(line)) {
      esm.push(line);
      lines[i] = '';
      inEsm = true;
      continue;
    }
    if (HEADING.test(line) && i > start) {
      sections.push([start + 1, lines.slice(start, i).join('\n')]);
      start = i;
    }
  }
  sections.push([start + 1, lines.slice(start).join('\n')]);
  return { sections, esm: esm.join('\n') };
}

/** Shifts the `data-line` values of a section's HTML by `offset` lines. */
function shiftLines(html: string, offset: number): string {
  return offset === 0 ? html : html.replace(/ data-line="(\d+)"/g, (_m, n: string) => ` data-line="${Number(n) + offset}"`);
}

/** Input of {@link renderSections}. */
export interface SectionsInput {
  filePath: string;
  source: string;
  files: DocsFiles;
  highlighter: CodeHighlighter;
  variables: Record<string, string>;
  /** the `user.<field>` names the page may use (shared/src/site/personalisation.ts `userFieldsOf`); absent: `name`, `plan` */
  userFields?: readonly string[];
  glossary: readonly GlossaryEntry[];
  cache: SectionCache;
}

/**
 * Renders the page section by section (see the module doc), re-rendering only sections not in
 * `cache`. @returns null when the page must be rendered whole
 */
export async function renderSections(input: SectionsInput): Promise<SectionedPage | null> {
  let split;
  try {
    split = splitFrontmatter(input.source, input.filePath);
  } catch {
    return null; // bad frontmatter: the whole render reports it
  }
  const title = typeof split.data.title === 'string' && split.data.title.trim() ? split.data.title.trim() : undefined;
  if (!title) return null;
  const cut = splitSections(split.body);
  if (!cut || cut.sections.length < MIN_SECTIONS) return null;
  const tail = cut.esm ? `\n\n${cut.esm}\n` : '';
  const html: string[] = [];
  const toc: TocEntry[] = [];
  let rendered = 0;
  for (const [first, text] of cut.sections) {
    // the key holds what the section's render depends on besides the project's files (cleared with them)
    const key = `${input.filePath}\0${text}\0${tail}`;
    let section = input.cache.get(key);
    if (!section) {
      try {
        const page = await renderPage({
          filePath: input.filePath,
          source: text + tail,
          files: input.files,
          highlighter: input.highlighter,
          variables: input.variables,
          userFields: input.userFields,
          sourceLines: true,
        });
        section = { html: page.html, toc: page.toc };
      } catch {
        return null;
      }
      if (input.cache.size >= MAX_CACHED) input.cache.delete(input.cache.keys().next().value!);
      input.cache.set(key, section);
      rendered++;
    }
    html.push(shiftLines(section.html, first - 1));
    toc.push(...section.toc);
  }
  const joined = html.filter((h) => h !== '').join('\n');
  const description = typeof split.data.description === 'string' && split.data.description.trim() ? split.data.description.trim() : undefined;
  return {
    html: input.glossary.length ? markGlossaryTerms(joined, input.glossary) : joined,
    toc,
    title,
    ...(description ? { description } : {}),
    rendered,
    sections: cut.sections.length,
  };
}
