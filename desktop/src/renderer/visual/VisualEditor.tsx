import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import {
  blockEditableHtml,
  blockMarkdownFromHtml,
  insertBlock,
  parseVisualDocument,
  replaceBlock,
  replaceBlockText,
  setCodeLanguage,
  setComponentProp,
  setFrontmatter,
  type VisualBlock,
  type VisualDocument,
} from '@quire/shared/docs/visual/index';
import type { TextEdit } from '@quire/shared/docs/markdown/text-edits';
import type { LintFinding } from '@quire/shared/lint/types';
import type { monaco } from '../editor/monaco-setup';
import { applyModelEdit } from './model-edits';
import { BlockView, type BlockContext } from './BlockView';
import { BlockToolbar } from './BlockToolbar';
import { EditableText } from './EditableText';
import { InsertMenu } from './InsertMenu';
import { SidePanel } from './SidePanel';
import { blockPath, componentOf, findBlock, itemsByBlock, type InsertChoice } from './visual-model';
import { SITE_SCOPE, useSiteCss } from './site-css';
import './visual.css';

/** Props of {@link VisualEditor}. */
export interface VisualEditorProps {
  /** the page's Monaco model: the one text both modes edit */
  model: monaco.editor.ITextModel;
  /** the page's lint findings (PageEditor's Problems data) */
  findings: readonly LintFinding[];
  onFix(finding: LintFinding): void;
  /** switch to MDX mode with the caret at this offset of the page */
  onOpenInMdx(offset: number): void;
}

/** An empty paragraph being written after a block (null: at the top), not in the file until it has text. */
interface Draft {
  afterId: string | null;
}

const plain = (html: string) => html.replace(/<[^>]*>/g, '').replace(/&nbsp;|\u00a0/g, ' ').trim();

/**
 * The visual editing mode: the page's blocks drawn with the site's markup and CSS, their text edited in
 * place, frontmatter and component props in a side form, an "Insert block" (slash) menu and a block
 * toolbar. Every edit is one engine TextEdit (shared/src/docs/visual, lossless block splicing) applied to
 * the Monaco model as one undoable step, so saving, the preview, lint and undo/redo work as in MDX mode;
 * the view parses the model again whenever it changes. Ctrl/Cmd+Z and Ctrl/Cmd+Shift+Z (or Ctrl+Y) are
 * the model's undo and redo. Enter at the end of a paragraph or heading starts a new paragraph; "/" in an
 * empty paragraph opens the insert menu.
 */
