/**
 * A new page's path checked and its navigation entry, as the desktop app's New page and the docs
 * CLI's `new page` make them (pure text edits of docs.json, navigation-edits.ts). Node-free.
 */
import { addGroup, addPage, NavigationEditError, type GroupRef } from './navigation-edits';
import { normalizePagePath } from './page-entry';

/**
 * A page path as typed by a writer, checked: relative, `/`-separated, no `.`/`..` segments, an
 * `.md`/`.mdx` ending dropped. @throws Error saying what to change
 */
export function checkPagePath(typed: string): string {
  const page = normalizePagePath(typed.replace(/\\/g, '/'));
  if (!page) throw new Error('Give the page a path, such as guides/my-page.');
  if (page.split('/').some((seg) => seg === '' || seg === '.' || seg === '..' || seg.startsWith('.'))) {
    throw new Error(`"${typed}" is not a page path: use folder and file names such as guides/my-page.`);
  }
  if ([...page].some((ch) => ch.charCodeAt(0) < 0x20) || /["<>|*?#%]/.test(page)) throw new Error(`"${typed}" holds a character page paths cannot use.`);
  return page;
}

/**
 * docs.json's text with `page` listed at the end of `group` (or of a group named `newGroup`, added
 * first at the end of the navigation); the text unchanged when neither is given.
 * @throws Error with the navigation edit's message (group not found or ambiguous, already listed, not JSON)
 */
export function listNewPage(configText: string, page: string, target: { group?: GroupRef; newGroup?: string }): string {
  if (!target.group && !target.newGroup) return configText;
  try {
    let config = configText;
    let group = target.group;
    if (target.newGroup) {
      config = addGroup(config, target.newGroup);
      group = { group: target.newGroup.trim() };
    }
    return addPage(config, page, group!);
  } catch (err) {
    if (err instanceof NavigationEditError) throw new Error(err.message);
    throw err;
  }
}
