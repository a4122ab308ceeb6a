import type { KeyboardEvent, ReactNode } from 'react';
import { blockEditableHtml, TEXT_BLOCK_KINDS, type VisualBlock } from '@quire/shared/docs/visual/index';
import type { LintFinding } from '@quire/shared/lint/types';
import { EditableText, type EditableTextProps } from './EditableText';

/** What every block view needs from the visual editor. */
export interface BlockContext {
  generation: number;
  selectedId: string | null;
  /** the findings of the page by block id (the block holding the finding's line) */
  findings: ReadonlyMap<string, LintFinding[]>;
  select(block: VisualBlock): void;
  /** a text block's edited HTML → the page (engine `replaceBlockText`) */
  commitText(block: VisualBlock, html: string): void;
  /** the slash menu's key handling in a text block */
  onTextKey(block: VisualBlock, e: KeyboardEvent<HTMLElement>, element: HTMLElement): void;
  /** switches to MDX mode with the caret at the block's first character */
  openInMdx(block: VisualBlock): void;
  onFix(finding: LintFinding): void;
}

/** Callouts the site draws as a tinted box (shared/src/docs/markdown/components/callouts.ts). */
const CALLOUTS = new Set(['Note', 'Tip', 'Info', 'Warning', 'Check', 'Danger']);

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

/** One block of the page, drawn with the site's markup and classes, its text editable in place. */
export function BlockView({ block, ctx, nested = false }: { block: VisualBlock; ctx: BlockContext; nested?: boolean }): ReactNode {
  const selected = ctx.selectedId === block.id;
  const findings = ctx.findings.get(block.id) ?? [];
  return (
    <div
      className={`visual-block visual-${block.kind}${selected ? ' selected' : ''}${nested ? ' nested' : ''}`}
      data-block-id={block.id}
      onFocusCapture={(e) => {
        e.stopPropagation();
        ctx.select(block);
      }}
      onMouseDown={(e) => {
        e.stopPropagation();
        ctx.select(block);
      }}
    >
      {body(block, ctx)}
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

function body(block: VisualBlock, ctx: BlockContext): ReactNode {
  if (TEXT_BLOCK_KINDS.has(block.kind)) {
    return (
      <EditableText
        html={innerHtml(block)}
        generation={ctx.generation}
        as={textTag(block)}
        label={blockLabel(block)}
        onCommit={(html) => ctx.commitText(block, outerHtml(block, html))}
        onKeyDown={(e, el) => ctx.onTextKey(block, e, el)}
      />
    );
  }
  if (block.kind === 'component' && block.component) return componentBody(block, ctx);
  if (block.kind === 'thematicBreak') return <hr tabIndex={0} aria-label="Divider" />;
  if (block.kind === 'code') {
    return (
      <div className="q-code" tabIndex={0} aria-label={`Code block${block.lang ? ` (${block.lang})` : ''}`}>
        <pre className="visual-source">{block.source}</pre>
      </div>
    );
  }
  return (
    <div className="visual-readonly" role="group" aria-label={`${blockLabel(block)}${block.readonlyReason ? `: ${block.readonlyReason}` : ''}`}>
      <pre className="visual-source" tabIndex={0}>
        {block.source}
      </pre>
      <button type="button" onClick={() => ctx.openInMdx(block)}>
        Open in MDX
      </button>
    </div>
  );
}

function children(block: VisualBlock, ctx: BlockContext): ReactNode {
  return block.component!.children.map((c) => <BlockView key={c.id} block={c} ctx={ctx} nested />);
}

function componentBody(block: VisualBlock, ctx: BlockContext): ReactNode {
  const { name, props } = block.component!;
  if (CALLOUTS.has(name)) {
    return (
      <div className={`q-callout q-callout-${name.toLowerCase()}`} role="note" aria-label={name}>
        <div className="q-callout-body">{children(block, ctx)}</div>
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
            <div className="q-card-body">{children(block, ctx)}</div>
          </div>
        </div>
      </div>
    );
  }
  return (
    <div className="visual-component" role="group" aria-label={name} tabIndex={0}>
      <div className="visual-component-name" aria-hidden="true">
        {name}
      </div>
      {children(block, ctx)}
    </div>
  );
}
