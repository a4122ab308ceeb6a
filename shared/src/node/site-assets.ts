/**
 * The hashed theme assets of a site (Node-only: reads the theme files and the vendored KaTeX and
 * mermaid files from the installed packages). The builder (server/src/builder/site-writer.ts) writes
 * them into a deployment; `quire-docs dev` (cli/src/dev/) serves them from memory: the same bytes
 * under the same URLs.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ASSET_DIR, SITE_CSS_FILES, SITE_JS_FILES, THEME_JS_FILE } from '../site/asset-files';

export { ASSET_DIR };

/** One hashed asset file of a deployment. */
export interface HashedAsset {
  /** path inside the deployment: `_quire/assets/site.1a2b3c4d5e.css` */
  file: string;
  /** URL path the pages reference: `/_quire/assets/site.1a2b3c4d5e.css` */
  url: string;
  /** text, or bytes (fonts) */
  content: string | Buffer;
}

/** The theme's assets for one site. */
export interface SiteAssets {
  css: HashedAsset;
  js: HashedAsset;
  themeJs: HashedAsset;
  /** the per-site theme CSS (colors from the config) */
  siteCss: HashedAsset;
  /** KaTeX's stylesheet (`katex.<hash>.css`), linked by pages holding math; its fonts are in `all` */
  katexCss: HashedAsset;
  /** the bundled mermaid (`mermaid.<hash>.js`), loaded by pages holding a diagram */
  mermaidJs: HashedAsset;
  all: HashedAsset[];
}

let shared: { css: string; js: string; themeJs: string } | undefined;
let vendor: { katexCss: HashedAsset; katexFonts: HashedAsset[]; mermaidJs: HashedAsset } | undefined;

/** Reads one theme file from shared/src/site/assets (`@quire/shared/assets/<name>`). */
function readThemeFile(name: string): string {
  return fs.readFileSync(fileURLToPath(new URL(`../site/assets/${name}`, import.meta.url)), 'utf8');
}

/**
 * Builds the hashed assets of a site: the theme's CSS files concatenated
 * into `site.<hash>.css`, its deferred scripts into `site.<hash>.js`, the blocking theme script as
 * `theme.<hash>.js`, and `siteCss` (the per-site colors) as `theme-<hash>.css`. The hash is the first
 * 10 hex digits of the content's SHA-256, so unchanged assets keep their URL (long-lived caching).
 * The theme files are read once per process.
 */
export function buildSiteAssets(siteCss: string): SiteAssets {
  shared ??= {
    css: SITE_CSS_FILES.map(readThemeFile).join('\n'),
    js: SITE_JS_FILES.map(readThemeFile).join(';\n'),
    themeJs: readThemeFile(THEME_JS_FILE),
  };
  const css = hashed('site', '.', 'css', shared.css);
  const js = hashed('site', '.', 'js', shared.js);
  const themeJs = hashed('theme', '.', 'js', shared.themeJs);
  const site = hashed('theme', '-', 'css', siteCss);
  vendor ??= vendorAssets();
  return {
    css, js, themeJs, siteCss: site, katexCss: vendor.katexCss, mermaidJs: vendor.mermaidJs,
    all: [css, js, themeJs, site, vendor.katexCss, ...vendor.katexFonts, vendor.mermaidJs],
  };
}

/**
 * The third-party files pages may need (served from the site itself, no CDN; decisions.md section 10: the
 * CSP allows only the site's own scripts): KaTeX's stylesheet with its `url(fonts/X.woff2)` references
 * rewritten to the hashed font files next to it (WOFF2 only: every browser the theme supports reads it),
 * and mermaid's self-contained browser bundle (`dist/mermaid.min.js`). Both are dependencies of `@quire/shared`.
 * @throws Error when a package is not installed (a broken install)
 */
function vendorAssets(): { katexCss: HashedAsset; katexFonts: HashedAsset[]; mermaidJs: HashedAsset } {
  const require = createRequire(import.meta.url);
  const katexDist = path.dirname(require.resolve('katex/dist/katex.min.css'));
  const fonts = new Map<string, HashedAsset>();
  const css = fs
    .readFileSync(path.join(katexDist, 'katex.min.css'), 'utf8')
    .replace(/src:url\(fonts\/([\w-]+)\.woff2\) format\("woff2"\)[^;}]*/g, (_m, name: string) => {
      let font = fonts.get(name);
      if (!font) fonts.set(name, (font = hashed(name, '.', 'woff2', fs.readFileSync(path.join(katexDist, 'fonts', `${name}.woff2`)))));
      return `src:url(${path.posix.basename(font.file)}) format("woff2")`;
    });
  const mermaid = fs.readFileSync(require.resolve('mermaid/dist/mermaid.min.js'), 'utf8');
  return { katexCss: hashed('katex', '.', 'css', css), katexFonts: [...fonts.values()], mermaidJs: hashed('mermaid', '.', 'js', mermaid) };
}

function hashed(stem: string, sep: string, ext: string, content: string | Buffer): HashedAsset {
  const hash = createHash('sha256').update(content).digest('hex').slice(0, 10);
  const file = path.posix.join(ASSET_DIR, `${stem}${sep}${hash}.${ext}`);
  return { file, url: `/${file}`, content };
}
