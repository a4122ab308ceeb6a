import { checkCommitSha } from '@quire/shared/repo/git-ref';
import { withDirLock } from '../git/dir-lock';
import { GitError, runGit } from '../git/run-git';

/**
 * The paths that differ between two commits of a build's repository cache (`git diff --name-only
 * --no-renames -z <from> <to>`; a rename is its old path plus its new one), repository-relative
 * with `/` separators. Used by incremental builds (incremental.ts) to learn what a push changed.
 * @param repoDir the project's repository cache (`DataPaths.repos`), where `to` was just checked out
 * @returns the changed paths, or null when they cannot be told: a SHA that is not a full commit id
 *   (shared rule `@quire/shared/repo/git-ref`), or `from` is not in the cache (a fresh or shallow
 *   cache that never fetched it)
 * @throws AbortError when `signal` fires
 */
export async function changedPathsBetween(repoDir: string, from: string, to: string, signal?: AbortSignal): Promise<string[] | null> {
  if (!checkCommitSha(from).ok || !checkCommitSha(to).ok) return null;
  const options = signal ? { signal, timeoutMs: 60_000 } : { timeoutMs: 60_000 };
  return withDirLock(repoDir, async () => {
    try {
      // fails (bad object) when `from` is not in the cache
      const out = await runGit(repoDir, ['diff', '--name-only', '--no-renames', '-z', from, to, '--'], options);
      return out.split('\0').filter((p) => p !== '');
    } catch (err) {
      if (err instanceof GitError) return null;
      throw err;
    }
  }, signal ? { signal } : {});
}
