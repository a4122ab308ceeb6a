import type { TreeNode } from '../../core/project-model';
import { useApp } from '../store/app-store';
import { useConflicts } from './MergeView';

/**
 * The workspace tree: the navigation of docs.json (pages by title; OpenAPI pages with their method badge,
 * opening their spec; a page listed without a file named "<title> (missing)"), then "Other files". A `tree` named "Pages".
 */
export function FileTree({ nodes }: { nodes: TreeNode[] }) {
  return (
    <>
      <ul role="tree" aria-label="Pages" className="tree">
        {nodes.map((n, i) => (
          <Node key={`${n.label}-${i}`} node={n} level={1} />
        ))}
      </ul>
      <span id="tree-conflict-note" hidden>
        In conflict: changed here and on the server; needs a decision.
      </span>
    </>
  );
}

function Node({ node, level }: { node: TreeNode; level: number }) {
  const openPath = useApp((s) => s.openPath);
  const openFile = useApp((s) => s.openFile);
  const inConflict = useConflicts((s) => node.path !== undefined && s.paths.includes(node.path));
  if (node.kind === 'group') {
    return (
      <li role="treeitem" aria-label={node.label} aria-expanded="true" aria-level={level} className="tree-group">
        <span className="tree-group-title">{node.label}</span>
        <ul role="group">
          {(node.children ?? []).map((c, i) => (
            <Node key={`${c.label}-${i}`} node={c} level={level + 1} />
          ))}
        </ul>
      </li>
    );
  }
  const selected = node.path !== undefined && node.path === openPath;
  // a generated OpenAPI page opens its spec file; a missing page has nothing to open
  const target = node.path ?? node.spec;
  const name = `${node.method ? `${node.method} ` : ''}${node.label}${node.missing ? ' (missing)' : ''}`;
  const note = inConflict
    ? 'In conflict: changed here and on the server; needs a decision'
    : node.missing
      ? 'docs.json lists this page, but it has no .mdx or .md file'
      : undefined;
  return (
    <li
      role="treeitem"
      aria-label={name}
      aria-level={level}
      aria-selected={selected}
      aria-disabled={target === undefined}
      tabIndex={selected ? 0 : -1}
      className={`tree-leaf${selected ? ' selected' : ''}${inConflict ? ' conflict' : ''}${node.missing ? ' missing' : ''}`}
      aria-describedby={inConflict ? 'tree-conflict-note' : undefined}
      title={note}
      onClick={() => target && openFile(target)}
      onKeyDown={(e) => {
        if ((e.key === 'Enter' || e.key === ' ') && target) openFile(target);
      }}
    >
      {node.method && (
        <span className={`tree-method tree-method-${node.method.toLowerCase()}`}>{node.method === 'DELETE' ? 'DEL' : node.method.slice(0, 5)}</span>
      )}
      {node.label}
      {node.missing && <span className="tree-missing">missing</span>}
    </li>
  );
}
