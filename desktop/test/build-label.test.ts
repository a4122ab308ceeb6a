import { describe, expect, it } from 'vitest';
import { buildSource, buildTitle, shortBuildId } from '../src/renderer/components/build-label';

/** How the Builds panel and the build view name a build: by its commit, never by its raw `bld_` id. */
const build = { id: 'bld_4fT0aZ9qLm2xYcW8', branch: 'main', commitSha: '1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d', commitMessage: 'Fix the quickstart steps\n\nLonger body.' };

describe('build names', () => {
  it("is the first line of the build's commit message", () => {
    expect(buildTitle(build)).toBe('Fix the quickstart steps');
    const long = buildTitle({ ...build, commitMessage: `Rewrite ${'the setup guide '.repeat(10)}` });
    expect(long).toHaveLength(72);
    expect(long.endsWith('…')).toBe(true);
  });

  it('is the branch and the short commit without a message, the branch alone before the commit is known', () => {
    expect(buildTitle({ ...build, commitMessage: null })).toBe('main @ 1a2b3c4');
    expect(buildTitle({ ...build, commitMessage: null, commitSha: null })).toBe('main');
    expect(buildSource(build)).toBe('main @ 1a2b3c4');
  });

  it('shortens the id of a build not listed yet to its last 6 characters', () => {
    expect(buildTitle(undefined, build.id)).toBe('Build 2xYcW8');
    expect(shortBuildId(build.id)).toBe('2xYcW8');
    for (const name of [buildTitle(build), buildTitle(undefined, build.id), buildSource(build)]) expect(name).not.toContain('bld_');
  });
});
