import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CacheBudget, DeploymentSite } from '../../src/sites/deployment-site';
import { siteFiles } from './site-fixture';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-deployment-'));
for (const [file, content] of Object.entries(siteFiles('BUDGET'))) {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), content as string | Buffer);
}
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('DeploymentSite memory budget', () => {
  it('keeps files within the shared budget and gives it back on dispose', async () => {
    const budget = new CacheBudget(1_000_000);
    const site = await DeploymentSite.load(dir, budget);
    const answer = await site.answer('guides/setup', false);
    expect(answer.kind).toBe('file');
    const used = 1_000_000 - budget.remaining;
    expect(used).toBeGreaterThan(0);
    // A cached file answers synchronously (no disk read).
    expect(site.answer('guides/setup', false)).not.toBeInstanceOf(Promise);
    site.dispose();
    expect(budget.remaining).toBe(1_000_000);
  });

  it('still answers correctly when the budget is exhausted, reading the file each time', async () => {
    const budget = new CacheBudget(0);
    const site = await DeploymentSite.load(dir, budget);
    for (let i = 0; i < 2; i++) {
      const answer = await site.answer('llms.txt', false);
      expect(answer.kind === 'file' && answer.file.identity.body.toString()).toContain('BUDGET');
      expect(site.answer('llms.txt', false)).toBeInstanceOf(Promise);
    }
    expect(budget.remaining).toBe(0);
  });
});
