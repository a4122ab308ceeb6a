/**
 * `quire-docs new page <path> --title T [--group G]`: the desktop app's New page from the command
 * line: the path checked, a page file with frontmatter `title` and `description` (or a template's
 * text), and the page listed at the end of its group in docs.json, formatting and comments kept
 * (shared/src/docs/config/new-page.ts, navigation-edits.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { checkPagePath, listNewPage } from '@quire/shared/docs/config/new-page';
import { newPageText } from '@quire/shared/docs/page-text';
import { loadDiskProject } from './disk-project';
import { UsageError } from './usage-error';

/** What `new page` takes. */
export interface NewPageOptions {
  dir: string;
  page: string;
  title: string;
  /** the group to list it in (its `group` title); none: no navigation entry */
  group?: string;
  /** a page file of the docs root whose text the new page starts from */
  template?: string;
  /** the folder messages name files relative to */
  cwd?: string;
}

/**
 * Creates the page. @returns the new file and the config file changed (absolute paths)
 * @throws UsageError when the path is not a page path, the page exists, the group is not found or there is no docs.json
 */
export function createPage(options: NewPageOptions): { file: string; config?: string } {
  const { project, files, docsRoot } = loadDiskProject(options.dir, options.cwd);
  let page: string;
  try {
    page = checkPagePath(options.page);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (!options.title.trim()) throw new UsageError('--title must not be empty');
  if (files.exists(`${page}.mdx`) || files.exists(`${page}.md`)) throw new UsageError(`there is already a page at ${page}; choose another path`);
  const configFile = project.config.source ?? undefined;
  let configText: string | undefined;
  if (options.group) {
    if (configFile !== 'docs.json') throw new UsageError('--group needs a docs.json to list the page in');
    try {
      configText = listNewPage(files.read(configFile) ?? '', page, { group: { group: options.group } });
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  let template: string | undefined;
  if (options.template) {
    template = files.read(options.template);
    if (template === undefined) throw new UsageError(`the template ${options.template} is not a file of the docs root`);
  }
  const file = path.join(docsRoot, `${page}.mdx`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, newPageText(options.title.trim(), '', template));
  if (configText !== undefined && configFile) {
    fs.writeFileSync(path.join(docsRoot, configFile), configText);
    return { file, config: path.join(docsRoot, configFile) };
  }
  return { file };
}
