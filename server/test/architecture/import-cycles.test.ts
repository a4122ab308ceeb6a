/**
 * No runtime import cycles (architecture.md: a module depends on what sits below it): dpdm reads
 * every module of server/, shared/ and desktop/ with type-only imports removed (`transform`) and
 * lists the cycles left. `pnpm lint` runs the same check from the command line (`lint:cycles`).
 */
import path from 'node:path';
import { parseCircular, parseDependencyTree } from 'dpdm';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

describe('imports', () => {
  it('form no runtime cycle in server/src, shared/src, desktop/src or cli/src', async () => {
    const tree = await parseDependencyTree(['server/src/**/*.ts', 'shared/src/**/*.ts', 'desktop/src/**/*.ts', 'desktop/src/**/*.tsx', 'cli/src/**/*.ts'], {
      context: root,
      transform: true,
      skipDynamicImports: false,
      include: /\.[cm]?tsx?$/,
      exclude: /node_modules|\/generated(-pg)?\//,
    });
    expect(Object.keys(tree).length).toBeGreaterThan(500);
    const cycles = parseCircular(tree).map((cycle) => cycle.join(' -> '));
    expect(cycles).toEqual([]);
  }, 120_000);
});
