/**
 * `repoUrl` validation for the projects API: the shared rule (`@quire/shared/repo/repo-url`,
 * decisions.md section 10) mapped to the spec's 400 `invalid_request` envelope.
 */
import { invalidField } from '@quire/shared/errors';
import { checkRepoUrl } from '@quire/shared/repo/repo-url';

/**
 * Checks a repository URL and returns it unchanged (the builder normalizes it again when fetching).
 * @param allowLocal `QUIRE_ALLOW_FILE_REPOS=1`: also accept file:// URLs, absolute paths, http:// and private hosts.
 * @throws ApiError invalid_request with `details: {field, issue}` naming what is wrong.
 */
export function validateRepoUrl(value: string, allowLocal: boolean, field = 'repoUrl'): string {
  const check = checkRepoUrl(value, { allowFileRepos: allowLocal });
  if (!check.ok) throw invalidField(field, check.message);
  return value;
}
