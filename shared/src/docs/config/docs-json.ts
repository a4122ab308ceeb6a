import type { NavDivision, NavGroup, NavNode, SiteConfig } from '../types';
import {
  DIVISION_KEYS, type DivisionKey, type RawDivision, type RawDivisionFields, type RawDocsJson, type RawGroup, type RawNavbar,
  type RawOpenapiRef, type RawPageEntry,
} from './docs-json-schema';
import { formatJsonPath, isJsonObject, valueAt, type JsonPath } from './json-path';
import { normalizePagePath, pageEntry } from './page-entry';
import {
  DEFAULT_PRIMARY_COLOR, addOpenapi, applyBranding, checkImage, checkImages, iconName, labelForType, normalizeImage, normalizeRedirects,
  normalizeSocials, normalizeVersioning, contextualOptions, type ConvertContext,
} from './site-fields';

/** The main spec of an `openapi` value (the first of a list, `source` of an object); all are recorded. */
function specOf(ctx: ConvertContext, ref: RawOpenapiRef | undefined): string | undefined {
  if (ref === undefined) return undefined;
  if (typeof ref === 'string') return addOpenapi(ctx, ref);
  if (Array.isArray(ref)) {
    ref.forEach((r) => addOpenapi(ctx, r));
    return ref[0];
  }
  return addOpenapi(ctx, ref.source);
}

/**
 * `directory` of an `openapi` object (`{source, directory}`) as a folder of page paths (no leading or
 * trailing `/`, no `.`/`..` segments: generated pages stay inside the site); undefined otherwise.
 */
function directoryOf(ref: RawOpenapiRef | undefined): string | undefined {
  if (ref === undefined || typeof ref === 'string' || Array.isArray(ref) || ref.directory === undefined) return undefined;
  return ref.directory.split('/').filter((seg) => seg.trim() !== '' && seg !== '.' && seg !== '..').join('/') || undefined;
}

/** A docs.json `navbar` (the site's, or a language's) as the theme reads it: labels from the link type when absent. */
function normalizeNavbar(raw: RawNavbar | undefined): SiteConfig['navbar'] {
  const navbar: SiteConfig['navbar'] = {
    links: (raw?.links ?? []).map((l) => {
      const link: SiteConfig['navbar']['links'][number] = { label: l.label ?? labelForType(l.type, l.href), href: l.href };
      const icon = iconName(l.icon);
      if (icon) link.icon = icon;
      return link;
    }),
  };
  const primary = raw?.primary;
  if (primary) navbar.primary = { label: primary.label ?? labelForType(primary.type, 'Get started'), href: primary.href };
  return navbar;
}

function isDivisionKey(key: string): key is DivisionKey {
  return Object.hasOwn(DIVISION_KEYS, key);
}

/** Children of any navigation level, in the order its keys are written (`tabs` before `pages` or after). */
function levelChildren(ctx: ConvertContext, level: RawDivisionFields, path: JsonPath, spec: string | undefined): NavNode[] {
  const out: NavNode[] = [];
  const written = valueAt(ctx.written, path);
  for (const key of Object.keys(isJsonObject(written) ? written : level)) {
    if (isDivisionKey(key)) out.push(...divisions(ctx, key, level[key] ?? [], [...path, key], spec));
    else if (key === 'groups') (level.groups ?? []).forEach((g, i) => out.push(group(ctx, g, [...path, 'groups', i], spec)));
    else if (key === 'pages') out.push(...pages(ctx, level.pages ?? [], [...path, 'pages'], spec));
  }
  return out;
}

function pages(ctx: ConvertContext, entries: RawPageEntry[], path: JsonPath, spec: string | undefined): NavNode[] {
  const out: NavNode[] = [];
  entries.forEach((e, i) => {
    if (typeof e !== 'string') out.push(group(ctx, e, [...path, i], spec));
    else {
      const page = pageEntry(ctx, e, formatJsonPath([...path, i]), spec);
      if (page) out.push(page);
    }
  });
  return out;
}

function group(ctx: ConvertContext, g: RawGroup, path: JsonPath, inherited: string | undefined): NavGroup {
  const own = specOf(ctx, g.openapi);
  const node: NavGroup = { type: 'group', title: g.group, children: levelChildren(ctx, g, path, own ?? inherited) };
  const icon = iconName(g.icon);
  if (icon) node.icon = icon;
  if (g.tag) node.tag = g.tag;
  if (g.expanded !== undefined) node.expanded = g.expanded;
  if (g.root) node.root = normalizePagePath(g.root);
  if (g.hidden) node.hidden = true;
  if (own) node.openapi = own;
  const dir = directoryOf(g.openapi);
  if (dir) node.openapiDirectory = dir;
  return node;
}

