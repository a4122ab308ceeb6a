import fs from 'node:fs';
import path from 'node:path';
import { AbortError, BuildError } from '../../src/builder/errors';
import type { RunBuildInput, RunBuildResult } from '../../src/builder/pipeline';

/**
 * A stand-in for the builder whose timing the test controls: with `hold` on, each build waits
 * (building) until `release(buildId)` or its abort signal; `failNext` makes the next one throw a
 * BuildError. It writes a one-page deployment in the builder's layout naming the build id.
 */
export function fakeBuilder() {
  const waiting = new Map<string, () => void>();
  const started: string[] = [];
  const state = { hold: false, failNext: false };
  const runBuild = async (input: RunBuildInput): Promise<RunBuildResult> => {
    started.push(input.buildId);
    input.log('✓ fetching repository (fake) 1 ms');
    if (state.hold) {
      await new Promise<void>((resolve, reject) => {
        waiting.set(input.buildId, resolve);
        input.signal.addEventListener('abort', () => reject(new AbortError()), { once: true });
      });
    }
    if (state.failNext) {
      state.failNext = false;
      throw new BuildError('guides/setup.mdx:3: Unexpected closing tag', 'guides/setup.mdx', 3);
    }
    const outDir = path.join(input.dataDir, 'sites', input.projectId, input.buildId);
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, 'index.html'), `<h1>built by ${input.buildId}</h1>`);
    fs.writeFileSync(
      path.join(outDir, 'manifest.json'),
      JSON.stringify({ version: 1, buildId: input.buildId, projectId: input.projectId, createdAt: new Date().toISOString(), home: 'index', pages: [{ path: 'index', title: 'Home', file: 'index.html' }], redirects: [], notFound: '404.html', assets: [] }),
    );
    input.log('✓ writing site (fake) 1 ms');
    return { outDir, commitSha: 'a'.repeat(40), commitMessage: 'fake commit', pages: 1, warnings: [] };
  };
  return {
    runBuild,
    state,
    started,
    /** Lets a held build finish. */
    release(buildId: string) {
      waiting.get(buildId)?.();
      waiting.delete(buildId);
    },
    /** Resolves once `buildId` has reached the builder. */
    async reached(buildId: string, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (!waiting.has(buildId) && !started.includes(buildId)) {
        if (Date.now() > until) throw new Error(`build ${buildId} never started`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
