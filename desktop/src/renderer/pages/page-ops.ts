/**
 * Creating, renaming, moving and deleting pages of the open project, offline: each is a set of
 * local edits through the core (`files.write`, `files.rename`, `files.delete`) to the page file and
 * to docs.json's navigation (shared navigation-edits.ts keeps its formatting and comments), proposed
 * later as a review with the other changes. Page paths are relative to the docs root, without
 * extension (`guides/setup`); file paths are repository paths (`docs/guides/setup.mdx`).
 * Errors are thrown as `Error`s whose message is meant for the writer.
 */
import {
  addPage, addRedirect, movePage, navigationGroups, NavigationEditError, removePage, renamePage, type GroupRef, type NavGroupInfo, type NavPosition,
} from '@quire/shared/docs/config/navigation-edits';
import { checkPagePath, listNewPage } from '@quire/shared/docs/config/new-page';
import { rewritePageLinks } from '@quire/shared/docs/page-links';
import { useUi } from '../store/ui-slice';
import { core } from '../trpc';
import { frontmatterTitle, newPageText, withFrontmatterTitle } from '@quire/shared/docs/page-text';

/** The open project's docs root, its config's text and the navigation's groups. */
export interface NavContext {
  docsRoot: string;
  configPath: string | null;
  configText: string | null;
  groups: NavGroupInfo[];
  /** why the groups could not be read (docs.json is not JSON...), else null */
  error: string | null;
}

/** Folder of page templates inside the docs root: snippets are never pages of their own (MINTLIFY-FORMAT.md section 5). */
export const TEMPLATES_FOLDER = 'snippets/templates/';

const PAGE_FILE = /\.mdx?$/i;

/** Reads the docs root, docs.json and its groups. */
export async function loadNav(projectId: string): Promise<NavContext> {
  const { docsRoot, configPath } = await core.workspace.docsRoot.query({ projectId });
  if (!configPath) {
    return { docsRoot, configPath, configText: null, groups: [], error: 'This project has no docs.json; pages are created without a navigation entry.' };
  }
  const configText = (await core.files.read.query({ projectId, path: configPath })).content ?? '';
  try {
    return { docsRoot, configPath, configText, groups: navigationGroups(configText), error: null };
  } catch (err) {
    return { docsRoot, configPath, configText, groups: [], error: (err as Error).message };
  }
}

const prefixOf = (nav: Pick<NavContext, 'docsRoot'>) => (nav.docsRoot ? `${nav.docsRoot}/` : '');

/** The page path of a repository file in the docs root (`docs/guides/a.mdx` → `guides/a`), or undefined for other files. */
export function pageOfFile(nav: Pick<NavContext, 'docsRoot'>, file: string): string | undefined {
  const prefix = prefixOf(nav);
  if (!file.startsWith(prefix) || !PAGE_FILE.test(file)) return undefined;
  return file.slice(prefix.length).replace(PAGE_FILE, '');
}

/** The repository file of a page path, with `ext` (`.mdx` for new pages). */
export function fileOfPage(nav: Pick<NavContext, 'docsRoot'>, page: string, ext = '.mdx'): string {
  return `${prefixOf(nav)}${page}${ext}`;
}

/** Every repository path of the workspace (its tree lists them all: the navigation, then "Other files"). */
async function allFiles(projectId: string): Promise<string[]> {
  const { nodes } = await core.workspace.tree.query({ projectId });
  const out: string[] = [];
  const walk = (list: typeof nodes) => {
    for (const n of list) {
      if (n.path) out.push(n.path);
      if (n.children) walk(n.children);
    }
  };
  walk(nodes);
  return [...new Set(out)];
}

async function exists(projectId: string, path: string): Promise<boolean> {
  try {
    await core.files.read.query({ projectId, path });
    return true;
  } catch {
    return false;
  }
}

