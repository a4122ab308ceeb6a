import { useCallback, useEffect, useRef, useState } from 'react';
import type { TreeNode } from '../../core/project-model';
import { useApp } from '../store/app-store';
import { useUi } from '../store/ui-slice';
import { errorMessage } from '../trpc';
import { usePageActions } from '../pages/page-actions';
import { fixMissingEntry } from '../pages/page-ops';
import { TreeMenu, type MenuItem } from '../pages/TreeMenu';
import { dropPage, movePageByKey, type DropTarget, type TreePlace } from '../pages/tree-moves';
import { useConflicts } from './MergeView';
import { useChanges } from '../store/changes-slice';
import './comfort.css';

/** The group of files outside the navigation (project-model.ts `workspaceTree`). */
const OTHER_FILES = 'Other files';
const isPageFile = (path: string | undefined) => path !== undefined && /\.mdx?$/i.test(path);

/** The page being dragged (drag events do not let drop targets read the data until the drop). */
let dragged: TreePlace | null = null;

interface OpenMenu {
  label: string;
  x: number;
  y: number;
  items: MenuItem[];
  restore: HTMLElement | null;
}

/** Runs a tree move; its error goes to the status bar, and the tree reads the navigation again after it. */
function runMove(op: () => Promise<string | boolean | null>, focus: string): void {
  op().then(
    (moved) => {
      if (moved === false) useUi.getState().setNotice('The page is already at that end of its group.');
      else if (moved !== null) usePageActions.getState().changed(focus);
    },
    (err: unknown) => useUi.getState().setNotice(errorMessage(err)),
  );
}

/** Runs a missing entry's quick fix: a created page is opened, and the tree reads the navigation again. */
function runMissingFix(projectId: string, fix: 'create' | 'remove', page: string, title: string): void {
  fixMissingEntry(projectId, fix, page, title).then(
    (file) => {
      usePageActions.getState().changed(file);
      if (file) useApp.getState().openFile(file);
      useUi.getState().setNotice(file ? `Created ${file}` : `Removed ${page} from the navigation`);
    },
    (err: unknown) => useUi.getState().setNotice(errorMessage(err)),
  );
}

/**
 * The workspace tree: the navigation of docs.json (pages by title; OpenAPI pages with their method
 * badge, opening their spec; a page listed without a file named "<title> (missing)"), then "Other files". A `tree`
 * named "Pages", with a "New page" button above it. A page's item has a context menu (right click,
 * Shift+F10 or the ContextMenu key) with "Rename page", "Move page", "Delete page"; a group's item
 * one with "New page in group"; a missing page's item one with its quick fixes "Create page" and
 * "Remove entry" (Enter opens it too). Pages are dragged onto a page (before or after it) or a group (to
 * its end), or moved within their group with Alt+ArrowUp / Alt+ArrowDown; ArrowUp / ArrowDown move
 * the focus between pages. A file edited locally (`workspace.changedFiles`) shows an "M" badge and has
 * the accessible description "edited"; a file added locally (a new page) shows "A" and is described "added".
 */
export function FileTree({ nodes }: { nodes: TreeNode[] }) {
  const [menu, setMenu] = useState<OpenMenu | null>(null);
  const closeMenu = useCallback(() => setMenu(null), []);
  return (
    <>
      <div className="tree-toolbar">
        <button type="button" onClick={() => usePageActions.getState().show({ kind: 'new' })}>
          New page
        </button>
      </div>
      <ul role="tree" aria-label="Pages" className="tree">
        {nodes.map((n, i) => (
          <Node key={n.path ?? `${n.label}-${i}`} node={n} level={1} parents={[]} inNav={n.label !== OTHER_FILES} onMenu={setMenu} />
        ))}
      </ul>
      <span id="tree-conflict-note" hidden>
        In conflict: changed here and on the server; needs a decision.
      </span>
      <span id="tree-edited-note" hidden>
        edited
      </span>
      <span id="tree-added-note" hidden>
        added
      </span>
      {menu && <TreeMenu {...menu} onClose={closeMenu} />}
    </>
  );
}

