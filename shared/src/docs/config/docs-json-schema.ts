import { z } from 'zod';
import {
  arr, bool, hexColor, iconSchema, imageSchema, obj, redirectSchema, str, variablesSchema, versioningSchema,
  type RawIcon,
} from './schema-parts';

/** `openapi` on the config, a division or a group: a spec path/URL, several, or `{source, directory}`. */
export const openapiRefSchema = z.union([str(), arr(str(), 'an array of spec paths'), obj({ source: str(), directory: str().optional() })], {
  error: 'must be an OpenAPI spec path or URL, an array of them, or {"source", "directory"}',
});
export type RawOpenapiRef = z.infer<typeof openapiRefSchema>;

/** A navigation group as written in docs.json (unknown keys kept). */
export interface RawGroup {
  group: string;
  pages?: RawPageEntry[];
  icon?: RawIcon;
  tag?: string;
  expanded?: boolean;
  root?: string;
  hidden?: boolean;
  openapi?: RawOpenapiRef;
  [key: string]: unknown;
}

/** A `pages` entry: a page path, an OpenAPI operation (`GET /users`) or a nested group. */
export type RawPageEntry = string | RawGroup;

/** The fields any navigation level may carry (the root, a tab, an anchor, a dropdown...). */
export interface RawDivisionFields {
  pages?: RawPageEntry[];
  groups?: RawGroup[];
  tabs?: RawDivision[];
  anchors?: RawDivision[];
  dropdowns?: RawDivision[];
  products?: RawDivision[];
  versions?: RawDivision[];
  languages?: RawDivision[];
  menu?: RawDivision[];
  icon?: RawIcon;
  hidden?: boolean;
  href?: string;
  description?: string;
  openapi?: RawOpenapiRef;
  default?: boolean;
  /** languages: the navbar of that language's pages */
  navbar?: RawNavbar;
  [key: string]: unknown;
}

/** A tab, anchor, dropdown, product, version, language or menu item; its title is under the key named by its kind. */
export type RawDivision = RawDivisionFields;

/** docs.json keys holding division lists, with the division kind and the key of each item's title. */
export const DIVISION_KEYS = {
  tabs: { kind: 'tab', titleKey: 'tab' },
  anchors: { kind: 'anchor', titleKey: 'anchor' },
  dropdowns: { kind: 'dropdown', titleKey: 'dropdown' },
  products: { kind: 'product', titleKey: 'product' },
  versions: { kind: 'version', titleKey: 'version' },
  languages: { kind: 'language', titleKey: 'language' },
  menu: { kind: 'menu', titleKey: 'item' },
} as const;
export type DivisionKey = keyof typeof DIVISION_KEYS;

const groupSchema: z.ZodType<RawGroup> = z.lazy(() =>
  obj(
    {
      group: str('a group name (may be "")'),
      pages: arr(pageEntrySchema, 'an array of page paths and groups').optional(),
      icon: iconSchema.optional(),
      tag: str().optional(),
      expanded: bool().optional(),
      root: str('a page path').optional(),
      hidden: bool().optional(),
      openapi: openapiRefSchema.optional(),
    },
    'a group {"group", "pages"}',
  ),
).meta({ id: 'group' });

const pageEntrySchema: z.ZodType<RawPageEntry> = z
  .union([str(), groupSchema], { error: 'must be a page path or a group {"group", "pages"}' })
  .meta({ id: 'pageEntry', description: 'A page path without extension (`guides/setup`), an OpenAPI operation (`GET /users`) or a group' });

/** The fields of any navigation level, one division list per kind (they nest freely). */
/** The division lists a navigation level may hold (also the members of `global`). */
const divisionLists = () => ({
  tabs: arr(divisionSchema('tab'), 'an array of tabs').optional(),
  anchors: arr(divisionSchema('anchor'), 'an array of anchors').optional(),
  dropdowns: arr(divisionSchema('dropdown'), 'an array of dropdowns').optional(),
  products: arr(divisionSchema('product'), 'an array of products').optional(),
  versions: arr(divisionSchema('version'), 'an array of versions').optional(),
  languages: arr(divisionSchema('language'), 'an array of languages').optional(),
});

const divisionShape = () => ({
  pages: arr(pageEntrySchema, 'an array of page paths and groups').optional(),
  groups: arr(groupSchema, 'an array of groups').optional(),
  ...divisionLists(),
  menu: arr(divisionSchema('item'), 'an array of menu items').optional(),
  icon: iconSchema.optional(),
  hidden: bool().optional(),
  href: str('a URL').optional(),
  description: str().optional(),
  openapi: openapiRefSchema.optional(),
});

const divisionSchemas = new Map<string, z.ZodType<RawDivision>>();

/** `navbar` of docs.json, and of a language (organize/navigation "Languages": language-specific navbar). */
function navbarSchema() {
  const link = obj(
    { label: str().optional(), type: str().optional(), href: str('a URL'), icon: iconSchema.optional() },
    'a link {"label", "href"}',
  );
  return obj({
    links: arr(link, 'an array of links').optional(),
    primary: obj(
      { type: str('"button" or "github"').optional(), label: str().optional(), href: str('a URL') },
      'a button {"type", "label", "href"}',
    ).optional(),
  });
}
/** docs.json `navbar` as validated. */
export type RawNavbar = z.infer<ReturnType<typeof navbarSchema>>;

