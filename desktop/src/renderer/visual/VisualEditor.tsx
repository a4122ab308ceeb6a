import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import {
  applyTextEdits,
  blockEditableHtml,
  blockMarkdownFromHtml,
  insertBlock,
  parseVisualDocument,
  replaceBlock,
  replaceBlockText,
  setCodeLanguage,
  setCodeText,
  removeBlock,
  setComponentProp,
  setFrontmatter,
  setImage,
  updateVisualDocument,
  type VisualBlock,
  type VisualDocument,
} from '@quire/shared/docs/visual/index';
import type { TextEdit } from '@quire/shared/docs/markdown/text-edits';
import type { LintFinding } from '@quire/shared/lint/types';
import type { monaco } from '../editor/monaco-setup';
import { addImageFiles, announceAddedImages, filesOf } from '../editor/image-insert';
import { useApp } from '../store/app-store';
import { ImageBaseContext, useImageBase } from './ImageBlock';
import { applyModelEdit } from './model-edits';
import { BlockView, type BlockContext } from './BlockView';
import { BlockToolbar } from './BlockToolbar';
import { EditableText } from './EditableText';
import { InlineTools } from './InlineTools';
import { InsertMenu } from './InsertMenu';
import { SidePanel } from './SidePanel';
import { blockPath, componentOf, findBlock, itemsByBlock, type MenuChoice } from './visual-model';
import { carryKeys, type ContentChange } from './block-keys';
import { SITE_SCOPE, useSiteCss } from './site-css';
import './visual.css';
import { ImageFileInput } from '../editor/ImageFileInput';

/** Props of {@link VisualEditor}. */
export interface VisualEditorProps {
  /** the page's Monaco model: the one text both modes edit */
  model: monaco.editor.ITextModel;
  /** the page's repository path (`.md` pages are read as Markdown, `.mdx` as MDX) */
  path: string;
  /** the page's lint findings (PageEditor's Problems data) */
  findings: readonly LintFinding[];
  onFix(finding: LintFinding): void;
  /** switch to MDX mode with the caret at this offset of the page */
  onOpenInMdx(offset: number): void;
}

/** An empty paragraph being written after a block (its key; null: at the top), not in the file until it has text. */
interface Draft {
  afterKey: string | null;
}

/** The page as the visual editor last parsed it: the model's text, its blocks, and the blocks' React keys by start offset. */
interface View {
  text: string;
  doc: VisualDocument;
  keys: Map<number, string>;
}

/** The block of `view` whose key is `key`, or null. */
function blockByKey(view: View, key: string | null): VisualBlock | null {
  if (key === null) return null;
  const walk = (list: readonly VisualBlock[]): VisualBlock | null => {
    for (const b of list) {
      if (view.keys.get(b.from) === key) return b;
      const inner = b.component ? walk(b.component.children) : null;
      if (inner) return inner;
    }
    return null;
  };
  return walk(view.doc.blocks);
}

const plain = (html: string) => html.replace(/<[^>]*>/g, '').replace(/&nbsp;|\u00a0/g, ' ').trim();

/**
 * The visual editing mode: the page's blocks drawn with the site's markup and CSS, their text edited in
 * place, frontmatter and component props in a side form, an "Insert block" (slash) menu and a block
 * toolbar. Every edit is one engine TextEdit (shared/src/docs/visual, lossless block splicing) applied to
 * the Monaco model as one undoable step, so saving, the preview, lint and undo/redo work as in MDX mode;
 * the view parses the model again whenever it changes. Ctrl/Cmd+Z and Ctrl/Cmd+Shift+Z (or Ctrl+Y) are
 * the model's undo and redo. Enter at the end of a paragraph or heading starts a new paragraph; "/" in an
 * empty paragraph opens the insert menu. Images: the menu's "Image" opens the file chooser, and image files
 * pasted or dropped on the surface are added the same way (image-insert.ts, as in MDX mode), each a block
 * after the selected one (a drop: after the block it lands on); a selected image's alt text and URL are
 * side form fields (engine `setImage`). The toolbar's Bold, Italic and Link (InlineTools.tsx) format the selected text.
 */
