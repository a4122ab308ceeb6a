import { memo, type KeyboardEvent, type ReactNode } from 'react';
import { blockEditableHtml, TEXT_BLOCK_KINDS, type VisualBlock } from '@quire/shared/docs/visual/index';
import type { LintFinding } from '@quire/shared/lint/types';
import { CALLOUT_KINDS } from '@quire/shared/docs/markdown/components/callouts';
import { namedIcon } from '@quire/shared/docs/markdown/icons';
import { EditableText, type EditableTextProps } from './EditableText';
import { CodeText } from './CodeText';
import { ImageBlock } from './ImageBlock';

/**
 * What every block view needs from the visual editor: one object for the editor's life, its methods
 * reading the editor's latest state, so that a block view re-renders only when its own block changes.
 * Blocks are named by their React key (block-keys.ts), which survives edits elsewhere in the page.
 */
export interface BlockContext {
  /** the React key of a block of the current page */
  keyOf(block: VisualBlock): string;
  selectedKey(): string | null;
  /** the findings of the page by block id (the block holding the finding's line) */
  findings(): ReadonlyMap<string, LintFinding[]>;
  select(key: string): void;
  /** a text block's edited HTML → the page (engine `replaceBlockText`) */
  commitText(key: string, html: string): void;
  /** the slash menu's key handling in a text block */
  onTextKey(key: string, kind: string, e: KeyboardEvent<HTMLElement>, element: HTMLElement): void;
  /** a fenced code block's new text → the page (engine `setCodeText`) */
  commitCode(key: string, code: string): void;
  /** switches to MDX mode with the caret at the block's first character */
  openInMdx(key: string): void;
  onFix(finding: LintFinding): void;
}

/** Props of {@link BlockView}. */
export interface BlockViewProps {
  block: VisualBlock;
  ctx: BlockContext;
  /** bumped when the page changed by something else than the visual editor's own edits: texts are shown again */
  generation: number;
  /** the selected block's start offset when it is this block or inside it, else null */
  selectedFrom: number | null;
  /** a digest of the findings on this block and its children (they re-render when it changes) */
  findingsKey: string;
  nested?: boolean;
}


/** A block's name for people ("Paragraph", "Heading 2", "Note", "Read-only block"). */
export function blockLabel(block: VisualBlock): string {
  if (block.kind === 'heading') return `Heading ${block.depth ?? 1}`;
  if (block.kind === 'component') return block.component?.name ?? 'Component';
  if (block.kind === 'readonly') return 'Read-only block';
  if (block.kind === 'thematicBreak') return 'Divider';
  return block.kind[0]!.toUpperCase() + block.kind.slice(1);
}

function textTag(block: VisualBlock): EditableTextProps['as'] {
  if (block.kind === 'heading') return `h${Math.min(6, Math.max(1, block.depth ?? 1))}` as EditableTextProps['as'];
  if (block.kind === 'list') return block.ordered ? 'ol' : 'ul';
  if (block.kind === 'blockquote') return 'blockquote';
  if (block.kind === 'table') return 'table';
  return 'p';
}

/** Kinds drawn as the element the engine's HTML wraps them in (the element itself is edited, not a copy inside it). */
const WRAPPED = new Set(['list', 'table', 'blockquote']);

/** The inner HTML for a text block: a list's, table's or quote's own wrapper is the editable element itself. */
export function innerHtml(block: VisualBlock, html = blockEditableHtml(block)): string {
  if (!WRAPPED.has(block.kind)) return html;
  const tag = textTag(block);
  const m = new RegExp(`^\\s*<${tag}(?:\\s[^>]*)?>([\\s\\S]*)</${tag}>\\s*$`).exec(html);
  return m ? m[1]! : html;
}

/** The HTML to hand back to the engine for a text block (a list's items wrapped in their list again). */
export function outerHtml(block: VisualBlock, inner: string, html = blockEditableHtml(block)): string {
  if (!WRAPPED.has(block.kind) || innerHtml(block, html) === html) return inner;
  const tag = textTag(block);
  return `<${tag}>${inner}</${tag}>`;
}

/** One block of the page, drawn with the site's markup and classes, its text editable in place; re-rendered only when it changed. */
export const BlockView = memo(
  BlockViewInner,
  (a, b) =>
    a.block.source === b.block.source &&
    a.block.kind === b.block.kind &&
    a.generation === b.generation &&
    a.selectedFrom === b.selectedFrom &&
    a.findingsKey === b.findingsKey &&
    a.nested === b.nested,
);

