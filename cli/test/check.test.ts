/**
 * `quire-docs check`: exit statuses a CI job can trust, each problem reported once with file:line,
 * and the text, json and github formats.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cli, FIXTURES } from './helpers';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

describe('quire-docs check', () => {
  it('exits 1 and reports the broken link, missing image, bad anchor, broken redirect and lint error once each, with file and line', async () => {
    const { status, out } = await cli(['check', 'broken', '--format', 'json']);
    expect(status).toBe(1);
    type Report = { findings: Array<{ file: string; line: number; rule: string; severity: string; message: string }>; summary: { errors: number } };
    const report = JSON.parse(out) as Report;
    const brief = report.findings.map((f) => `${f.file}:${f.line} ${f.rule}`);
    expect(brief).toEqual([
      'broken/docs.json:11 broken-redirect',
      'broken/guides/setup.mdx:8 style/no-simply',
      'broken/index.mdx:8 broken-link',
      'broken/index.mdx:10 missing-image',
      'broken/index.mdx:12 broken-anchor',
    ]);
    expect(report.findings.every((f) => f.severity === 'error')).toBe(true);
    expect(report.summary.errors).toBe(5);
    expect(report.findings.find((f) => f.rule === 'broken-anchor')!.message).toContain('/guides/setup#no-such-section');
  });

  it('exits 0 on a clean project (links, anchors, images and redirects that resolve)', async () => {
    const { status, out } = await cli(['check', 'clean']);
    expect(status).toBe(0);
    expect(out).toBe('0 errors, 0 warnings in 2 pages\n');
  });

  it('exits 2 with one line naming the file and line of a docs.json that is not JSON', async () => {
    const { status, err, out } = await cli(['check', 'bad-config']);
    expect(status).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(/^quire-docs: bad-config\/docs\.json:4: not valid JSON.*\n$/);
  });

  it('exits 2 for a missing folder, an unknown option and an unknown format', async () => {
    expect(await cli(['check', 'no-such-folder'])).toMatchObject({ status: 2, err: 'quire-docs: no-such-folder is not a folder\n' });
    expect((await cli(['check', 'clean', '--nope'])).status).toBe(2);
    expect(await cli(['check', 'clean', '--format', 'xml'])).toMatchObject({ status: 2, err: 'quire-docs: --format must be one of text, json, github, not "xml"\n' });
    expect((await cli(['frobnicate'])).status).toBe(2);
  });

  it('writes GitHub Actions annotations with --format github', async () => {
    const { status, out } = await cli(['check', 'broken', '--format', 'github']);
    expect(status).toBe(1);
    expect(out.split('\n')).toContain(
      '::error file=broken/index.mdx,line=8,title=broken-link::Broken link: /guides/nowhere points to no page, file or redirect of the site',
    );
    expect(out).toContain('::error file=broken/guides/setup.mdx,line=8,col=28,title=style/no-simply::Avoid "simply".');
  });

  it('fails on warnings only past --max-warnings', async () => {
    // the lint rule at warning severity: the project has warnings and no errors
    const warnOnly = await cli(['check', 'warnings']);
    expect(warnOnly.status).toBe(0);
    expect(warnOnly.out).toContain('0 errors, 1 warning in 1 pages');
    expect((await cli(['check', 'warnings', '--max-warnings', '1'])).status).toBe(0);
    expect((await cli(['check', 'warnings', '--max-warnings', '0'])).status).toBe(1);
    expect((await cli(['check', 'warnings', '--max-warnings', 'many'])).status).toBe(2);
  });

  it('gives real exit statuses as a process (pnpm quire-docs from the checkout)', async () => {
    const clean = await run('npx', ['tsx', 'cli/src/main.ts', 'check', path.join(FIXTURES, 'clean')], { cwd: ROOT });
    expect(clean.stdout).toContain('0 errors');
    const broken = await run('npx', ['tsx', 'cli/src/main.ts', 'check', path.join(FIXTURES, 'broken')], { cwd: ROOT }).catch((e: { code: number; stdout: string }) => e);
    expect((broken as { code: number }).code).toBe(1);
    expect((broken as { stdout: string }).stdout).toContain('cli/test/fixtures/broken/index.mdx:8  error  Broken link: /guides/nowhere');
    const bad = await run('npx', ['tsx', 'cli/src/main.ts', 'check', path.join(FIXTURES, 'bad-config')], { cwd: ROOT }).catch((e: { code: number; stderr: string }) => e);
    expect((bad as { code: number }).code).toBe(2);
    expect((bad as { stderr: string }).stderr).toContain('cli/test/fixtures/bad-config/docs.json:4: not valid JSON');
  });
});
