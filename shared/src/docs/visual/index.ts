/**
 * The visual editing engine: a page as blocks pointing at their exact source, HTML of edited blocks written
 * back as Markdown in the file's style, and edits spliced in by position so that every other byte stays.
 */
export type { SourceStyle, VisualBlock, VisualBlockKind, VisualDocument, VisualImage, VisualProp } from './types';
export { TEXT_BLOCK_KINDS } from './types';
export { COMPONENT_NAMES, isVisualComponent } from './components';
export { parseVisualDocument } from './parse';
export { updateVisualDocument } from './incremental';
export { DEFAULT_STYLE, inferSourceStyle } from './style';
export { blockEditableHtml } from './editable-html';
export { blockMarkdownFromHtml } from './html-to-markdown';
export { replaceBlockText } from './block-text';
export { applyTextEdits, insertBlock, removeBlock, replaceBlock } from './splice';
export { setComponentProp } from './props';
export { setCodeLanguage, setCodeText } from './code-block';
export { setImage } from './image-edit';
export { setFrontmatter } from './frontmatter-edit';
export type { TextEdit } from '../markdown/text-edits';
