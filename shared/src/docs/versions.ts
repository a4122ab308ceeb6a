/**
 * Documentation versions (interface-spec.md "Documentation version (project configuration)" and
 * "Versioning > Documentation versions"; decisions.md section 6): the rules the builder, the build
 * runner, site hosting and the renderer share, in one place.
 */
import type { SiteConfig } from './types';

/** One entry of `versioning.versions` (see {@link SiteConfig.versioning}). */
export type DocVersion = NonNullable<SiteConfig['versioning']>['versions'][number];

/**
 * What a version label may be: letters, digits, dots, dashes and underscores, starting with a letter
 * or a digit, at most 100 characters. A label is a URL prefix (`/<label>/`) and a channel name.
 */
export const VERSION_LABEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/**
 * The query parameter the version switcher adds to its links (`/<label>/<page>?_quire_from=switcher`):
 * a request carrying it is answered with a 302 to the page when the target version has it, and
 * to that version's first page (its root) when it does not (rule 5: switching keeps the page path),
 * instead of a 404. Requests without it are answered as usual.
 */
export const SWITCHER_PARAM = '_quire_from';
/** The value of {@link SWITCHER_PARAM} the switcher sends. */
export const SWITCHER_VALUE = 'switcher';

/**
 * The default version: the one marked `default: true`, else the first listed (spec: "defaults to
 * the first version listed"). Undefined without versions.
 */
export function defaultVersion(versions: readonly DocVersion[] | undefined): DocVersion | undefined {
  if (!versions || versions.length === 0) return undefined;
  return versions.find((v) => v.default === true) ?? versions[0];
}

/** The versions served under `/<label>/` (every version but the default), in the order listed. */
export function nonDefaultVersions(versions: readonly DocVersion[] | undefined): DocVersion[] {
  const def = defaultVersion(versions);
  return (versions ?? []).filter((v) => v !== def);
}

/**
 * The URL prefix a version is served under: `""` for the default version (the site root), else
 * `/<label>` (rule 3).
 */
export function versionPrefix(version: DocVersion, versions: readonly DocVersion[]): string {
  return version === defaultVersion(versions) ? '' : `/${encodeURIComponent(version.label)}`;
}

/** A git ref a version may be built from, as tried (see {@link versionRefCandidates}). */
export interface VersionRef {
  kind: 'tag' | 'branch';
  /** the name as written (`v1`) */
  name: string;
  /** the full ref (`refs/tags/v1`, `refs/heads/v1`) */
  ref: string;
  /** where the name came from */
  from: 'tag' | 'branch' | 'label';
}

/**
 * The refs a version may resolve to, in order of precedence (rule 2): its `tag`, then its `branch`,
 * then its `label` used as a branch name. The first that exists in the repository is built.
 */
export function versionRefCandidates(version: DocVersion): VersionRef[] {
  const out: VersionRef[] = [];
  const add = (kind: 'tag' | 'branch', name: string | undefined, from: VersionRef['from']) => {
    const n = name?.trim();
    if (!n) return;
    const ref = `refs/${kind === 'tag' ? 'tags' : 'heads'}/${n}`;
    if (!out.some((c) => c.ref === ref)) out.push({ kind, name: n, ref, from });
  };
  add('tag', version.tag, 'tag');
  add('branch', version.branch, 'branch');
  add('branch', version.label, 'label');
  return out;
}

/**
 * Picks the version a request path names: the non-default version whose label is the path's first
 * segment (`v1/guides/setup` → v1 with rest `guides/setup`). Undefined when the first segment is no
 * such label (the default version answers).
 * @param sitePath the decoded site path without its leading slash (`""` for `/`)
 */
export function versionOfPath(versions: readonly DocVersion[] | undefined, sitePath: string): { version: DocVersion; rest: string } | undefined {
  if (!versions || versions.length < 2 || sitePath === '') return undefined;
  const slash = sitePath.indexOf('/');
  const first = slash === -1 ? sitePath : sitePath.slice(0, slash);
  const def = defaultVersion(versions);
  const version = versions.find((v) => v !== def && v.label === first);
  return version ? { version, rest: slash === -1 ? '' : sitePath.slice(slash + 1) } : undefined;
}
