import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataPaths } from '../../src/data-paths';
import { loadConfig } from '../../src/env';
import { LocalDeploymentStore } from '../../src/storage/local-store';

describe('dataPaths', () => {
  const p = dataPaths('/srv/quire');

  it('names every path under the data directory', () => {
    expect(p.database).toBe('/srv/quire/quire.db');
    expect(p.adminKey).toBe('/srv/quire/admin-key');
    expect(p.repos('prj_1')).toBe('/srv/quire/repos/prj_1');
    expect(p.pageCache('prj_1')).toBe('/srv/quire/cache/prj_1/pages');
    expect(p.site('prj_1', 'bld_2')).toBe('/srv/quire/sites/prj_1/bld_2');
    expect(p.buildLog('bld_2')).toBe('/srv/quire/logs/bld_2.log');
    expect(loadConfig({ QUIRE_DATA_DIR: '/srv/quire' }).databaseUrl).toBe('file:/srv/quire/quire.db');
  });

  it('refuses ids that would leave their folder', () => {
    expect(() => p.site('..', 'bld_2')).toThrow(/Invalid project id/);
    expect(() => p.site('prj_1', 'a/../../b')).toThrow(/Invalid build id/);
    expect(() => p.buildLog('')).toThrow(/Invalid build id/);
    expect(() => p.repos('prj 1')).toThrow(/Invalid project id/);
  });
});

describe('LocalDeploymentStore', () => {
  it('publishes in place, has no pointers, and prunes only finished deployments not kept', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-local-store-'));
    try {
      const store = new LocalDeploymentStore(dataDir);
      const paths = dataPaths(dataDir);
      for (const b of ['bld_1', 'bld_2', 'bld_3']) {
        fs.mkdirSync(paths.site('prj_1', b), { recursive: true });
        fs.writeFileSync(path.join(paths.site('prj_1', b), 'index.html'), b);
        if (b !== 'bld_3') fs.writeFileSync(path.join(paths.site('prj_1', b), 'manifest.json'), '{}');
      }
      expect(await store.publish('prj_1', 'bld_2', paths.site('prj_1', 'bld_2'))).toBe('sites/prj_1/bld_2');
      expect(fs.existsSync(paths.site('prj_1', 'bld_2'))).toBe(true);
      expect(store.hasPointers).toBe(false);
      expect((await store.open('sites/prj_1/bld_2').read('index.html')).body.toString()).toBe('bld_2');
      expect(await store.prune('prj_1', ['bld_2'])).toEqual(['bld_1']);
      expect(fs.readdirSync(paths.sites('prj_1')).sort()).toEqual(['bld_2', 'bld_3']);
      await expect(store.remove('../outside')).rejects.toThrow(/Not a deployment directory/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
