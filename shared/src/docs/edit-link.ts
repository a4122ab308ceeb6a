/**
 * "Edit this page" links (site-look.md "Content column"): the one rule turning a project's repository
 * and branch into the URL that opens a page's file in the host's web editor. Known hosts:
 * - GitHub (`github.com`): `https://github.com/<owner>/<repo>/edit/<branch>/<path>`
 * - GitLab (`gitlab.com` and hosts named `gitlab.*`, subgroups included):
 *   `https://<host>/<group>/<repo>/-/edit/<branch>/<path>`
 * - Bitbucket Cloud (`bitbucket.org`): `https://bitbucket.org/<workspace>/<repo>/src/<branch>/<path>?mode=edit`
 * Any other https repository gets a link when docs.json sets `editUrl`, a pattern with the
 * placeholders `{branch}` and `{path}` (the file's path in the repository, docs folder included),
 * e.g. `"editUrl": "https://git.example.com/docs/_edit/{branch}/{path}"`; `"editUrl": false` turns
 * the links off. The pattern wins over the host rule.
 *
 * Credentials written in the repository URL (`https://user:token@host/...`) never reach the link.
 */

/** What the rule needs to know about a build. */
export interface EditLinkSource {
  /** the project's repository URL (https, `git@host:path`, `ssh://`, or a local path: no link) */
  repoUrl: string;
  branch: string;
  /** the docs folder inside the repository (`docs`), '' at the root */
  docsRoot: string;
  /** docs.json `editUrl` as written (a pattern string, false, or anything else: ignored) */
  pattern?: unknown;
}

/** The placeholder {@link editUrlTemplate} leaves for the page file's path under the docs folder. */
export const EDIT_PATH_PLACEHOLDER = '{path}';

const encodePath = (p: string) => p.split('/').map(encodeURIComponent).join('/');

/** Host and repository path (`group/sub/repo`, no `.git`) of a remote URL; undefined for local paths. */
function remoteOf(repoUrl: string): { host: string; repo: string } | undefined {
  const url = repoUrl.trim();
  const scp = /^[\w.-]+@([\w.-]+):(?!\/)(.+)$/.exec(url);
  let host: string;
  let repoPath: string;
  if (scp) {
    host = scp[1]!;
    repoPath = scp[2]!;
  } else {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    if (!['https:', 'http:', 'ssh:', 'git:'].includes(parsed.protocol) || !parsed.hostname) return undefined;
    host = parsed.hostname;
    repoPath = decodeURIComponent(parsed.pathname);
  }
  const repo = repoPath.replace(/^\/+|\/+$/g, '').replace(/\.git$/i, '');
  if (!repo.includes('/') || repo.split('/').some((s) => s === '' || s === '.' || s === '..')) return undefined;
  return { host: host.toLowerCase(), repo };
}

/**
 * The edit URL template of a build: a URL with {@link EDIT_PATH_PLACEHOLDER} where the page file's
 * path under the docs folder goes (see the module comment for the hosts and the `editUrl` pattern).
 * Undefined when there is no link: an unknown host without a pattern, a local repository, `editUrl`
 * false, or a pattern that is not an `https://` URL containing `{path}`.
 */
export function editUrlTemplate(src: EditLinkSource): string | undefined {
  const root = src.docsRoot.replace(/^\/+|\/+$/g, '');
  const inRepo = (root ? `${encodePath(root)}/` : '') + EDIT_PATH_PLACEHOLDER;
  const branch = encodePath(src.branch);
  if (src.pattern === false) return undefined;
  if (typeof src.pattern === 'string') {
    const p = src.pattern.trim();
    if (!/^https:\/\/[^/\s]+/i.test(p) || !p.includes(EDIT_PATH_PLACEHOLDER) || /\s/.test(p)) return undefined;
    return p.replaceAll('{branch}', branch).replace(EDIT_PATH_PLACEHOLDER, inRepo);
  }
  const remote = remoteOf(src.repoUrl);
  if (!remote) return undefined;
  const repo = encodePath(remote.repo);
  if (remote.host === 'github.com') {
    const [owner, name] = remote.repo.split('/');
    return remote.repo.split('/').length === 2 ? `https://github.com/${encodeURIComponent(owner!)}/${encodeURIComponent(name!)}/edit/${branch}/${inRepo}` : undefined;
  }
  if (remote.host === 'gitlab.com' || remote.host.startsWith('gitlab.')) return `https://${remote.host}/${repo}/-/edit/${branch}/${inRepo}`;
  if (remote.host === 'bitbucket.org') return `https://bitbucket.org/${repo}/src/${branch}/${inRepo}?mode=edit`;
  return undefined;
}

/**
 * The edit URL of one page file: `template` with {@link EDIT_PATH_PLACEHOLDER} replaced by the
 * file's path under the docs folder (each segment URL-encoded); a template without the placeholder
 * is a base the path is appended to. Undefined without a template.
 */
export function editUrlFor(template: string | undefined, filePath: string): string | undefined {
  if (!template) return undefined;
  const file = encodePath(filePath.replace(/^\/+/, ''));
  if (template.includes(EDIT_PATH_PLACEHOLDER)) return template.replace(EDIT_PATH_PLACEHOLDER, file);
  return (template.endsWith('/') ? template : `${template}/`) + file;
}