function BlockViewInner({ block, ctx, generation, selectedFrom, findingsKey, nested = false }: BlockViewProps): ReactNode {
  const key = ctx.keyOf(block);
  const selected = selectedFrom === block.from;
  const findings = ctx.findings().get(block.id) ?? [];
  const view = { ctx, generation, selectedFrom, findingsKey };
  return (
    <div
      className={`visual-block visual-${block.kind}${selected ? ' selected' : ''}${nested ? ' nested' : ''}`}
      data-block-key={key}
      onFocusCapture={(e) => {
        e.stopPropagation();
        ctx.select(key);
      }}
      onMouseDown={(e) => {
        e.stopPropagation();
        ctx.select(key);
      }}
    >
      {body(block, key, view)}
      {findings.length > 0 && (
        <ul className="visual-findings" aria-label={`Problems in this ${blockLabel(block).toLowerCase()}`}>
          {findings.map((f, i) => (
            <li key={i} className={`visual-finding ${f.severity}`}>
              <span>
                {f.message} <span className="rule">({f.ruleId})</span>
              </span>
              {f.fix && (
                <button type="button" onClick={() => ctx.onFix(f)} aria-label={`Fix: ${f.message}`}>
                  Fix
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** What a block passes down to its children. */
type View = Omit<BlockViewProps, 'block' | 'nested'>;

function body(block: VisualBlock, key: string, view: View): ReactNode {
  const { ctx } = view;
  if (TEXT_BLOCK_KINDS.has(block.kind)) {
    const html = blockEditableHtml(block);
    return (
      <EditableText
        html={innerHtml(block, html)}
        generation={view.generation}
        as={textTag(block)}
        onCommit={(edited) => ctx.commitText(key, outerHtml(block, edited, html))}
        onKeyDown={(e, el) => ctx.onTextKey(key, block.kind, e, el)}
      />
    );
  }
  if (block.kind === 'component' && block.component) return componentBody(block, view);
  if (block.kind === 'thematicBreak') return <hr tabIndex={0} aria-label="Divider" />;
  if (block.kind === 'image') return <ImageBlock block={block} />;
  if (block.kind === 'code') {
    return (
      <div className="q-code visual-code" role="group" aria-label={`Code block${block.lang ? ` (${block.lang})` : ''}`}>
        <CodeText key={`${view.generation}`} code={block.code ?? ''} onCommit={(code) => ctx.commitCode(key, code)} />
      </div>
    );
  }
  return (
    <div className="visual-readonly" role="group" aria-label={`${blockLabel(block)}${block.readonlyReason ? `: ${block.readonlyReason}` : ''}`}>
      <pre className="visual-source" tabIndex={0}>
        {block.source}
      </pre>
      <button type="button" onClick={() => ctx.openInMdx(key)}>
        Open in MDX
      </button>
    </div>
  );
}

function children(block: VisualBlock, view: View): ReactNode {
  return block.component!.children.map((c) => {
    const inside = view.selectedFrom !== null && view.selectedFrom >= c.from && view.selectedFrom < c.to;
    return <BlockView key={view.ctx.keyOf(c)} block={c} {...view} selectedFrom={inside ? view.selectedFrom : null} nested />;
  });
}

function componentBody(block: VisualBlock, view: View): ReactNode {
  const { name, props } = block.component!;
  const callout = CALLOUT_KINDS[name];
  if (callout) {
    return (
      <div className={`q-callout q-callout-${name.toLowerCase()}`} role="note" aria-label={callout.label}>
        <span className="q-callout-icon" aria-hidden="true" dangerouslySetInnerHTML={{ __html: namedIcon(callout.icon) }} />
        <div className="q-callout-body">{children(block, view)}</div>
      </div>
    );
  }
  if (name === 'Card') {
    const title = props.find((p) => p.name === 'title')?.value;
    return (
      <div className="q-card" role="group" aria-label={`Card${typeof title === 'string' ? `: ${title}` : ''}`} tabIndex={0}>
        <div className="q-card-inner">
          <div className="q-card-content">
            {typeof title === 'string' && <div className="q-card-title">{title}</div>}
            <div className="q-card-body">{children(block, view)}</div>
          </div>
        </div>
      </div>
    );
  }
  return (
    <div className="visual-generic" role="group" aria-label={name} tabIndex={0}>
      <div className="visual-generic-name" aria-hidden="true">
        {name}
      </div>
      {children(block, view)}
    </div>
  );
}
