/**
 * `server/src` is layered (server/README.md, "Layers"): every top-level folder or file belongs to one
 * layer, and a module imports only from its own layer or the layers below it. Within a layer any
 * import is allowed as long as it forms no cycle (import-cycles.test.ts). Type-only imports count:
 * a type a lower layer needs lives in that layer (architecture.md, rules of direction). The one
 * exception is `context.ts`: the app context is assembled at the top but every layer receives it,
 * so any module may import its type.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAYERS } from './layer-map';

const src = path.resolve(import.meta.dirname, '../../src');

/** Every `.ts` module under server/src, generated Prisma clients left out. */
function modules(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return /^generated/.test(e.name) ? [] : modules(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

/**
 * A module's unit in the layer map: the module itself when the map lists it (`deployments/deploy`),
 * else its top-level folder, or its file without `.ts` at the top level.
 */
function unitOf(file: string): string {
  const rel = path.relative(src, file).split(path.sep).join('/').replace(/\.ts$/, '');
  if (rank.has(rel)) return rel;
  return rel.split('/')[0]!;
}

/** Relative import and re-export specifiers of a module, with whether they are type-only. */
function importsOf(file: string): { spec: string; typeOnly: boolean }[] {
  const text = fs.readFileSync(file, 'utf8');
  const out: { spec: string; typeOnly: boolean }[] = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm)) {
    out.push({ spec: m[3]!, typeOnly: Boolean(m[2]) });
  }
  for (const m of text.matchAll(/import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) out.push({ spec: m[1]!, typeOnly: false });
  return out;
}

const rank = new Map<string, number>();
LAYERS.forEach((layer, i) => layer.units.forEach((u) => rank.set(u, i)));

describe('server/src layers', () => {
  const files = modules(src);

  it('assign every top-level folder and file to exactly one layer', () => {
    const units = [...new Set(files.map(unitOf))].sort();
    expect(units.length).toBeGreaterThan(20);
    expect(units.filter((u) => !rank.has(u))).toEqual([]);
    const listed = LAYERS.flatMap((l) => l.units);
    expect(listed.length).toBe(new Set(listed).size);
  });

  it('import only from their own layer or the layers below', () => {
    const upward: string[] = [];
    for (const file of files) {
      const from = unitOf(file);
      for (const { spec, typeOnly } of importsOf(file)) {
        const target = path.resolve(path.dirname(file), spec);
        if (!target.startsWith(src + path.sep)) continue;
        const to = unitOf(target.endsWith('.ts') ? target : `${target}.ts`);
        if (to === from || (to === 'context' && typeOnly)) continue;
        expect(rank.has(to), `${spec} from ${path.relative(src, file)}`).toBe(true);
        if ((rank.get(to) ?? -1) > (rank.get(from) ?? -1)) {
          upward.push(`${path.relative(src, file)} (${LAYERS[rank.get(from)!]!.name}) imports ${spec} (${LAYERS[rank.get(to)!]!.name})`);
        }
      }
    }
    expect(upward).toEqual([]);
  });
});
