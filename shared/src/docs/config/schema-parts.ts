import { z } from 'zod';
import { VERSION_LABEL_PATTERN } from '../versions';

/**
 * Small zod building blocks shared by the docs.json and mint.json schemas. Every schema carries
 * the "must be ..." phrase that config errors print (see validate-config.ts), so a wrong value
 * reads `docs.json: navigation.tabs[1].groups must be an array of groups, got a string`.
 */

/** A string field; `what` completes "must be ...". */
export const str = (what = 'a string') => z.string({ error: `must be ${what}` });

/** A boolean field. */
export const bool = () => z.boolean({ error: 'must be true or false' });

/** An object with the given fields; unknown keys are kept (real configs carry many we do not use). */
export const obj = <S extends z.core.$ZodLooseShape>(shape: S, what = 'an object') => z.looseObject(shape, { error: `must be ${what}` });

/** An array of `item`. */
export const arr = <T extends z.core.SomeType>(item: T, what: string) => z.array(item, { error: `must be ${what}` });

/**
 * A CSS hex colour (`#0D9373`, `#fff`, `#0D9373CC`). Colours end up inside CSS, so only hex is
 * accepted: anything else could break out of the style sheet.
 */
export const hexColor = () =>
  z.string({ error: 'must be a hex colour such as #0D9373' }).regex(/^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, {
    error: 'must be a hex colour such as #0D9373',
  });

/** An icon: a name (`book-open`), or `{name, style}` as seen in trigger-dev. */
export const iconSchema = z.union([str(), obj({ name: str(), style: str().optional(), library: str().optional() })], {
  error: 'must be an icon name or {"name", "style"}',
});
export type RawIcon = z.infer<typeof iconSchema>;

/** An image: one path or URL, or one per colour scheme (`href`: where the logo links to). */
export const imageSchema = () =>
  z.union(
    [
      str(),
      obj({
        light: str('an image path or URL'),
        dark: str('an image path or URL').optional(),
        href: str('a URL').optional(),
      }),
    ],
    { error: 'must be an image path or {"light", "dark"}' },
  );
export type RawImage = string | { light: string; dark?: string; href?: string };

/** A redirect (MINTLIFY-FORMAT.md section 7). */
export const redirectSchema = obj(
  { source: str('a path such as /old'), destination: str('a path or URL'), permanent: bool().optional() },
  'a redirect {"source", "destination", "permanent"}',
);

/** `{{name}}` substitutions: every value must be a string. */
export const variablesSchema = z.record(z.string(), str(), { error: 'must be an object of names to strings' });

/** Quire's `versioning.versions` (interface-spec.md "Documentation version (project configuration)"). */
export const versioningSchema = obj(
  {
    versions: arr(
      obj(
        {
          label: str('a version label such as v2').regex(VERSION_LABEL_PATTERN, {
            error: 'must be a version label of letters, digits, dots, dashes or underscores (it becomes a URL prefix)',
          }),
          branch: str('a git branch name').optional(),
          tag: str('a git tag name').optional(),
          default: bool().optional(),
          deprecated: bool().optional(),
          deprecationMessage: str().optional(),
          autoRedirectToLatest: bool().optional(),
        },
        'a version {"label", "branch"?, "tag"?, ...}',
      ),
      'an array of versions',
    ).min(1, { error: 'must list at least one version' }),
  },
  'an object with "versions"',
);