export function VisualEditor({ model, path, findings, onFix, onOpenInMdx }: VisualEditorProps) {
  useSiteCss();
  const counter = useRef(0);
  const fresh = () => `k${++counter.current}`;
  /** the page after `changes` (null: read afresh); one change is read again around it only (engine `updateVisualDocument`) */
  const build = (text: string, changes: readonly ContentChange[] | null, before: View | null): View => {
    let doc: VisualDocument | null = null;
    if (before && changes?.length === 1) {
      const c = changes[0]!;
      const edit = { from: c.offset, to: c.offset + c.length, text: c.text };
      if (applyTextEdits(before.text, [edit]) === text) doc = updateVisualDocument(before.doc, before.text, edit, path);
    }
    doc ??= parseVisualDocument(text, path);
    return { text, doc, keys: carryKeys(before?.keys ?? new Map(), changes, doc.blocks, fresh) };
  };
  const latest = useRef<View | null>(null);
  latest.current ??= build(model.getValue(), null, null);
  const [view, setView] = useState<View>(latest.current);
  const [generation, setGeneration] = useState(0);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [menu, setMenu] = useState<{ replace: Draft | null } | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const applying = useRef(false);
  const pendingFocus = useRef<number | null>(null);
  const surface = useRef<HTMLDivElement>(null);
  const projectId = useApp((s) => s.projectId);
  const imageBase = useImageBase(projectId, path);
  const chooser = useRef<HTMLInputElement>(null);
  /** where the images chosen in the file chooser go: after the block with this key (null: at the top) */
  const imageTarget = useRef<string | null>(null);
  const [imageProblem, setImageProblem] = useState<string | null>(null);

  useEffect(() => {
    if (latest.current!.text !== model.getValue()) setView((latest.current = build(model.getValue(), null, null)));
    const sub = model.onDidChangeContent((e) => {
      const changes = e.isFlush ? null : e.changes.map((c) => ({ offset: c.rangeOffset, length: c.rangeLength, text: c.text }));
      latest.current = build(model.getValue(), changes, latest.current);
      setView(latest.current);
      if (!applying.current) setGeneration((g) => g + 1);
    });
    return () => sub.dispose();
    // build and fresh only touch refs
  }, [model]);

  const { doc, text } = view;

  /** Applies an engine edit to the model as one undo step (the change handler above parses the result). */
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
    const key = view.keys.get(block.from)!;
    setSelectedKey(key);
    const host = surface.current?.querySelector<HTMLElement>(`[data-block-key="${key}"]`);
    const target = host?.querySelector<HTMLElement>('[data-visual-editable]') ?? host?.querySelector<HTMLElement>('[tabindex]');
    if (!target) return;
    target.focus();
    const sel = window.getSelection();
    if (sel && target.isContentEditable) {
      sel.selectAllChildren(target);
      sel.collapseToEnd();
    }
  }, [doc, view]);

  /** Inserts `markdown` after the top-level block holding the block `afterKey` (null: before the first block). */
  const insertAfter = (afterKey: string | null, markdown: string) => {
    const v = latest.current!;
    const b = blockByKey(v, afterKey);
    const after = b ? (blockPath(v.doc.blocks, b.id)?.[0] ?? null) : null;
    const edit = insertBlock(v.text, after, markdown);
    pendingFocus.current = edit.from;
    apply(edit);
  };

  /** Runs `f` on the selected block of the latest parse and applies its edit. */
  const withSelected = (f: (b: VisualBlock, source: string, d: VisualDocument) => TextEdit | null) => {
    const v = latest.current!;
    const b = blockByKey(v, selectedKey);
    if (b) apply(f(b, v.text, v.doc));
  };

  function onTextKey(e: KeyboardEvent<HTMLElement>, el: HTMLElement, key: string | null, kind: string) {
    if (e.key === '/' && plain(el.innerHTML) === '' && (kind === 'paragraph' || kind === 'draft')) {
      e.preventDefault();
      setMenu({ replace: kind === 'draft' ? draftRef.current : null });
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
    if (e.key === 'Enter' && !e.shiftKey && key && (kind === 'paragraph' || kind === 'heading') && atEnd()) {
      e.preventDefault();
      el.blur();
      const v = latest.current!;
      const b = blockByKey(v, key);
      const top = b ? blockPath(v.doc.blocks, b.id)?.[0] : undefined;
      setDraft({ afterKey: top ? v.keys.get(top.from)! : key });
    }
  }

  const draftRef = useRef(draft);
  draftRef.current = draft;
  const handlers = useRef({ onTextKey, onFix, onOpenInMdx, apply });
  handlers.current = { onTextKey, onFix, onOpenInMdx, apply };
  const findingsByBlock = useMemo(() => itemsByBlock(text, doc.blocks, findings), [text, doc, findings]);
  const findingsRef = useRef(findingsByBlock);
  findingsRef.current = findingsByBlock;
  const selectedRef = useRef(selectedKey);
  selectedRef.current = selectedKey;

  // one context for the editor's life: its methods read the latest state (block views re-render only when their block changes)
  const ctx = useMemo<BlockContext>(
    () => ({
      keyOf: (b) => latest.current!.keys.get(b.from) ?? `stale-${b.from}`,
      selectedKey: () => selectedRef.current,
      findings: () => findingsRef.current,
      select: (key) => setSelectedKey(key),
      commitText: (key, html) => {
        if (plain(html) === '') return; // an emptied block stays until it gets text or is removed in MDX mode
        const v = latest.current!;
        const b = blockByKey(v, key);
        if (b) handlers.current.apply(replaceBlockText(v.text, b, html, v.doc.style));
      },
      commitCode: (key, code) => {
        const v = latest.current!;
        const b = blockByKey(v, key);
        if (b?.kind === 'code') handlers.current.apply(setCodeText(v.text, b, code));
      },
      onTextKey: (key, kind, e, el) => handlers.current.onTextKey(e, el, key, kind),
      openInMdx: (key) => {
        const b = blockByKey(latest.current!, key);
        if (b) handlers.current.onOpenInMdx(b.from);
      },
      onFix: (f) => handlers.current.onFix(f),
    }),
    [],
  );

  /** The key of the block new blocks go after: the selected block, else the last one (null: an empty page). */
  const currentKey = () => {
    const last = doc.blocks.at(-1);
    return selectedKey ?? (last ? view.keys.get(last.from)! : null);
  };

  /** Adds image files to the project (the shared rule judges each) and inserts their Markdown after the block `afterKey`. */
  const addImages = async (files: File[], afterKey: string | null) => {
    if (!projectId || files.length === 0) return;
    setImageProblem(null);
    const added = await addImageFiles(projectId, files);
    if (added.markdown.length) insertAfter(afterKey, added.markdown.join(`${latest.current!.doc.style.eol}${latest.current!.doc.style.eol}`));
    setImageProblem(added.problems.length ? added.problems.join(' ') : null);
    announceAddedImages(projectId, added.markdown.length);
  };

  const choose = (choice: MenuChoice) => {
    const where = menu?.replace ?? null;
    setMenu(null);
    setDraft(null);
    const afterKey = where ? where.afterKey : currentKey();
    if ('image' in choice) {
      imageTarget.current = afterKey;
      chooser.current?.click();
    } else insertAfter(afterKey, choice.markdown(doc.style));
  };

  /** The key of the top-level block holding `target` (a drop's target), else {@link currentKey}. */
  const keyAt = (target: EventTarget | null) =>
    (target instanceof Element ? target.closest<HTMLElement>('.visual-surface > [data-block-key]')?.dataset.blockKey : undefined) ?? currentKey();

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

  const selectedBlock = blockByKey(view, selectedKey);
  const component = selectedBlock ? componentOf(doc, selectedBlock.id) : null;
  const draftView = (afterKey: string | null) =>
    draft && draft.afterKey === afterKey ? (
      <div className="visual-block visual-paragraph draft" key={`draft-${afterKey ?? 'top'}`}>
        <EditableText
          html=""
          generation={generation}
          as="p"
          label="New paragraph"
          autoFocus
          onCommit={(html) => {
            if (plain(html) === '') return;
            setDraft(null);
            insertAfter(afterKey, blockMarkdownFromHtml(html, 'paragraph', latest.current!.doc.style));
          }}
          onKeyDown={(e, el) => onTextKey(e, el, null, 'draft')}
        />
      </div>
    ) : null;

  const findingsKeyOf = (b: VisualBlock) => {
    const parts: string[] = [];
    const walk = (x: VisualBlock) => {
      for (const f of findingsByBlock.get(x.id) ?? []) parts.push(`${x.from}:${f.ruleId}:${f.line}:${f.column}:${f.message}`);
      x.component?.children.forEach(walk);
    };
    walk(b);
    return parts.join('|');
  };
  const selectedFrom = selectedBlock?.from ?? null;
  const selectedImage = selectedBlock?.kind === 'image' && selectedKey ? { key: selectedKey, block: selectedBlock } : null;

  return (
    <ImageBaseContext.Provider value={imageBase}>
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
        onDelete={() => {
          withSelected((b, source) => removeBlock(source, b));
          setSelectedKey(null);
        }}
      >
        <InlineTools surface={surface} />
      </BlockToolbar>
      {menu && (
        <InsertMenu
          onChoose={choose}
          onClose={() => {
            setMenu(null);
            surface.current?.querySelector<HTMLElement>('.draft [data-visual-editable]')?.focus();
          }}
        />
      )}
      <ImageFileInput inputRef={chooser} label="Image file to insert" onFiles={(files) => void addImages(files, imageTarget.current)} />
      {imageProblem && (
        <p role="alert" className="image-problem">
          {imageProblem}
        </p>
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
          onPaste={(e) => {
            const files = filesOf(e.clipboardData, 'paste');
            if (files.length === 0) return;
            e.preventDefault();
            void addImages(files, draft ? draft.afterKey : currentKey());
          }}
          onDragOver={(e) => e.dataTransfer.types.includes('Files') && e.preventDefault()}
          onDrop={(e) => {
            const files = filesOf(e.dataTransfer, 'drop');
            if (files.length === 0) return;
            e.preventDefault();
            void addImages(files, keyAt(e.target));
          }}
        >
          {draftView(null)}
          {doc.blocks.map((b) => {
            const key = view.keys.get(b.from)!;
            const inside = selectedFrom !== null && selectedFrom >= b.from && selectedFrom < Math.max(b.to, b.from + 1);
            return [
              <BlockView key={key} block={b} ctx={ctx} generation={generation} selectedFrom={inside ? selectedFrom : null} findingsKey={findingsKeyOf(b)} />,
              draftView(key),
            ];
          })}
        </div>
        <SidePanel
          doc={doc}
          component={component}
          onFrontmatter={(key, value) => {
            const v = latest.current!;
            apply(setFrontmatter(v.text, { ...(v.doc.frontmatter?.data ?? {}), [key]: value }));
          }}
          onProp={(comp, name, value) => {
            const v = latest.current!;
            const now = findBlock(v.doc, comp.id);
            if (!now?.component) return;
            const prop = now.component.props.find((p) => p.name === name);
            apply(setComponentProp(v.text, prop ?? { componentFrom: now.from, name }, value));
          }}
          image={selectedImage}
          onImage={(key, change) => {
            const v = latest.current!;
            const b = blockByKey(v, key);
            if (b?.kind === 'image') apply(setImage(v.text, b, change));
          }}
        />
      </div>
    </div>
    </ImageBaseContext.Provider>
  );
}