/** The schema of one division item, titled by `titleKey` (`tab`, `anchor`, ..., `item` for menus). */
function divisionSchema(titleKey: string): z.ZodType<RawDivision> {
  let s = divisionSchemas.get(titleKey);
  if (!s) {
    s = z.lazy(() =>
      obj(
        { [titleKey]: str(), default: bool().optional(), ...divisionShape(), ...(titleKey === 'language' ? { navbar: navbarSchema().optional() } : {}) },
        `a ${titleKey} {"${titleKey}", ...}`,
      ),
    ).meta({ id: titleKey }) as z.ZodType<RawDivision>;
    divisionSchemas.set(titleKey, s);
  }
  return s;
}

/** `navigation` of docs.json: the root level plus `global` (items shown on every page). */
export const navigationSchema = obj(
  {
    ...divisionShape(),
    global: obj(
      divisionLists(),
      'an object of tabs, anchors, dropdowns...',
    ).optional(),
  },
  'an object such as {"groups": [...]} or {"tabs": [...]} (mint.json-style arrays belong in mint.json)',
);

/** Mintlify's theme names (docs.json `theme`). */
export const THEMES = ['mint', 'maple', 'palm', 'willow', 'linden', 'almond', 'aspen', 'sequoia', 'luma'] as const;

/**
 * `contextual` (Mintlify's contextual menu): `options` lists built-in identifiers (`copy`, `view`,
 * `chatgpt`, `claude`, `perplexity`, `mcp`, `cursor`, `vscode`; others Mintlify knows are skipped with a
 * warning, site-fields.ts) or custom links `{title, description?, icon?, href}`, `href` a URL or
 * `{base, query: [{key, value}]}`.
 */
export const contextualSchema = obj({
  options: arr(
    z.union(
      [
        str('an option name (copy, view, chatgpt, claude, perplexity, mcp, cursor, vscode)'),
        obj({
          title: str(),
          description: str().optional(),
          icon: iconSchema.optional(),
          href: z.union([str('a URL'), obj({ base: str('a URL'), query: arr(obj({ key: str(), value: str() }), 'an array of {"key", "value"}').optional() })], {
            error: 'must be a URL or {"base", "query"}',
          }),
        }, 'a custom option {"title", "href"}'),
      ],
      { error: 'must be an option name or a custom option {"title", "href"}' },
    ),
    'an array of options',
  ),
}, 'an object such as {"options": ["copy", "view"]}');

/**
 * docs.json as Quire reads it (MINTLIFY-FORMAT.md sections 2-3, 7; decisions.md section 5):
 * required `theme`, `name`, `colors.primary`, `navigation`; the other keys are typed when Quire
 * uses them; unknown keys are allowed and kept.
 */
export const docsJsonSchema_ = obj(
  {
    $schema: str('a schema URL').optional(),
    theme: str(`a theme name (${THEMES.join(', ')})`).meta({ examples: [...THEMES] }),
    name: str('the site name'),
    description: str().optional(),
    colors: obj(
      { primary: hexColor(), light: hexColor().optional(), dark: hexColor().optional() },
      'an object such as {"primary": "#0D9373"}',
    ),
    logo: imageSchema().optional(),
    favicon: imageSchema().optional(),
    appearance: obj({
      default: z.enum(['system', 'light', 'dark'], { error: 'must be one of system, light, dark' }).optional(),
      strict: bool().optional(),
    }).optional(),
    background: obj({
      decoration: str().optional(),
      color: obj({ light: hexColor().optional(), dark: hexColor().optional() }).optional(),
      image: imageSchema().optional(),
    }).optional(),
    navbar: navbarSchema().optional(),
    footer: obj({
      socials: z.record(z.string(), str('a URL'), { error: 'must be an object of network names to URLs' }).optional(),
      links: arr(
        obj({ header: str().optional(), items: arr(obj({ label: str(), href: str('a URL') }, 'a link {"label", "href"}'), 'an array of links') }),
        'an array of link columns',
      ).optional(),
    }).optional(),
    banner: obj({ content: str(), dismissible: bool().optional() }).optional(),
    redirects: arr(redirectSchema, 'an array of redirects').optional(),
    variables: variablesSchema.optional(),
    api: obj({ openapi: openapiRefSchema.optional() }).optional(),
    navigation: navigationSchema,
    versioning: versioningSchema.optional(),
    contextual: contextualSchema.optional(),
    // Quire's: the user fields pages may name besides name and plan (site/personalisation.ts)
    personalization: obj({ fields: arr(str('a field name'), 'an array of field names').optional() }).optional(),
  },
  'a JSON object',
);

/** docs.json after validation. */
export type RawDocsJson = z.infer<typeof docsJsonSchema_>;

/**
 * The JSON Schema of docs.json (draft 2020-12), generated from the zod schema the loader
 * validates with, for editors (the desktop app validates docs.json as you type; decisions.md 5).
 */
export const docsJsonSchema: Record<string, unknown> = {
  ...z.toJSONSchema(docsJsonSchema_, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' }),
  $id: 'https://quire.dev/schema/docs.json',
  title: 'Quire / Mintlify docs.json',
};
