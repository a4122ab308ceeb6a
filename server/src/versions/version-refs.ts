/**
 * Resolving a documentation version to the git ref it is built from (interface-spec.md
 * "Versioning > Documentation versions" rule 2: its `tag`, then its `branch`, then its `label` as a
 * branch name; the first that exists in the repository wins). The repository is asked once with
 * `git ls-remote` through the one git runner (git/run-git.ts: the address policy, locked-down
 * transports, no prompts), so a version whose refs are all missing fails with a clear message.
 */
import { checkBranchName } from '@quire/shared/repo/git-ref';
import { versionRefCandidates, type DocVersion, type VersionRef } from '@quire/shared/docs/versions';
import type { RepoUrlPolicy } from '@quire/shared/repo/repo-url';
import { BuildError } from '../builder/errors';
import { GitError, GitRemoteRefusedError, gitUrlOf, runGit } from '../git/run-git';

/** Time limit of the ls-remote, in ms. */
const LS_REMOTE_TIMEOUT_MS = 60_000;

/** A version's ref as found in the repository. */
export interface ResolvedVersionRef extends VersionRef {
  /** the commit the ref names now (a tag's peeled commit) */
  commitSha: string;
}

/**
 * The ref a version builds from: the first of {@link versionRefCandidates} the repository has.
 * @param cwd any existing directory git may run in (nothing is written there)
 * @throws BuildError when the repository URL is refused, git fails (its reason, credentials
 *   redacted), a candidate is not a valid ref name, or none of the version's refs exist (the
 *   message lists what was tried).
 * @throws AbortError when `signal` fires.
 */
export async function resolveVersionRef(
  version: DocVersion,
  repo: { repoUrl: string; cwd: string; policy: RepoUrlPolicy },
  signal?: AbortSignal,
): Promise<ResolvedVersionRef> {
  const url = gitUrlOf(repo.repoUrl, repo.policy);
  if (!url.ok) throw new BuildError(`Repository URL refused: it ${url.message}.`);
  const candidates = versionRefCandidates(version);
  for (const c of candidates) {
    const check = checkBranchName(c.name);
    if (!check.ok) throw new BuildError(`Version "${version.label}": its ${c.from} "${c.name.slice(0, 80)}" is not a valid ${c.kind} name: it ${check.issue}.`);
  }
  let listing: string;
  try {
    listing = await runGit(repo.cwd, ['ls-remote', '--', url.url, ...candidates.flatMap((c) => (c.kind === 'tag' ? [c.ref, `${c.ref}^{}`] : [c.ref]))], {
      remote: { url: url.url, allowPrivateNetwork: repo.policy.allowPrivateNetwork },
      timeoutMs: LS_REMOTE_TIMEOUT_MS,
      maxStdoutBytes: 64 * 1024,
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    if (err instanceof GitRemoteRefusedError) throw new BuildError(`Repository URL refused: ${err.reason}.`);
    if (err instanceof GitError) throw new BuildError(`The refs of version "${version.label}" could not be listed: ${err.message}`);
    throw err;
  }
  const found = parseLsRemote(listing);
  for (const c of candidates) {
    const sha = found.get(`${c.ref}^{}`) ?? found.get(c.ref);
    if (sha) return { ...c, commitSha: sha };
  }
  const tried = candidates.map((c) => `${c.kind} "${c.name}"${c.from === 'label' ? ' (its label)' : ''}`).join(', ');
  throw new BuildError(`Version "${version.label}" cannot be built: none of its refs exists in the repository (tried ${tried}).`);
}

/** `<sha>\t<ref>` lines of `git ls-remote` → ref → sha. */
function parseLsRemote(text: string): Map<string, string> {
  const refs = new Map<string, string>();
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) refs.set(line.slice(tab + 1).trim(), line.slice(0, tab).trim());
  }
  return refs;
}