export function VisualEditor({ model, findings, onFix, onOpenInMdx }: VisualEditorProps) {
  useSiteCss();
  const [text, setText] = useState(() => model.getValue());
  const [generation, setGeneration] = useState(0);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [menu, setMenu] = useState<{ replace: Draft | null } | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const applying = useRef(false);
  const pendingFocus = useRef<number | null>(null);
  const surface = useRef<HTMLDivElement>(null);
  const parsed = useRef<{ text: string; doc: VisualDocument } | null>(null);

  /** the document of the model's current text (parsed once per text) */
  const current = useCallback((): { source: string; doc: VisualDocument } => {
    const source = model.getValue();
    if (parsed.current?.text !== source) parsed.current = { text: source, doc: parseVisualDocument(source) };
    return { source, doc: parsed.current.doc };
  }, [model]);

  useEffect(() => {
    setText(model.getValue());
    const sub = model.onDidChangeContent(() => {
      setText(model.getValue());
      if (!applying.current) setGeneration((g) => g + 1);
    });
    return () => sub.dispose();
  }, [model]);

  const doc = useMemo(() => {
    if (parsed.current?.text !== text) parsed.current = { text, doc: parseVisualDocument(text) };
    return parsed.current.doc;
  }, [text]);

  const apply = useCallback(
    (edit: TextEdit | null) => {
      if (!edit) return;
      applying.current = true;
      try {
        applyModelEdit(model, edit);
      } finally {
        applying.current = false;
      }
    },
    [model],
  );

  // after an insert, the new block takes the focus (caret at its end)
  useEffect(() => {
    const at = pendingFocus.current;
    if (at === null) return;
    const block = doc.blocks.find((b) => b.from >= at);
    pendingFocus.current = null;
    if (!block) return;
    setSelectedId(block.id);
    const host = surface.current?.querySelector<HTMLElement>(`[data-block-id="${block.id}"]`);
    const target = host?.querySelector<HTMLElement>('[data-visual-editable]') ?? host?.querySelector<HTMLElement>('[tabindex]');
    if (!target) return;
    target.focus();
    const sel = window.getSelection();
    if (sel && target.isContentEditable) {
      sel.selectAllChildren(target);
      sel.collapseToEnd();
    }
  }, [doc]);

  const insertAfter = useCallback(
    (afterId: string | null, markdown: string) => {
      const { source, doc: d } = current();
      const after = afterId ? (blockPath(d.blocks, afterId)?.[0] ?? null) : null;
      const edit = insertBlock(source, after, markdown);
      pendingFocus.current = edit.from;
      apply(edit);
    },
    [current, apply],
  );

  const selectedBlock = selectedId ? findBlock(doc, selectedId) : null;

  const findingsByBlock = useMemo(() => itemsByBlock(text, doc.blocks, findings), [text, doc, findings]);
  const ctx: BlockContext = {
    generation,
    selectedId,
    findings: findingsByBlock,
    select: (b) => setSelectedId(b.id),
    commitText: (b, html) => {
      if (plain(html) === '') return; // an emptied block stays until it gets text or is removed in MDX mode
      const { source, doc: d } = current();
      const now = findBlock(d, b.id);
      if (now) apply(replaceBlockText(source, now, html));
    },
    onTextKey: (b, e, el) => onTextKey(e, el, b.id, b.kind),
    openInMdx: (b) => onOpenInMdx(b.from),
    onFix,
  };

  function onTextKey(e: KeyboardEvent<HTMLElement>, el: HTMLElement, id: string | null, kind: string) {
    if (e.key === '/' && plain(el.innerHTML) === '' && (kind === 'paragraph' || kind === 'draft')) {
      e.preventDefault();
      setMenu({ replace: kind === 'draft' ? draft : null });
      return;
    }
    const atEnd = () => {
      const sel = window.getSelection();
      if (!sel || !sel.isCollapsed || !sel.focusNode) return false;
      const range = document.createRange();
      range.selectNodeContents(el);
      range.setStart(sel.focusNode, sel.focusOffset);
      return range.toString().length === 0;
    };
    if (e.key === 'Enter' && !e.shiftKey && id && (kind === 'paragraph' || kind === 'heading') && atEnd()) {
      e.preventDefault();
      el.blur();
      const top = blockPath(current().doc.blocks, id)?.[0];
      setDraft({ afterId: top?.id ?? id });
    }
  }

  const choose = (choice: InsertChoice) => {
    const where = menu?.replace ?? null;
    setMenu(null);
    const afterId = where ? where.afterId : selectedId ? (blockPath(doc.blocks, selectedId)?.[0]?.id ?? null) : (doc.blocks.at(-1)?.id ?? null);
    setDraft(null);
    insertAfter(afterId, choice.markdown(doc.style));
  };

  const withSelected = (f: (b: VisualBlock, source: string, d: VisualDocument) => TextEdit | null) => {
    if (!selectedId) return;
    const { source, doc: d } = current();
    const b = findBlock(d, selectedId);
    if (b) apply(f(b, source, d));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const mod = e.ctrlKey || e.metaKey;
    const undo = mod && !e.shiftKey && e.key.toLowerCase() === 'z';
    const redo = mod && ((e.shiftKey && e.key.toLowerCase() === 'z') || (!e.metaKey && e.key.toLowerCase() === 'y'));
    if (!undo && !redo) return;
    e.preventDefault();
    const active = document.activeElement as HTMLElement | null;
    active?.blur(); // commits the text being typed first, as its own step
    if (undo) void model.undo();
    else void model.redo();
    active?.focus();
  };

  const component = selectedId ? componentOf(doc, selectedId) : null;
  const draftView = (afterId: string | null) =>
    draft && draft.afterId === afterId ? (
      <div className="visual-block visual-paragraph draft" key={`draft-${afterId ?? 'top'}`}>
        <EditableText
          html=""
          generation={generation}
          as="p"
          label="New paragraph"
          autoFocus
          onCommit={(html) => {
            if (plain(html) === '') return;
            setDraft(null);
            insertAfter(afterId, blockMarkdownFromHtml(html, 'paragraph', current().doc.style));
          }}
          onKeyDown={(e, el) => onTextKey(e, el, null, 'draft')}
        />
      </div>
    ) : null;

  return (
    <div className="visual-editor">
      <BlockToolbar
        block={selectedBlock}
        menuOpen={menu !== null}
        onInsert={() => setMenu(menu ? null : { replace: null })}
        onHeadingLevel={(level) =>
          withSelected((b, source, d) =>
            replaceBlock(source, b, blockMarkdownFromHtml(blockEditableHtml(b), level ? 'heading' : 'paragraph', d.style, { depth: level || undefined })),
          )
        }
        onTurnIntoList={() =>
          withSelected((b, source, d) => replaceBlock(source, b, blockMarkdownFromHtml(`<ul><li>${blockEditableHtml(b)}</li></ul>`, 'list', d.style)))
        }
        onTurnIntoCallout={() => withSelected((b, source, d) => replaceBlock(source, b, ['<Note>', b.source, '</Note>'].join(d.style.eol)))}
        onLanguage={(lang) => withSelected((b, source) => (b.kind === 'code' ? setCodeLanguage(source, b, lang) : null))}
      />
      {menu && (
        <InsertMenu
          onChoose={choose}
          onClose={() => {
            setMenu(null);
            surface.current?.querySelector<HTMLElement>('.draft [data-visual-editable]')?.focus();
          }}
        />
      )}
      <div className="visual-body">
        <div
          ref={surface}
          className={`visual-surface ${SITE_SCOPE} q-prose`}
          data-theme={window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'}
          role="textbox"
          aria-multiline="true"
          aria-label="Visual editor"
          onKeyDown={onKeyDown}
        >
          {draftView(null)}
          {doc.blocks.map((b) => [<BlockView key={b.id} block={b} ctx={ctx} />, draftView(b.id)])}
        </div>
        <SidePanel
          doc={doc}
          component={component}
          onFrontmatter={(key, value) => {
            const { source, doc: d } = current();
            apply(setFrontmatter(source, { ...(d.frontmatter?.data ?? {}), [key]: value }));
          }}
          onProp={(comp, name, value) => {
            const { source, doc: d } = current();
            const now = findBlock(d, comp.id);
            if (!now?.component) return;
            const prop = now.component.props.find((p) => p.name === name);
            apply(setComponentProp(source, prop ?? { componentFrom: now.from, name }, value));
          }}
        />
      </div>
    </div>
  );
}
