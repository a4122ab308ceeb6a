/**
 * Renders real corpus pages through the real pipeline pieces (config loader, navigation titles,
 * Markdown renderer) and the theme, for screenshots (not a test):
 *   npx tsx shared/test/site/preview-corpus.ts trigger-dev introduction [out dir]
 * Asset files are taken from /tmp/quire-preview (run preview.ts first).
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadSiteConfig } from '../../src/docs/config/index';
import { createCodeHighlighter, renderPage, splitFrontmatter } from '../../src/docs/markdown/index';
import { fillTitles, flattenPages, type PageLabel } from '../../src/docs/nav/index';
import { createSiteRenderer, siteThemeCss } from '../../src/site/index';
import { CORPUS_DIR, dirFiles } from '../helpers/dir-files';

const [corpus = 'trigger-dev', pagePath = 'introduction', out = '/tmp/quire-preview'] = process.argv.slice(2);
const files = dirFiles(path.join(CORPUS_DIR, corpus));
const { config } = loadSiteConfig(files);
const labels = new Map<string, PageLabel>();
for (const p of flattenPages(config.navigation)) {
  for (const ext of ['.mdx', '.md']) {
    const src = files.read(p.path + ext);
    if (src === undefined) continue;
    const fm = splitFrontmatter(src, p.path + ext).data;
    if (typeof fm.title === 'string') labels.set(p.path, { title: fm.title, sidebarTitle: typeof fm.sidebarTitle === 'string' ? fm.sidebarTitle : undefined });
    break;
  }
}
const nav = fillTitles(config.navigation, labels);
fs.writeFileSync(path.join(out, `theme-${corpus}.css`), siteThemeCss(config));
const renderer = createSiteRenderer({
  site: config, nav, siteCss: `file://${out}/theme-${corpus}.css`,
  assets: { css: `file://${out}/site.css`, js: `file://${out}/site.js`, themeJs: `file://${out}/theme.js` },
  editBaseUrl: 'https://github.com/example/docs/edit/main/docs/',
});
const filePath = files.exists(`${pagePath}.mdx`) ? `${pagePath}.mdx` : `${pagePath}.md`;
const highlighter = await createCodeHighlighter();
const page = await renderPage({ filePath, source: files.read(filePath) ?? '', files, highlighter, variables: config.variables });
const name = `${corpus}-${pagePath.replace(/\//g, '_')}.html`;
fs.writeFileSync(
  path.join(out, name),
  renderer.page({ path: pagePath, title: page.title, description: page.description, html: page.html, toc: page.toc, filePath }),
);
console.log(path.join(out, name));
