import type { NavDivision, NavGroup, NavNode, SiteConfig } from '../types';
import type { RawMintGroup, RawMintJson } from './mint-json-schema';
import { normalizePagePath, pageEntry } from './page-entry';
import {
  DEFAULT_PRIMARY_COLOR, addOpenapi, applyBranding, checkImage, checkImages, iconName, isExternalUrl, labelForType,
  normalizeRedirects, normalizeSocials, normalizeVersioning, type ConvertContext,
} from './site-fields';

type Section = NonNullable<RawMintJson['tabs']>[number];

/** A top-level group, converted, with the page paths that decide its tab/anchor. */
interface PlacedGroup {
  node: NavGroup;
  version?: string;
  pages: string[];
}

function convertGroup(ctx: ConvertContext, g: RawMintGroup, field: string): NavGroup {
  const children: NavNode[] = [];
  g.pages.forEach((e, i) => {
    if (typeof e === 'string') {
      const page = pageEntry(ctx, e, `${field}.pages[${i}]`, undefined);
      if (page) children.push(page);
    } else children.push(convertGroup(ctx, e, `${field}.pages[${i}]`));
  });
  const node: NavGroup = { type: 'group', title: g.group, children };
  const icon = iconName(g.icon);
  if (icon) node.icon = icon;
  return node;
}

function pagePaths(nodes: NavNode[]): string[] {
  return nodes.flatMap((n) => (n.type === 'page' ? [n.path] : n.type === 'group' ? pagePaths(n.children) : []));
}

/** The folder a tab or anchor owns (`/api-reference/` → `api-reference`), or undefined for a URL. */
function folderOf(section: Section): string | undefined {
  return isExternalUrl(section.url) ? undefined : normalizePagePath(section.url);
}

/** True when the group's first page lives under `folder` (that is how mint.json assigns groups to tabs and anchors). */
function under(group: PlacedGroup, folder: string): boolean {
  const first = group.pages[0];
  return first !== undefined && (folder === '' || first === folder || first.startsWith(`${folder}/`));
}

function appliesTo(section: { version?: string }, version: string | undefined): boolean {
  return section.version === undefined || version === undefined || section.version === version;
}

/** A tab or anchor: a division owning the groups under its folder, or an external link. */
function sectionDivision(kind: 'tab' | 'anchor', section: Section, children: NavNode[]): NavDivision {
  const node: NavDivision = { type: 'division', kind, title: section.name, children };
  const icon = iconName(section.icon);
  if (icon) node.icon = icon;
  if (folderOf(section) === undefined) node.href = section.url;
  return node;
}

/**
 * Splits groups among `items` by folder prefix; groups under no folder go to the primary division.
 * Folder divisions that own no group are dropped, and so is an empty primary one.
 */
function split(
  kind: 'tab' | 'anchor',
  items: Section[],
  groups: PlacedGroup[],
  primary: { name: string; icon?: string },
  inner: (groups: PlacedGroup[]) => NavNode[],
): NavNode[] {
  const owned = new Map<Section, PlacedGroup[]>();
  const rest: PlacedGroup[] = [];
  for (const g of groups) {
    const owner = items.find((s) => {
      const folder = folderOf(s);
      return folder !== undefined && under(g, folder);
    });
    if (owner) owned.set(owner, [...(owned.get(owner) ?? []), g]);
    else rest.push(g);
  }
  const out: NavNode[] = [];
  if (rest.length) {
    const p: NavDivision = { type: 'division', kind, title: primary.name, children: inner(rest) };
    if (primary.icon) p.icon = primary.icon;
    out.push(p);
  }
  for (const s of items) {
    if (folderOf(s) === undefined) out.push(sectionDivision(kind, s, []));
    else if (owned.has(s)) out.push(sectionDivision(kind, s, inner(owned.get(s)!)));
  }
  return out;
}

