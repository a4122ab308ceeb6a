import type { BuildWarning, ContextualOption, ContextualOptionId, DocsFiles, Redirect, SiteConfig } from '../types';
import { DocsError } from '../types';
import { redirectSourceProblem } from '../nav/match-redirect';
import type { RawIcon, RawImage } from './schema-parts';
import type { RawDocsJson } from './docs-json-schema';

/** What a config converter needs besides the raw config. */
export interface ConvertContext {
  /** `docs.json` or `mint.json` */
  file: string;
  files: DocsFiles;
  warnings: BuildWarning[];
  /** OpenAPI specs met so far (config order, no duplicates) */
  openapi: string[];
  /** the config as written (before validation, which reorders keys): gives navigation keys their written order */
  written?: unknown;
}

/** Primary colour when the config gives none. */
export const DEFAULT_PRIMARY_COLOR = '#16A34A';

/** The icon name of an icon value (`"book"` or `{name: "book", style}` → `book`). */
export function iconName(icon: RawIcon | undefined): string | undefined {
  if (icon === undefined) return undefined;
  return typeof icon === 'string' ? icon : icon.name;
}

/** Records an OpenAPI spec for {@link SiteConfig.openapi} and returns it. */
export function addOpenapi(ctx: ConvertContext, spec: string | undefined): string | undefined {
  if (spec && !ctx.openapi.includes(spec)) ctx.openapi.push(spec);
  return spec;
}

/** True for a link that leaves the site (`https://`, `mailto:`, `//host`). */
export function isExternalUrl(s: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(s) || s.startsWith('//');
}

/** The branding fields docs.json and mint.json both carry, under their own key names. */
export interface BrandingFields {
  description?: string;
  theme?: string;
  colors?: { light?: string; dark?: string };
  background?: { light?: string; dark?: string };
  logo?: RawImage;
  favicon?: RawImage;
  /** `default` and whether the reader may switch (`strict`) */
  appearance?: { default?: 'system' | 'light' | 'dark'; strict?: boolean };
}

/**
 * Copies the branding fields onto `config`, leaving out what the file does not set (so the
 * optional SiteConfig members stay absent rather than undefined).
 */
export function applyBranding(config: SiteConfig, b: BrandingFields): void {
  if (b.description) config.description = b.description;
  if (b.theme) config.theme = b.theme;
  if (b.colors?.light) config.colors.light = b.colors.light;
  if (b.colors?.dark) config.colors.dark = b.colors.dark;
  const bg = b.background;
  if (bg && (bg.light || bg.dark)) config.colors.background = { ...(bg.light ? { light: bg.light } : {}), ...(bg.dark ? { dark: bg.dark } : {}) };
  const logo = normalizeImage(b.logo);
  if (logo) config.logo = logo;
  const favicon = normalizeImage(b.favicon);
  if (favicon) config.favicon = { light: favicon.light, dark: favicon.dark };
  if (b.appearance) {
    config.appearance = {};
    if (b.appearance.default) config.appearance.default = b.appearance.default;
    if (b.appearance.strict !== undefined) config.appearance.strict = b.appearance.strict;
  }
}

/** Logo or favicon in both colour schemes (`dark` falls back to `light`). */
export function normalizeImage(image: RawImage | undefined): { light: string; dark: string; href?: string } | undefined {
  if (image === undefined) return undefined;
  if (typeof image === 'string') return { light: image, dark: image };
  return { light: image.light, dark: image.dark ?? image.light, ...(image.href ? { href: image.href } : {}) };
}

/**
 * Warns (`missing-image`) about an image the config names that is not in the docs root
 * (seen: pezzo and trigger-dev logos). URLs are not checked.
 */
