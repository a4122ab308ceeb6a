/**
 * File trees: `Tree` / `Tree.Folder` (`name`, `defaultOpen`) / `Tree.File` (`name`). Folders are native
 * `<details>` so they open and close without JavaScript.
 */
import { namedIcon } from '../icons';
import { bool, html, type Component } from './types';

const FOLDER = namedIcon('folder', 'q-icon q-tree-icon');
const FILE = namedIcon('file', 'q-icon q-tree-icon');

/** The tree components by name. */
export const treeComponents: Record<string, Component> = {
  Tree: (ctx) => `<ul class="q-tree" role="tree">${ctx.children()}</ul>`,
  'Tree.Folder': (ctx) =>
    `<li class="q-tree-folder" role="treeitem"><details${bool(ctx.props, 'defaultOpen') ? ' open' : ''}>` +
    `<summary>${FOLDER}<span class="q-tree-name">${html(ctx.props, 'name')}</span></summary>` +
    `<ul role="group">${ctx.children()}</ul></details></li>`,
  'Tree.File': (ctx) => `<li class="q-tree-file" role="treeitem">${FILE}<span class="q-tree-name">${html(ctx.props, 'name')}</span></li>`,
};
