import { z } from 'zod';
import { arr, bool, hexColor, iconSchema, imageSchema, obj, redirectSchema, str, variablesSchema, versioningSchema, type RawIcon } from './schema-parts';

/** A group of the legacy mint.json navigation (MINTLIFY-FORMAT.md section 8). */
export interface RawMintGroup {
  group: string;
  pages: (string | RawMintGroup)[];
  icon?: RawIcon;
  /** assigns the group to one of the top-level `versions` */
  version?: string;
  [key: string]: unknown;
}

const mintGroupSchema: z.ZodType<RawMintGroup> = z.lazy(() =>
  obj(
    {
      group: str('a group name (may be "")'),
      pages: arr(z.union([str(), mintGroupSchema], { error: 'must be a page path or a group {"group", "pages"}' }), 'an array of page paths and groups'),
      icon: iconSchema.optional(),
      version: str('a version name from "versions"').optional(),
    },
    'a group {"group", "pages"}',
  ),
);

/** A mint.json tab or anchor: `url` is a folder prefix (or an external URL). */
const sectionSchema = (what: string) =>
  obj(
    {
      name: str(),
      url: str('a folder such as "api-reference" or a URL'),
      icon: iconSchema.optional(),
      version: str('a version name from "versions"').optional(),
      isDefaultHidden: bool().optional(),
    },
    `${what} {"name", "url"}`,
  );

const ctaSchema = obj({ name: str().optional(), url: str('a URL'), type: str().optional() }, 'a link {"name", "url"}');

/**
 * The legacy mint.json as Quire reads it. Looser than docs.json: no key is required except
 * `navigation` (the corpora have no `theme`); unknown keys are kept.
 */
export const mintJsonSchema = obj(
  {
    name: str('the site name').optional(),
    description: str().optional(),
    theme: str().optional(),
    logo: imageSchema().optional(),
    favicon: imageSchema().optional(),
    colors: obj({
      primary: hexColor().optional(),
      light: hexColor().optional(),
      dark: hexColor().optional(),
      background: obj({ light: hexColor().optional(), dark: hexColor().optional() }).optional(),
    }).optional(),
    navigation: arr(mintGroupSchema, 'an array of groups (mint.json format)'),
    tabs: arr(sectionSchema('a tab'), 'an array of tabs').optional(),
    primaryTab: obj({ name: str() }, 'an object {"name"}').optional(),
    anchors: arr(sectionSchema('an anchor'), 'an array of anchors').optional(),
    topAnchor: obj({ name: str(), icon: iconSchema.optional() }, 'an object {"name", "icon"}').optional(),
    versions: arr(
      z.union([str(), obj({ name: str(), default: bool().optional() })], { error: 'must be a version name or {"name", "default"}' }),
      'an array of version names',
    ).optional(),
    topbarLinks: arr(ctaSchema, 'an array of links').optional(),
    topbarCtaButton: ctaSchema.optional(),
    footerSocials: z
      .union([z.record(z.string(), str('a URL')), arr(obj({ type: str(), url: str('a URL') }), 'an array of socials')], {
        error: 'must be an object of network names to URLs',
      })
      .optional(),
    modeToggle: obj({
      default: z.enum(['light', 'dark', 'system'], { error: 'must be "light" or "dark"' }).optional(),
      isHidden: bool().optional(),
    }).optional(),
    backgroundImage: str('an image path').optional(),
    openapi: z.union([str(), arr(str(), 'an array of spec paths')], { error: 'must be a spec path or URL, or an array of them' }).optional(),
    redirects: arr(redirectSchema, 'an array of redirects').optional(),
    variables: variablesSchema.optional(),
    versioning: versioningSchema.optional(),
  },
  'a JSON object',
);

/** mint.json after validation. */
export type RawMintJson = z.infer<typeof mintJsonSchema>;