/** One version's navigation: tabs (top bar) holding anchors (sidebar top) holding groups. */
function layout(raw: RawMintJson, groups: PlacedGroup[], version: string | undefined): NavNode[] {
  const anchors = (raw.anchors ?? []).filter((a) => appliesTo(a, version));
  const tabs = (raw.tabs ?? []).filter((t) => appliesTo(t, version));
  const byAnchor = (gs: PlacedGroup[]): NavNode[] =>
    anchors.length
      ? split('anchor', anchors, gs, { name: raw.topAnchor?.name ?? 'Documentation', icon: iconName(raw.topAnchor?.icon) }, byGroup)
      : byGroup(gs);
  const byGroup = (gs: PlacedGroup[]): NavNode[] => gs.map((g) => g.node);
  return tabs.length ? split('tab', tabs, groups, { name: raw.primaryTab?.name ?? 'Documentation' }, byAnchor) : byAnchor(groups);
}

/**
 * Normalizes a validated legacy mint.json (MINTLIFY-FORMAT.md section 8): the top-level
 * `navigation` array of groups is arranged into `version` divisions (`versions`; a group's
 * `version` assigns it, groups without one appear in every version), then `tabs` by folder
 * prefix (other groups form the primary tab, `primaryTab.name`), then `anchors` by folder prefix
 * (other groups under `topAnchor`); tabs and anchors with an external `url` become link divisions.
 * `topbarLinks`/`topbarCtaButton` → navbar, `footerSocials` → footer, `modeToggle` → appearance,
 * top-level `openapi` → openapi, `backgroundImage` checked like the logo.
 */
export function mintJsonToSiteConfig(ctx: ConvertContext, raw: RawMintJson, rawObject: Record<string, unknown>): SiteConfig {
  const groups: PlacedGroup[] = raw.navigation.map((g, i) => {
    const node = convertGroup(ctx, g, `navigation[${i}]`);
    return { node, version: g.version, pages: pagePaths(node.children) };
  });
  const versionNames = (raw.versions ?? []).map((v) => (typeof v === 'string' ? v : v.name));
  let navigation: NavNode[];
  if (versionNames.length) {
    const defaultIndex = Math.max(0, (raw.versions ?? []).findIndex((v) => typeof v !== 'string' && v.default === true));
    for (const [i, g] of groups.entries()) {
      if (g.version !== undefined && !versionNames.includes(g.version)) {
        ctx.warnings.push({
          file: ctx.file,
          kind: 'config',
          message: `${ctx.file}: navigation[${i}].version "${g.version}" is not one of "versions" (${versionNames.join(', ')}); the group is shown in ${versionNames[defaultIndex]}.`,
        });
        g.version = versionNames[defaultIndex];
      }
    }
    navigation = versionNames.map((name, i) => {
      const mine = groups.filter((g) => g.version === undefined || g.version === name);
      const node: NavDivision = { type: 'division', kind: 'version', title: name, children: layout(raw, mine, name) };
      if (i === defaultIndex) node.default = true;
      return node;
    });
  } else navigation = layout(raw, groups, undefined);

  const openapi = raw.openapi === undefined ? [] : Array.isArray(raw.openapi) ? raw.openapi : [raw.openapi];
  openapi.forEach((s) => addOpenapi(ctx, s));
  const config: SiteConfig = {
    source: 'mint.json',
    name: raw.name ?? 'Documentation',
    colors: { primary: raw.colors?.primary ?? DEFAULT_PRIMARY_COLOR },
    navbar: { links: (raw.topbarLinks ?? []).map((l) => ({ label: l.name ?? labelForType(l.type, l.url), href: l.url })) },
    footer: { socials: normalizeSocials(raw.footerSocials), links: [] },
    redirects: normalizeRedirects(ctx, raw.redirects),
    variables: { ...(raw.variables ?? {}) },
    navigation,
    openapi: ctx.openapi,
    raw: rawObject,
  };
  applyBranding(config, {
    description: raw.description,
    theme: raw.theme,
    colors: raw.colors,
    background: raw.colors?.background,
    logo: raw.logo,
    favicon: raw.favicon,
    appearance: raw.modeToggle && { default: raw.modeToggle.default, strict: raw.modeToggle.isHidden },
  });
  const cta = raw.topbarCtaButton;
  if (cta) config.navbar.primary = { label: cta.name ?? labelForType(cta.type, 'Get started'), href: cta.url };
  const versioning = normalizeVersioning(ctx, raw.versioning);
  if (versioning) config.versioning = versioning;
  checkImages(ctx, config);
  checkImage(ctx, 'backgroundImage', raw.backgroundImage);
  return config;
}