/** The project's page templates (`snippets/templates/*.mdx` of the docs root): name → repository path. */
export async function listTemplates(projectId: string, nav: Pick<NavContext, 'docsRoot'>): Promise<Array<{ name: string; path: string }>> {
  const folder = prefixOf(nav) + TEMPLATES_FOLDER;
  return (await allFiles(projectId))
    .filter((p) => p.startsWith(folder) && PAGE_FILE.test(p))
    .sort()
    .map((p) => ({ name: p.slice(folder.length).replace(PAGE_FILE, ''), path: p }));
}

/** Saves what is typed in the open page first, so that no edit races a page operation. */
async function flushEditor(): Promise<void> {
  await useUi.getState().editor?.save();
}

async function writeConfig(projectId: string, nav: NavContext, text: string): Promise<void> {
  if (nav.configPath && text !== nav.configText) await core.files.write.mutate({ projectId, path: nav.configPath, content: text });
}

/** What {@link createPage} needs. */
export interface NewPage {
  title: string;
  /** the group to list it in; `newGroup` instead adds a group of that name first; neither = no navigation entry */
  group?: GroupRef;
  newGroup?: string;
  /** the page path (checked with {@link checkPagePath}) */
  page: string;
  /** repository path of a template page, else a blank page */
  template?: string;
}

/**
 * Creates a page: writes its file (blank with `title` and `description`, or from a template) and
 * lists it at the end of its group in docs.json (a new group is added first).
 * @returns the new file's repository path @throws Error when the file exists or the navigation refuses (the file is not written then)
 */
export async function createPage(projectId: string, input: NewPage): Promise<string> {
  await flushEditor();
  const nav = await loadNav(projectId);
  const page = checkPagePath(input.page);
  const file = fileOfPage(nav, page);
  if ((await exists(projectId, file)) || (await exists(projectId, fileOfPage(nav, page, '.md')))) {
    throw new Error(`There is already a page at ${page}; choose another path.`);
  }
  const config = nav.configText === null ? null : listNewPage(nav.configText, page, input);
  const template = input.template ? ((await core.files.read.query({ projectId, path: input.template })).content ?? undefined) : undefined;
  await core.files.write.mutate({ projectId, path: file, content: newPageText(input.title.trim(), '', template) });
  if (config !== null) await writeConfig(projectId, nav, config);
  return file;
}

/** What {@link renamePageFile} needs: the file, and a new title and/or page path. */
export interface PageRename {
  file: string;
  title?: string;
  page?: string;
  /** rewrite links to the old path in the other pages */
  updateLinks: boolean;
}

/** What a rename did. */
export interface RenameResult {
  file: string;
  linksUpdated: number;
  pagesUpdated: number;
}

/**
 * Renames a page: sets its frontmatter title, and when the path changes moves the file, renames
 * its navigation entries, adds a redirect from the old URL to the new one (Mintlify `redirects`) and,
 * when asked, points the other pages' links at the new path.
 * @throws Error when the new path is taken or not a page path
 */
export async function renamePageFile(projectId: string, input: PageRename): Promise<RenameResult> {
  await flushEditor();
  const nav = await loadNav(projectId);
  const oldPage = pageOfFile(nav, input.file);
  const current = (await core.files.read.query({ projectId, path: input.file })).content ?? '';
  if (input.title !== undefined && input.title.trim() && input.title.trim() !== frontmatterTitle(current)) {
    await core.files.write.mutate({ projectId, path: input.file, content: withFrontmatterTitle(current, input.title.trim()) });
  }
  const newPage = input.page === undefined ? oldPage : checkPagePath(input.page);
  if (oldPage === undefined || newPage === undefined || newPage === oldPage) return { file: input.file, linksUpdated: 0, pagesUpdated: 0 };
  const ext = /\.mdx?$/i.exec(input.file)![0];
  const to = fileOfPage(nav, newPage, ext);
  if (await exists(projectId, to)) throw new Error(`There is already a page at ${newPage}; choose another path.`);
  let config = nav.configText;
  if (config !== null) {
    try {
      config = renamePage(config, oldPage, newPage);
    } catch (err) {
      if (!(err instanceof NavigationEditError) || err.code !== 'page-not-listed') throw new Error((err as Error).message);
    }
    config = addRedirect(config, { source: `/${oldPage}`, destination: `/${newPage}` });
  }
  await core.files.rename.mutate({ projectId, from: input.file, to });
  if (config !== null) await writeConfig(projectId, nav, config);
  let linksUpdated = 0;
  let pagesUpdated = 0;
  if (input.updateLinks) {
    const prefix = prefixOf(nav);
    for (const path of await allFiles(projectId)) {
      if (path === to || !path.startsWith(prefix) || !PAGE_FILE.test(path)) continue;
      const text = (await core.files.read.query({ projectId, path })).content;
      if (text === null) continue;
      const out = rewritePageLinks(text, path.slice(prefix.length), oldPage, newPage);
      if (out.count === 0) continue;
      await core.files.write.mutate({ projectId, path, content: out.text });
      linksUpdated += out.count;
      pagesUpdated++;
    }
  }
  return { file: to, linksUpdated, pagesUpdated };
}

