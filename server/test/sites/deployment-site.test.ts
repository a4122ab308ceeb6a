import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DeploymentSite } from '../../src/sites/deployment-site';
import { SiteFileCache } from '../../src/sites/file-cache';
import { siteFiles } from './site-fixture';

const KB100 = 100_000;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-deployment-'));
/** Twelve incompressible 100 kB downloads (`big0.bin` ... `big11.bin`): each is cached as exactly 100 kB. */
const big = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`big${i}.bin`, crypto.randomBytes(KB100)]));

/** Writes a deployment directory in the builder's layout, plus `big*.bin`. */
function deploymentDir(name: string): string {
  const dir = path.join(root, name);
  for (const [file, content] of Object.entries(siteFiles(name.toUpperCase(), big))) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), content as string | Buffer);
  }
  return dir;
}
const dirA = deploymentDir('a');
const dirB = deploymentDir('b');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** True when the site answers `file` from memory (no disk read). */
const fromMemory = (site: DeploymentSite, file: string) => !(site.answer(file, false) instanceof Promise);

describe('DeploymentSite memory', () => {
  it('keeps files in the shared cache and gives the memory back on dispose', async () => {
    const cache = new SiteFileCache({ totalBytes: 1_000_000, projectBytes: 1_000_000 });
    const site = await DeploymentSite.load(dirA, cache, 'prj_a');
    const answer = await site.answer('guides/setup', false);
    expect(answer.kind).toBe('file');
    expect(cache.bytes()).toBeGreaterThan(0);
    expect(cache.bytes('prj_a')).toBe(cache.bytes());
    expect(fromMemory(site, 'guides/setup')).toBe(true);
    site.dispose();
    expect(cache.bytes()).toBe(0);
  });

  it('still answers correctly when a file is larger than the limits, reading it each time', async () => {
    const cache = new SiteFileCache({ totalBytes: 10, projectBytes: 10 });
    const site = await DeploymentSite.load(dirA, cache, 'prj_a');
    for (let i = 0; i < 2; i++) {
      const answer = await site.answer('llms.txt', false);
      expect(answer.kind === 'file' && answer.file.identity.body.toString()).toContain('A');
      expect(fromMemory(site, 'llms.txt')).toBe(false);
    }
    expect(cache.bytes()).toBe(0);
  });

  it("keeps one project's large files from pushing another project's files out", async () => {
    const cache = new SiteFileCache({ totalBytes: 1_000_000, projectBytes: 300_000 });
    const a = await DeploymentSite.load(dirA, cache, 'prj_a');
    const b = await DeploymentSite.load(dirB, cache, 'prj_b');
    await b.answer('big0.bin', false);
    // Project A reads 1.2 MB of files: more than its share, and more than the whole cache.
    for (let i = 0; i < 12; i++) await a.answer(`big${i}.bin`, false);
    await b.answer('big1.bin', false);
    expect(cache.bytes('prj_a')).toBeLessThanOrEqual(300_000);
    expect(fromMemory(b, 'big0.bin')).toBe(true);
    expect(fromMemory(b, 'big1.bin')).toBe(true);
    // A keeps its most recently used files; its oldest ones are read from disk again.
    expect(fromMemory(a, 'big11.bin')).toBe(true);
    expect(fromMemory(a, 'big0.bin')).toBe(false);
  });

  it('drops the least recently used files of all projects past the total limit', async () => {
    const cache = new SiteFileCache({ totalBytes: 300_000, projectBytes: 200_000 });
    const sites = await Promise.all(['p1', 'p2', 'p3', 'p4'].map((p) => DeploymentSite.load(deploymentDir(p), cache, p)));
    for (const site of sites) await site.answer('big0.bin', false);
    expect(cache.bytes()).toBeLessThanOrEqual(300_000);
    expect(fromMemory(sites[3]!, 'big0.bin')).toBe(true);
    expect(fromMemory(sites[0]!, 'big0.bin')).toBe(false);
  });

  it('reads an evicted file again for a URL it already answered', async () => {
    const cache = new SiteFileCache({ totalBytes: 1_000_000, projectBytes: 150_000 });
    const site = await DeploymentSite.load(dirA, cache, 'prj_a');
    await site.answerUrl('/big0.bin');
    expect(site.answerUrl('/big0.bin')).not.toBeInstanceOf(Promise);
    await site.answer('big1.bin', false);
    const again = site.answerUrl('/big0.bin');
    expect(again).toBeInstanceOf(Promise);
    const answer = await again;
    expect(answer.kind === 'file' && answer.file.identity.body.equals(big['big0.bin']!)).toBe(true);
  });
});