function divisions(ctx: ConvertContext, key: DivisionKey, items: RawDivision[], path: JsonPath, inherited: string | undefined): NavDivision[] {
  const { kind, titleKey } = DIVISION_KEYS[key];
  const out = items.map((item, i): NavDivision => {
    const own = specOf(ctx, item.openapi);
    const title = item[titleKey];
    const node: NavDivision = {
      type: 'division',
      kind,
      title: typeof title === 'string' ? title : '',
      children: levelChildren(ctx, item, [...path, i], own ?? inherited),
    };
    const icon = iconName(item.icon);
    if (icon) node.icon = icon;
    if (item.description) node.description = item.description;
    if (item.href) node.href = item.href;
    if (item.hidden) node.hidden = true;
    if (own) node.openapi = own;
    const dir = directoryOf(item.openapi);
    if (dir) node.openapiDirectory = dir;
    if (kind === 'language' && item.navbar) node.navbar = normalizeNavbar(item.navbar);
    return node;
  });
  if (kind === 'version' || kind === 'language') {
    const chosen = Math.max(0, items.findIndex((item) => item.default === true));
    if (out[chosen]) out[chosen].default = true;
  }
  return out;
}

/**
 * Normalizes a validated docs.json (MINTLIFY-FORMAT.md sections 2-3): divisions nest freely and
 * keep their written order; `global` items are appended to the top level (they are links shown
 * on every page); `openapi` on divisions and groups is inherited by operation entries below.
 * Warnings go to `ctx.warnings` (missing logo/favicon/background files, bad redirects).
 */
export function docsJsonToSiteConfig(ctx: ConvertContext, raw: RawDocsJson, rawObject: Record<string, unknown>): SiteConfig {
  // api.openapi registers specs; operation entries outside an `openapi` group search them all (openapi/)
  specOf(ctx, raw.api?.openapi);
  const navigation = levelChildren(ctx, raw.navigation, ['navigation'], undefined);
  const global = raw.navigation.global;
  if (global) {
    const written = valueAt(ctx.written, ['navigation', 'global']);
    for (const key of Object.keys(isJsonObject(written) ? written : global)) {
      const items = (global as Record<string, unknown>)[key] as RawDivision[] | undefined;
      if (isDivisionKey(key) && items) navigation.push(...divisions(ctx, key, items, ['navigation', 'global', key], undefined));
    }
  }
  const config: SiteConfig = {
    source: 'docs.json',
    name: raw.name,
    theme: raw.theme,
    colors: { primary: raw.colors.primary ?? DEFAULT_PRIMARY_COLOR },
    navbar: normalizeNavbar(raw.navbar),
    footer: {
      socials: normalizeSocials(raw.footer?.socials),
      links: (raw.footer?.links ?? []).map((col) => ({
        ...(col.header ? { header: col.header } : {}),
        items: col.items.map((it) => ({ label: it.label, href: it.href })),
      })),
    },
    redirects: normalizeRedirects(ctx, raw.redirects),
    variables: { ...(raw.variables ?? {}) },
    navigation,
    openapi: ctx.openapi,
    raw: rawObject,
  };
  applyBranding(config, {
    description: raw.description,
    colors: raw.colors,
    background: raw.background?.color,
    logo: raw.logo,
    favicon: raw.favicon,
    appearance: raw.appearance,
  });
  if (raw.banner) config.banner = { content: raw.banner.content, ...(raw.banner.dismissible !== undefined ? { dismissible: raw.banner.dismissible } : {}) };
  const versioning = normalizeVersioning(ctx, raw.versioning);
  if (versioning) config.versioning = versioning;
  const contextual = contextualOptions(ctx, raw.contextual);
  if (contextual) config.contextual = contextual;
  checkImages(ctx, config);
  const bgImage = normalizeImage(raw.background?.image);
  if (bgImage) {
    checkImage(ctx, 'background.image', bgImage.light);
    if (bgImage.dark !== bgImage.light) checkImage(ctx, 'background.image.dark', bgImage.dark);
  }
  return config;
}
