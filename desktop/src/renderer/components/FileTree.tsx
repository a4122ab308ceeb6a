import type { TreeNode } from '../../core/project-model';
import { useApp } from '../store/app-store';
import { useConflicts } from './MergeView';

/** The workspace tree: the navigation of docs.json (pages by title), then "Other files". A `tree` named "Pages". */
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
  return (
    <li
      role="treeitem"
      aria-label={node.label}
      aria-level={level}
      aria-selected={selected}
      aria-disabled={node.path === undefined}
      tabIndex={selected ? 0 : -1}
      className={`tree-leaf${selected ? ' selected' : ''}${inConflict ? ' conflict' : ''}`}
      aria-describedby={inConflict ? 'tree-conflict-note' : undefined}
      title={inConflict ? 'In conflict: changed here and on the server; needs a decision' : undefined}
      onClick={() => node.path && openFile(node.path)}
      onKeyDown={(e) => {
        if ((e.key === 'Enter' || e.key === ' ') && node.path) openFile(node.path);
      }}
    >
      {node.label}
    </li>
  );
}
