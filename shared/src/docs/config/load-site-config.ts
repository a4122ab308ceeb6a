import { DocsError, type BuildWarning, type DocsFiles, type SiteConfig } from '../types';
import { docsJsonSchema_ } from './docs-json-schema';
import { docsJsonToSiteConfig } from './docs-json';
import { folderNavigation } from './folder-navigation';
import { describeJsonType, isJsonObject } from './json-path';
import { mintJsonSchema } from './mint-json-schema';
import { mintJsonToSiteConfig } from './mint-json';
import { CONFIG_FILES } from './page-files';
import { loadJsonWithRefs } from './resolve-refs';
import { DEFAULT_PRIMARY_COLOR, type ConvertContext } from './site-fields';
import { validateConfig } from './validate-config';

/** The loaded site configuration and what was worth telling about it. */
export interface LoadedSiteConfig {
  config: SiteConfig;
  /** `config` (refused `$ref`s, skipped redirects, ignored mint.json...) and `missing-image` (logo, favicon) */
  warnings: BuildWarning[];
  /** config files read (docs.json/mint.json and its `$ref` files): part of the build's cache key */
  files: string[];
}

/**
 * docs.json keys Mintlify requires that Quire can do without: a missing one is a `config` warning
 * and gets this default (an author's first docs.json should build).
 */
function fillRequired(raw: Record<string, unknown>, warnings: BuildWarning[]): Record<string, unknown> {
  const out = { ...raw };
  const warn = (field: string, fallback: string) =>
    warnings.push({ file: 'docs.json', kind: 'config', message: `docs.json: ${field} is missing; using ${fallback}.` });
  if (out.theme === undefined) {
    warn('theme', '"mint"');
    out.theme = 'mint';
  }
  if (out.name === undefined) {
    warn('name', '"Documentation"');
    out.name = 'Documentation';
  }
  if (out.colors === undefined) {
    warn('colors.primary', DEFAULT_PRIMARY_COLOR);
    out.colors = { primary: DEFAULT_PRIMARY_COLOR };
  } else if (isJsonObject(out.colors) && out.colors.primary === undefined) {
    warn('colors.primary', DEFAULT_PRIMARY_COLOR);
    out.colors = { ...out.colors, primary: DEFAULT_PRIMARY_COLOR };
  }
  return out;
}

/** The site when the docs root has no config: folder navigation and defaults. */
function configFromFolders(files: DocsFiles): SiteConfig {
  const { name, navigation } = folderNavigation(files);
  return {
    source: null,
    name,
    colors: { primary: DEFAULT_PRIMARY_COLOR },
    navbar: { links: [] },
    footer: { socials: [], links: [] },
    redirects: [],
    variables: {},
    navigation,
    openapi: [],
    raw: {},
  };
}

/**
 * Loads the site configuration of a docs root (MINTLIFY-FORMAT.md sections 2-3, 7-8;
 * decisions.md section 5): `docs.json`, else the legacy `mint.json`, with `$ref`s resolved
 * (see {@link loadJsonWithRefs}); without either, every page with folder navigation
 * ({@link folderNavigation}). Unknown keys are kept in `config.raw`.
 * docs.json without `theme`, `name` or `colors.primary` builds with defaults and a warning; without
 * `navigation` it falls back to folder navigation with a warning.
 * Navigation entries are not checked against files here: call `checkNavigation(config.navigation,
 * listPageFiles(files), config.source)` for missing and duplicate entries.
 * @throws DocsError when the config cannot be read: invalid JSON, a `$ref` cycle or missing `$ref`
 *   file, or a value of the wrong type; the message names the file, the JSON path and what was expected
 */
export function loadSiteConfig(files: DocsFiles): LoadedSiteConfig {
  const source = CONFIG_FILES.find((f) => files.exists(f));
  if (!source) return { config: configFromFolders(files), warnings: [], files: [] };
  const resolved = loadJsonWithRefs(files, source);
  const warnings = [...resolved.warnings];
  if (source === 'docs.json' && files.exists('mint.json')) {
    warnings.push({ file: 'mint.json', kind: 'config', message: 'mint.json is ignored because docs.json exists.' });
  }
  if (!isJsonObject(resolved.value)) {
    throw new DocsError(`${source}: must be a JSON object, got ${describeJsonType(resolved.value)}`, source);
  }
  const rawObject = resolved.value;
  const ctx: ConvertContext = { file: source, files, warnings, openapi: [] };
  let config: SiteConfig;
  if (source === 'docs.json') {
    const filled = fillRequired(rawObject, warnings);
    const withoutNav = filled.navigation === undefined;
    if (withoutNav) {
      warnings.push({ file: source, kind: 'config', message: 'docs.json: navigation is missing; the navigation follows the folders.' });
      filled.navigation = {};
    }
    // keep the origin of the top-level object for error messages
    resolved.origins.set(filled, { file: source, path: [] });
    const raw = validateConfig(docsJsonSchema_, filled, source, resolved);
    ctx.written = filled;
    config = docsJsonToSiteConfig(ctx, raw, rawObject);
    if (withoutNav) config.navigation = folderNavigation(files).navigation;
  } else {
    const raw = validateConfig(mintJsonSchema, rawObject, source, resolved);
    config = mintJsonToSiteConfig(ctx, raw, rawObject);
  }
  return { config, warnings, files: resolved.files };
}