function Node({ node, level, parents, inNav, onMenu }: { node: TreeNode; level: number; parents: string[]; inNav: boolean; onMenu(m: OpenMenu): void }) {
  const openPath = useApp((s) => s.openPath);
  const openFile = useApp((s) => s.openFile);
  const projectId = useApp((s) => s.projectId);
  const inConflict = useConflicts((s) => node.path !== undefined && s.paths.includes(node.path));
  const change = useChanges((s) => (node.path === undefined ? undefined : s.items.find((c) => c.path === node.path)?.change));
  const edited = change !== undefined;
  const added = change === 'added';
  const focus = usePageActions((s) => (s.loaded === s.changes ? s.focus : null));
  const [dropHint, setDropHint] = useState<'before' | 'after' | 'into' | null>(null);
  const ref = useRef<HTMLLIElement>(null);

  useEffect(() => {
    if (focus !== null && focus === node.path && ref.current) {
      ref.current.focus();
      usePageActions.setState({ focus: null });
    }
  }, [focus, node.path]);

  if (node.kind === 'group') {
    const path = [...parents, node.label];
    const groupMenu = (x: number, y: number, restore: HTMLElement | null) =>
      onMenu({
        label: `${node.label} actions`,
        x,
        y,
        restore,
        items: [{ label: 'New page in group', run: () => usePageActions.getState().show({ kind: 'new', group: { group: node.label, within: parents } }) }],
      });
    return (
      <li role="treeitem" aria-label={node.label} aria-expanded="true" aria-level={level} className="tree-group">
        <span
          className={`tree-group-title${dropHint === 'into' ? ' drop-into' : ''}`}
          onContextMenu={(e) => {
            if (!inNav) return;
            e.preventDefault();
            groupMenu(e.clientX, e.clientY, null);
          }}
          onDragOver={(e) => {
            if (!dragged || !inNav) return;
            e.preventDefault();
            e.dataTransfer.dropEffect = 'move';
            setDropHint('into');
          }}
          onDragLeave={() => setDropHint(null)}
          onDrop={(e) => {
            e.preventDefault();
            setDropHint(null);
            const source = dragged;
            dragged = null;
            if (source && projectId) runMove(() => dropPage(projectId, source, { kind: 'group', parents: path }), source.file);
          }}
        >
          {node.label}
        </span>
        <ul role="group">
          {(node.children ?? []).map((c, i) => (
            <Node key={c.path ?? `${c.label}-${i}`} node={c} level={level + 1} parents={inNav ? path : []} inNav={inNav} onMenu={onMenu} />
          ))}
        </ul>
      </li>
    );
  }

  const selected = node.path !== undefined && node.path === openPath;
  // a generated OpenAPI page opens its spec file; a missing page has nothing to open
  const opens = node.path ?? node.spec;
  const name = `${node.method ? `${node.method} ` : ''}${node.label}${node.missing ? ' (missing)' : ''}`;
  const note = inConflict
    ? 'In conflict: changed here and on the server; needs a decision'
    : node.missing
      ? 'docs.json lists this page, but it has no .mdx or .md file: its menu creates the page or removes the entry'
      : undefined;
  const isPage = isPageFile(node.path);
  const place: TreePlace | null = isPage ? { file: node.path!, parents } : null;
  const pageMenu = (x: number, y: number, restore: HTMLElement | null) => {
    if (node.missing && node.page && projectId) {
      const [page, title] = [node.page, node.label];
      onMenu({
        label: `${node.label} actions`,
        x,
        y,
        restore,
        items: [
          { label: 'Create page', run: () => runMissingFix(projectId, 'create', page, title) },
          { label: 'Remove entry', run: () => runMissingFix(projectId, 'remove', page, title) },
        ],
      });
      return;
    }
    if (!place) return;
    const from = inNav && parents.length ? { group: parents[parents.length - 1]!, within: parents.slice(0, -1) } : undefined;
    const show = (kind: 'rename' | 'move' | 'delete') =>
      usePageActions.getState().show({ kind, file: place.file, title: node.label, ...(from ? { from } : {}) });
    onMenu({
      label: `${node.label} actions`,
      x,
      y,
      restore,
      items: [
        { label: 'Rename page', run: () => show('rename') },
        { label: 'Move page', run: () => show('move') },
        { label: 'Delete page', run: () => show('delete') },
      ],
    });
  };
  const onKeyDown = (e: React.KeyboardEvent<HTMLLIElement>) => {
    if ((e.key === 'Enter' || e.key === ' ') && opens) {
      openFile(opens);
    } else if ((e.key === 'F10' && e.shiftKey) || e.key === 'ContextMenu' || ((e.key === 'Enter' || e.key === ' ') && node.missing)) {
      const r = e.currentTarget.getBoundingClientRect();
      pageMenu(r.left + 12, r.bottom, e.currentTarget);
    } else if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && e.altKey) {
      if (place && projectId) runMove(() => movePageByKey(projectId, place, e.key === 'ArrowUp' ? -1 : 1), place.file);
    } else if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && !e.ctrlKey && !e.metaKey && !e.shiftKey) {
      const items = [...(e.currentTarget.closest('[role="tree"]')?.querySelectorAll<HTMLElement>('li.tree-leaf') ?? [])];
      items[items.indexOf(e.currentTarget) + (e.key === 'ArrowUp' ? -1 : 1)]?.focus();
    } else return;
    e.preventDefault();
    e.stopPropagation();
  };
  return (
    <li
      ref={ref}
      role="treeitem"
      aria-label={name}
      aria-level={level}
      aria-selected={selected}
      aria-disabled={opens === undefined && !node.missing}
      tabIndex={selected ? 0 : -1}
      className={`tree-leaf${selected ? ' selected' : ''}${inConflict ? ' conflict' : ''}${node.missing ? ' missing' : ''}${dropHint ? ` drop-${dropHint}` : ''}`}
      aria-describedby={[inConflict && 'tree-conflict-note', edited && (added ? 'tree-added-note' : 'tree-edited-note')].filter(Boolean).join(' ') || undefined}
      title={note}
      draggable={isPage}
      onClick={() => opens && openFile(opens)}
      onKeyDown={onKeyDown}
      onContextMenu={(e) => {
        if (!place && !node.missing) return;
        e.preventDefault();
        pageMenu(e.clientX, e.clientY, e.currentTarget);
      }}
      onDragStart={(e) => {
        if (!place) return;
        dragged = { file: place.file, parents: inNav ? parents : [] };
        e.dataTransfer.effectAllowed = 'move';
        e.dataTransfer.setData('text/plain', place.file);
      }}
      onDragEnd={() => {
        dragged = null;
      }}
      onDragOver={(e) => {
        if (!dragged || !place || !inNav || dragged.file === place.file) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
        const r = e.currentTarget.getBoundingClientRect();
        setDropHint(e.clientY > r.top + r.height / 2 ? 'after' : 'before');
      }}
      onDragLeave={() => setDropHint(null)}
      onDrop={(e) => {
        e.preventDefault();
        const r = e.currentTarget.getBoundingClientRect();
        const target: DropTarget | null = place ? { kind: 'page', place, after: e.clientY > r.top + r.height / 2 } : null;
        setDropHint(null);
        const source = dragged;
        dragged = null;
        if (source && target && projectId) runMove(() => dropPage(projectId, source, target), source.file);
      }}
    >
      {node.method && (
        <span className={`tree-method tree-method-${node.method.toLowerCase()}`}>{node.method === 'DELETE' ? 'DEL' : node.method.slice(0, 5)}</span>
      )}
      {node.label}
      {node.missing && <span className="tree-missing">missing</span>}
      {edited && (
        <span className="tree-edited" aria-hidden="true" title={added ? 'Added here' : 'Edited here'}>
          {added ? 'A' : 'M'}
        </span>
      )}
    </li>
  );
}
