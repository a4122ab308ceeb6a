/**
 * Writes sample documents of the theme to /tmp/quire-preview for screenshots (not a test):
 *   npx tsx shared/test/site/preview.ts
 *   chromium --headless --no-sandbox --screenshot=/tmp/x.png --window-size=1440,900 file:///tmp/quire-preview/page.html
 * Pages: page.html (light), dark.html (dark by config), api.html, 404.html. Missing asset files of
 * other engineers (components.*, openapi.css) are skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSiteRenderer, SITE_CSS_FILES, SITE_JS_FILES, siteThemeCss, THEME_JS_FILE } from '../../src/site/index';
import { SAMPLE_BODY, SAMPLE_TOC, sampleNav, sampleSite } from './sample-site';

const out = process.argv[2] ?? '/tmp/quire-preview';
const assetsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/site/assets');
fs.mkdirSync(out, { recursive: true });
const concat = (files: string[]) =>
  files.filter((f) => fs.existsSync(path.join(assetsDir, f))).map((f) => fs.readFileSync(path.join(assetsDir, f), 'utf8')).join('\n');
fs.writeFileSync(path.join(out, 'site.css'), concat(SITE_CSS_FILES));
fs.writeFileSync(path.join(out, 'site.js'), concat(SITE_JS_FILES));
fs.writeFileSync(path.join(out, 'theme.js'), concat([THEME_JS_FILE]));

const assets = { css: `file://${out}/site.css`, js: `file://${out}/site.js`, themeJs: `file://${out}/theme.js` };
const make = (appearance: 'light' | 'dark') => {
  const site = sampleSite({ appearance: { default: appearance }, versioning: { versions: [{ label: 'v2', default: true }, { label: 'v1' }] } });
  fs.writeFileSync(path.join(out, `theme-${appearance}.css`), siteThemeCss(site));
  return createSiteRenderer({
    site, nav: sampleNav(), assets, siteCss: `file://${out}/theme-${appearance}.css`,
    editBaseUrl: 'https://github.com/acme/docs/edit/main/',
  });
};
const page = {
  path: 'concepts/auth/api-keys', title: 'API keys', description: 'Authenticate server-to-server requests with project API keys.',
  html: SAMPLE_BODY, toc: SAMPLE_TOC, lastUpdated: '2025-03-14T10:00:00Z',
};
const light = make('light');
const dark = make('dark');
fs.writeFileSync(path.join(out, 'page.html'), light.page(page));
fs.writeFileSync(path.join(out, 'dark.html'), dark.page(page));
fs.writeFileSync(path.join(out, 'api.html'), light.page({ path: 'api/users/create', title: 'Create a user', html: '<p>Creates a user.</p>', toc: [] }));
fs.writeFileSync(path.join(out, '404.html'), light.notFound());
fs.writeFileSync(path.join(out, '404-dark.html'), dark.notFound());
console.log(`wrote ${out}`);
