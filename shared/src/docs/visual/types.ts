/**
 * The shapes of the visual editing engine: a page seen as a list of top-level blocks, each pointing at its
 * exact source, so that an edited block is spliced back by position and every other byte stays as written
 * (decisions.md section 5: one MDX parser for renderer, linter and editor).
 */

/** What a block is; `readonly` blocks are shown as they are and edited only in MDX mode. */
export type VisualBlockKind =
  | 'paragraph'
  | 'heading'
  | 'list'
  | 'table'
  | 'blockquote'
  | 'code'
  | 'image'
  | 'thematicBreak'
  | 'component'
  | 'readonly';

/** The kinds whose inline content is edited as HTML in place ({@link VisualBlock.kind}). */
export const TEXT_BLOCK_KINDS: ReadonlySet<VisualBlockKind> = new Set(['paragraph', 'heading', 'list', 'table', 'blockquote']);

/** One JSX attribute of a component, with its place in the file. */
export interface VisualProp {
  name: string;
  /** the attribute's string value; `true` for a bare attribute (`open`); null for an expression (`cols={2}`), not editable */
  value: string | boolean | null;
  /** UTF-16 offsets of the whole attribute (`name="value"`) in the file, end exclusive */
  from: number;
  to: number;
}

/** An image block (a paragraph holding a single Markdown image). */
export interface VisualImage {
  src: string;
  alt: string;
  title: string | null;
}

/** One block of a page: its kind and its exact source. */
export interface VisualBlock {
  /** stable across re-parses while the block's start offset does not change: `b<from>` */
  id: string;
  kind: VisualBlockKind;
  /** UTF-16 offsets of the block's exact source in the whole file (end exclusive) */
  from: number;
  to: number;
  /** `file.slice(from, to)` */
  source: string;
  /** the spaces/tabs before `from` on its line (children of components are often indented); '' at column 1 */
  indent: string;
  /** heading level 1–6 */
  depth?: number;
  /** code fence language ('' when none) */
  lang?: string;
  /** code fence meta after the language ('' when none) */
  meta?: string;
  /** code block text (without fences) */
  code?: string;
  /** list: ordered or not */
  ordered?: boolean;
  image?: VisualImage;
  /** a Mintlify component (COMPONENT_NAMES): props edited in a side form, children edited in place */
  component?: { name: string; props: VisualProp[]; children: VisualBlock[]; selfClosing: boolean };
  /** 'md' when the block comes from a plain Markdown (`.md`) page; absent for MDX */
  flavor?: 'md';
  /**
   * for 'readonly': why it cannot be edited visually: 'import' | 'export' | 'expression' | 'unknown component' |
   * 'html' | 'inline jsx' | 'math' | 'reference' | 'footnote' | 'definition' | 'unparsable' | ...
   */
  readonlyReason?: string;
}

/** How the file writes Markdown, so that edited blocks keep the file's style (mdast-util-to-markdown options). */
export interface SourceStyle {
  bullet: '-' | '*' | '+';
  bulletOrdered: '.' | ')';
  emphasis: '*' | '_';
  strong: '*' | '_';
  fence: '`' | '~';
  /** length of code fences (>= 3) */
  fenceLength: number;
  rule: '-' | '*' | '_';
  /** spaces between a list marker and its text: 'one' (`- a`) or 'tab' (`-   a`, to the next tab stop) */
  listItemIndent: 'one' | 'tab';
  /** quote of JSX attribute strings */
  quote: '"' | "'";
  eol: '\n' | '\r\n';
}

/** A page as the visual editor sees it. */
export interface VisualDocument {
  /** the YAML frontmatter block (`---` lines included) and its data, or null when the page has none */
  frontmatter: { from: number; to: number; data: Record<string, unknown> } | null;
  blocks: VisualBlock[];
  style: SourceStyle;
  /** how the page was parsed: 'md' for `.md` pages (plain Markdown), else 'mdx' */
  flavor: 'mdx' | 'md';
}