export function checkImage(ctx: ConvertContext, field: string, src: string | undefined): void {
  if (!src || isExternalUrl(src) || src.startsWith('data:')) return;
  const path = src.replace(/^\/+/, '').replace(/[?#].*$/, '');
  if (path === '' || !ctx.files.exists(path)) {
    ctx.warnings.push({ file: ctx.file, kind: 'missing-image', message: `${ctx.file}: ${field} "${src}" is not a file of the docs.` });
  }
}

/** Checks the logo and favicon files in both schemes (a shared file is checked once). */
export function checkImages(ctx: ConvertContext, config: Pick<SiteConfig, 'logo' | 'favicon'>): void {
  for (const key of ['logo', 'favicon'] as const) {
    const img = config[key];
    if (!img) continue;
    checkImage(ctx, `${key}.light`, img.light);
    if (img.dark !== img.light) checkImage(ctx, `${key}.dark`, img.dark);
  }
}

/** Most redirects a config may declare; later ones are dropped with one `config` warning (Mintlify sites seen: 42, 167, 350). */
export const MAX_REDIRECTS = 2000;
/** Longest redirect source or destination, in characters (UTF-16 code units); longer ones are skipped with a warning. */
export const MAX_REDIRECT_LENGTH = 1000;
/** Most `*` (in-segment wildcards and `:name*`) in one segment of a redirect source (Mintlify sites seen: 1). */
export const MAX_REDIRECT_WILDCARDS_PER_SEGMENT = 4;
/** Most `*` in a whole redirect source (Mintlify sites seen: 1). */
export const MAX_REDIRECT_WILDCARDS = 8;

/** A config value quoted in a warning, cut to 80 characters. */
const quoted = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);

const count = (s: string, ch: string) => s.split(ch).length - 1;

/** Why a redirect is skipped (a phrase finishing "redirects[i] …"), or undefined when it is kept. */
function redirectProblem(r: { source: string; destination: string }): string | undefined {
  if (r.source.length > MAX_REDIRECT_LENGTH) return `.source is longer than ${MAX_REDIRECT_LENGTH} characters`;
  if (r.destination.length > MAX_REDIRECT_LENGTH) return `.destination is longer than ${MAX_REDIRECT_LENGTH} characters`;
  if (!r.source.startsWith('/') || /[?#]/.test(r.source)) return `.source ${quoted(r.source)} must be a path starting with / without #anchor or ?query`;
  if (count(r.source, '*') > MAX_REDIRECT_WILDCARDS) return `.source ${quoted(r.source)} has more than ${MAX_REDIRECT_WILDCARDS} wildcards (*)`;
  if (r.source.split('/').some((seg) => count(seg, '*') > MAX_REDIRECT_WILDCARDS_PER_SEGMENT)) {
    return `.source ${quoted(r.source)} has more than ${MAX_REDIRECT_WILDCARDS_PER_SEGMENT} wildcards (*) in one segment`;
  }
  const problem = redirectSourceProblem(r.source);
  return problem ? `.source ${quoted(r.source)} ${problem}` : undefined;
}

/**
 * Redirects with `permanent` defaulting to true (MINTLIFY-FORMAT.md section 7). Each of these is
 * skipped with a `config` warning naming the file and the index: a source that is not a path or
 * carries a `#anchor` or `?query`; a source or destination longer than {@link MAX_REDIRECT_LENGTH};
 * a source with more wildcards than {@link MAX_REDIRECT_WILDCARDS} (or
 * {@link MAX_REDIRECT_WILDCARDS_PER_SEGMENT} in one segment); a source the matcher cannot use
 * (`redirectSourceProblem`). Entries after the first {@link MAX_REDIRECTS} are dropped with one
 * warning saying how many. The caps keep matching a request against the redirects cheap.
 */
export function normalizeRedirects(
  ctx: ConvertContext,
  redirects: { source: string; destination: string; permanent?: boolean }[] | undefined,
): Redirect[] {
  const all = redirects ?? [];
  const out: Redirect[] = [];
  all.slice(0, MAX_REDIRECTS).forEach((r, i) => {
    const problem = redirectProblem(r);
    if (problem) {
      ctx.warnings.push({ file: ctx.file, kind: 'config', message: `${ctx.file}: redirects[${i}]${problem}; redirect skipped.` });
      return;
    }
    out.push({ source: r.source, destination: r.destination, permanent: r.permanent ?? true });
  });
  if (all.length > MAX_REDIRECTS) {
    ctx.warnings.push({
      file: ctx.file,
      kind: 'config',
      message: `${ctx.file}: redirects has ${all.length} entries; only the first ${MAX_REDIRECTS} are used, ${all.length - MAX_REDIRECTS} dropped.`,
    });
  }
  return out;
}

/** Footer socials from `{network: url}` or `[{type, url}]`. */
export function normalizeSocials(socials: Record<string, string> | { type: string; url: string }[] | undefined): { type: string; href: string }[] {
  if (!socials) return [];
  if (Array.isArray(socials)) return socials.map((s) => ({ type: s.type, href: s.url }));
  return Object.entries(socials).map(([type, href]) => ({ type, href }));
}

/** A button label when the config gives only a type (`github` → `GitHub`). */
export function labelForType(type: string | undefined, fallback: string): string {
  if (!type) return fallback;
  if (type.toLowerCase() === 'github') return 'GitHub';
  if (type.toLowerCase() === 'discord') return 'Discord';
  return type.charAt(0).toUpperCase() + type.slice(1);
}

/**
 * `versioning` checked beyond its shape: labels are unique and at most one version is the default.
 * @throws DocsError naming the field
 */
export function normalizeVersioning(ctx: ConvertContext, versioning: SiteConfig['versioning']): SiteConfig['versioning'] {
  if (!versioning) return undefined;
  const labels = new Set<string>();
  versioning.versions.forEach((v, i) => {
    if (labels.has(v.label)) {
      const field = `versioning.versions[${i}].label`;
      throw new DocsError(`${ctx.file}: ${field} "${v.label}" is used by an earlier version; labels must be unique`, ctx.file, undefined, undefined, field);
    }
    labels.add(v.label);
  });
  if (versioning.versions.filter((v) => v.default).length > 1) {
    throw new DocsError(`${ctx.file}: versioning.versions may mark only one version "default": true`, ctx.file, undefined, undefined, 'versioning.versions');
  }
  return { versions: versioning.versions.map((v) => ({ ...v })) };
}

/** The page actions Quire renders, by their docs.json `contextual.options` identifier. */
export const CONTEXTUAL_OPTION_IDS: readonly ContextualOptionId[] = ['copy', 'view', 'chatgpt', 'claude', 'perplexity', 'mcp', 'cursor', 'vscode'];

/** The page actions when docs.json has no `contextual` (and always for mint.json, which has no such field). */
export const DEFAULT_CONTEXTUAL_OPTIONS: readonly ContextualOption[] = [{ id: 'copy' }, { id: 'view' }, { id: 'chatgpt' }, { id: 'claude' }];

/**
 * The page actions of a validated `contextual` (Mintlify's contextual menu, docs.json): built-in
 * identifiers in written order, each once; a custom option becomes a link (`href` as written, or
 * `base` with `query` appended as URL parameters). An identifier Quire does not render (Mintlify
 * knows more, e.g. `assistant`) and a custom link that is not http(s) are skipped with a `config`
 * warning, never a failed build.
 * @returns undefined when `contextual` is absent (the renderer then uses {@link DEFAULT_CONTEXTUAL_OPTIONS})
 */
export function contextualOptions(ctx: ConvertContext, contextual: RawDocsJson['contextual']): ContextualOption[] | undefined {
  if (!contextual) return undefined;
  const out: ContextualOption[] = [];
  const seen = new Set<string>();
  contextual.options.forEach((option, i) => {
    const where = `contextual.options[${i}]`;
    if (typeof option === 'string') {
      const id = CONTEXTUAL_OPTION_IDS.find((known) => known === option);
      if (!id) {
        ctx.warnings.push({ file: ctx.file, kind: 'config', message: `${ctx.file}: ${where} "${option}" is not a page action Quire offers (${CONTEXTUAL_OPTION_IDS.join(', ')}); it is left out` });
        return;
      }
      if (!seen.has(id)) out.push({ id });
      seen.add(id);
      return;
    }
    const href = typeof option.href === 'string' ? option.href : withQuery(option.href.base, option.href.query ?? []);
    if (!/^https?:\/\//i.test(href)) {
      ctx.warnings.push({ file: ctx.file, kind: 'config', message: `${ctx.file}: ${where}.href must be an http(s) URL; the option is left out` });
      return;
    }
    out.push({ id: 'custom', title: option.title, ...(option.description ? { description: option.description } : {}), href });
  });
  return out;
}

/** `base` with `query` appended as URL parameters (values percent-encoded, `$path` kept for the page to fill). */
function withQuery(base: string, query: readonly { key: string; value: string }[]): string {
  if (query.length === 0) return base;
  const params = query.map((q) => `${encodeURIComponent(q.key)}=${encodeURIComponent(q.value).replace(/%24path/gi, '$path')}`).join('&');
  return `${base}${base.includes('?') ? '&' : '?'}${params}`;
}