/** `config` without the navigation entries of `page` (unchanged when none names it). @throws Error when the navigation cannot be edited */
function withoutEntries(config: string, page: string): string {
  try {
    return removePage(config, page);
  } catch (err) {
    if (!(err instanceof NavigationEditError) || err.code !== 'page-not-listed') throw new Error((err as Error).message);
    return config;
  }
}

/** Deletes a page: its file, and its entries in docs.json's navigation (when listed). */
export async function deletePageFile(projectId: string, file: string): Promise<void> {
  await flushEditor();
  const nav = await loadNav(projectId);
  const page = pageOfFile(nav, file);
  const config = nav.configText !== null && page !== undefined ? withoutEntries(nav.configText, page) : nav.configText;
  await core.files.delete.mutate({ projectId, path: file });
  if (config !== null) await writeConfig(projectId, nav, config);
}

/**
 * The quick fixes of a navigation entry naming a page without a file (a missing tree item):
 * "Create page" writes the page as New page does ({@link createPage}: a blank page titled `title`,
 * docs.json left as is, since it lists the page already); "Remove entry" takes the page's entries out of
 * docs.json's navigation (shared navigation-edits.ts `removePage`, keeping its formatting and comments).
 * @returns the created file's repository path, or null after a removal
 * @throws Error when the file exists, the path is not a page path, or docs.json cannot be edited
 */
export async function fixMissingEntry(projectId: string, fix: 'create' | 'remove', page: string, title: string): Promise<string | null> {
  if (fix === 'create') return createPage(projectId, { title, page });
  await flushEditor();
  const nav = await loadNav(projectId);
  if (nav.configText === null) throw new Error(nav.error ?? 'This project has no docs.json.');
  await writeConfig(projectId, nav, withoutEntries(nav.configText, page));
  return null;
}

/**
 * Moves a page in the navigation to `target` (a group and a place in it; the same group reorders
 * it). A page not listed yet is added there. @throws Error when the navigation refuses
 */
export async function movePageFile(projectId: string, file: string, target: GroupRef & NavPosition, from?: GroupRef): Promise<void> {
  await flushEditor();
  const nav = await loadNav(projectId);
  const page = pageOfFile(nav, file);
  if (nav.configText === null || page === undefined) throw new Error(nav.error ?? `${file} is not a page of the docs.`);
  let config: string;
  try {
    try {
      config = movePage(nav.configText, page, target, from);
    } catch (err) {
      if (!(err instanceof NavigationEditError) || err.code !== 'page-not-listed' || from) throw err;
      config = addPage(nav.configText, page, target);
    }
  } catch (err) {
    throw new Error((err as Error).message);
  }
  await writeConfig(projectId, nav, config);
}

/** The group listing `page` directly, with its place: the entry before and after it (page paths or group names). */
export function placeOf(groups: NavGroupInfo[], page: string, ref?: GroupRef): NavGroupInfo | undefined {
  return groups.find((g) => g.pages.includes(page) && (!ref || (g.name === ref.group && (ref.within ?? []).every((w) => g.within.includes(w)))));
}
