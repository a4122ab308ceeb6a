import { execFileSync } from 'node:child_process';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';

/** The `versioning` of the fixture's default branch. */
export const VERSIONING = {
  versions: [
    { label: 'v3', default: true },
    { label: 'v2', branch: 'v2' },
    { label: 'v1', tag: 'v1', deprecated: true, deprecationMessage: 'Version 1 is no longer maintained & will go away.' },
    { label: 'legacy', tag: 'v1', autoRedirectToLatest: true },
    { label: 'v0', tag: 'v0' },
  ],
};

const docsJson = (pages: string[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'Acme Docs', navigation: { groups: [{ group: 'Start', pages }] }, ...extra });

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

/**
 * A docs repository with three versions: tag `v1` (pages index, guides/setup, old), branch `v2`
 * (index, guides/setup changed, a gated page `secret`), and `main` (v3: index, guides/setup as in v2,
 * guides/new; docs.json with {@link VERSIONING}: v0's tag does not exist).
 */
export function versionedRepo(): FixtureRepo {
  const repo = createFixtureRepo(undefined, {
    extraFiles: {
      'docs.json': docsJson(['index', 'guides/setup', 'old']),
      'index.mdx': page('Welcome', 'Version one home. See [setup](/guides/setup).'),
      'guides/setup.mdx': page('Setup', 'V1-SETUP install it the old way.'),
      'old.mdx': page('Old page', 'Only in version one.'),
    },
  });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo.path, stdio: 'ignore' });
  git('tag', 'v1');
  git('checkout', '-q', '-b', 'v2');
  repo.commit(
    {
      'docs.json': docsJson(['index', 'guides/setup', 'secret']),
      'index.mdx': page('Welcome', 'Version two home.'),
      'guides/setup.mdx': page('Setup', 'V2-SETUP install it with pnpm.'),
      'secret.mdx': '---\ntitle: Secret\naudience: internal\n---\n\nV2-SECRET internal notes.\n',
      'old.mdx': null,
    },
    'v2 docs',
  );
  git('checkout', '-q', repo.branch);
  repo.commit(
    {
      'docs.json': docsJson(['index', 'guides/setup', 'guides/new'], { versioning: VERSIONING }),
      'index.mdx': page('Welcome', 'Version three home.'),
      'guides/setup.mdx': page('Setup', 'V2-SETUP install it with pnpm.'),
      'guides/new.mdx': page('New in v3', 'Only in version three.'),
      'old.mdx': null,
    },
    'v3 docs',
  );
  return repo;
}
