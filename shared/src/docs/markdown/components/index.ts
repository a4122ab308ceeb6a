/**
 * The component registry: every MDX component Quire renders (decisions.md section 5, MINTLIFY-FORMAT.md
 * section 9, and the others the corpora use). Names not in here render their children with an
 * 'unknown-component' warning.
 */
import { accordionComponents } from './accordions';
import { calloutComponents } from './callouts';
import { cardComponents } from './cards';
import { fieldComponents } from './fields';
import { inlineComponents } from './inline';
import { latexComponents } from './latex';
import { layoutComponents } from './layout';
import { mediaComponents } from './media';
import { stepComponents } from './steps';
import { tabComponents } from './tabs';
import { treeComponents } from './tree';
import { viewComponents } from './view';
import type { Component } from './types';

/** Component renderers by JSX name (`Card`, `Tree.Folder`, ...). */
export const COMPONENTS: ReadonlyMap<string, Component> = new Map(
  Object.entries({
    ...calloutComponents,
    ...cardComponents,
    ...stepComponents,
    ...tabComponents,
    ...accordionComponents,
    ...fieldComponents,
    ...mediaComponents,
    ...inlineComponents,
    ...treeComponents,
    ...layoutComponents,
    ...viewComponents,
    ...latexComponents,
  }),
);

export type { Component, ComponentContext, Props } from './types';
