/**
 * Moving pages from the Pages tree: drag and drop onto a page (before or after it, in its group) or
 * onto a group (at its end), and Alt+ArrowUp / Alt+ArrowDown (one place up or down within its group).
 * A tree item knows its ancestors' titles (tabs, groups); they name its group in docs.json.
 */
import type { GroupRef, NavGroupInfo } from '@quire/shared/docs/config/navigation-edits';
import { loadNav, movePageFile, pageOfFile, placeOf } from './page-ops';

/** A page's place in the tree: its file and the titles of the navigation items holding it ([] outside the navigation). */
export interface TreePlace {
  file: string;
  parents: string[];
}

/** Where a dragged page is dropped: on a page (before or after it), or on a group (the group's titles path, its own last). */
export type DropTarget = { kind: 'page'; place: TreePlace; after: boolean } | { kind: 'group'; parents: string[] };

/** True when every title of `wanted` appears in `titles`, in order. */
function within(titles: string[], wanted: string[]): boolean {
  let i = 0;
  for (const t of titles) if (i < wanted.length && t === wanted[i]) i++;
  return i === wanted.length;
}

/** The group of docs.json a tree path names (its last title, held by the others), when exactly one matches. */
function groupAt(groups: NavGroupInfo[], parents: string[]): NavGroupInfo | undefined {
  if (parents.length === 0) return undefined;
  const name = parents[parents.length - 1]!;
  const found = groups.filter((g) => g.name === name && within(g.within, parents.slice(0, -1)));
  return found.length === 1 ? found[0] : undefined;
}

const refOf = (g: NavGroupInfo): GroupRef => ({ group: g.name, within: g.within });

/**
 * Drops the page `source` on `target`. @returns the moved file @throws Error saying why the drop
 * cannot be done (the target is not in a group of docs.json, the navigation refuses)
 */
export async function dropPage(projectId: string, source: TreePlace, target: DropTarget): Promise<string | null> {
  const nav = await loadNav(projectId);
  if (nav.error) throw new Error(nav.error);
  const from = groupAt(nav.groups, source.parents);
  if (target.kind === 'group') {
    const g = groupAt(nav.groups, target.parents);
    if (!g) throw new Error('Drop the page on a group of the navigation, or on a page.');
    await movePageFile(projectId, source.file, refOf(g), from && refOf(from));
    return source.file;
  }
  if (target.place.file === source.file) return null;
  const page = pageOfFile(nav, target.place.file);
  const g = page === undefined ? undefined : (groupAt(nav.groups, target.place.parents) ?? placeOf(nav.groups, page));
  if (!g || page === undefined) throw new Error('That page is not in a group of the navigation; drop on a page of a group.');
  await movePageFile(projectId, source.file, { ...refOf(g), ...(target.after ? { after: page } : { before: page }) }, from && refOf(from));
  return source.file;
}

/**
 * Moves a page one place up (-1) or down (1) within its group.
 * @returns false when it is already first or last @throws Error when it is not in a group of docs.json
 */
export async function movePageByKey(projectId: string, place: TreePlace, direction: -1 | 1): Promise<boolean> {
  const nav = await loadNav(projectId);
  if (nav.error) throw new Error(nav.error);
  const page = pageOfFile(nav, place.file);
  const g = page === undefined ? undefined : (groupAt(nav.groups, place.parents) ?? placeOf(nav.groups, page));
  if (!g || page === undefined) throw new Error('This page is not in a group of the navigation.');
  const index = g.entries.indexOf(page) + direction;
  if (index < 0 || index >= g.entries.length) return false;
  await movePageFile(projectId, place.file, { ...refOf(g), index }, refOf(g));
  return true;
}
