/**
 * `repoUrl` validation for the projects API: the shared rule (`@quire/shared/repo/repo-url`,
 * decisions.md section 10) mapped to the spec's 400 `invalid_request` envelope.
 */
import { invalidField } from '@quire/shared/errors';
import { checkRepoUrl, type RepoUrlPolicy } from '@quire/shared/repo/repo-url';

/**
 * Checks a repository URL and returns it unchanged (the builder normalizes it again when fetching;
 * host names are resolved and checked when git connects).
 * @param policy `allowFileRepos` (QUIRE_ALLOW_FILE_REPOS=1: also file:// URLs, absolute paths and
 *   http://) and `allowPrivateNetwork` (QUIRE_ALLOW_PRIVATE_NETWORK=1: also loopback, private and
 *   link-local hosts); the server config has both fields.
 * @throws ApiError invalid_request with `details: {field, issue}` naming what is wrong.
 */
export function validateRepoUrl(value: string, policy: RepoUrlPolicy, field = 'repoUrl'): string {
  const check = checkRepoUrl(value, { allowFileRepos: policy.allowFileRepos, allowPrivateNetwork: policy.allowPrivateNetwork });
  if (!check.ok) throw invalidField(field, check.message);
  return value;
}

/**
 * Checks the `url` of every source repository of `settings.sourceRepos` (decisions.md section 11)
 * by the same rule as `repoUrl` ({@link validateRepoUrl}).
 * @throws ApiError invalid_request naming `settings.sourceRepos.<i>.url`.
 */
export function validateSourceRepoUrls(repos: readonly { url: string }[], policy: RepoUrlPolicy): void {
  repos.forEach((repo, i) => validateRepoUrl(repo.url, policy, `settings.sourceRepos.${i}.url`));
}
