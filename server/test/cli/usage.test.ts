import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { quire } from './cli-fixtures';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cli-usage-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('quire usage and exit statuses', () => {
  it('prints usage for --help at every level', async () => {
    const top = await quire(dir, ['--help']);
    expect(top.status).toBe(0);
    expect(top.stdout).toMatch(/^Usage: pnpm quire <command>/);
    expect(top.stdout).toMatch(/org create <name>/);
    const add = await quire(dir, ['user', 'add', '--help']);
    expect(add.status).toBe(0);
    expect(add.stdout).toMatch(/--role <role>/);
    const password = await quire(dir, ['user', 'password', '-h']);
    expect(password.stdout).toMatch(/bootstrap owner/);
    const org = await quire(dir, ['org', 'create', '--help']);
    expect(org.stdout).toMatch(/--plan <plan>/);
    expect((await quire(dir, ['user'])).stdout).toMatch(/Subcommands:/);
  });

  it.each([
    [['frobnicate'], /Unknown command: "frobnicate"/],
    [['user', 'delete', 'a@b.io'], /Unknown subcommand: user "delete"/],
    [['user', 'add', 'a@b.io', '--role', 'editor', '--colour', 'red'], /Unknown option '--colour'/],
    [['user', 'add', 'a@b.io'], /Missing option: --role/],
    [['user', 'add', '--role', 'editor'], /Missing argument: <email>/],
    [['user', 'add', 'a@b.io', '--role', 'wizard'], /--role: Invalid option/],
    [['user', 'add', 'not-an-email', '--role', 'editor'], /<email>: must be an e-mail address/],
    [['org', 'create', 'Acme', '--plan', 'platinum'], /--plan: /],
    [['org', 'create', 'Acme', 'Extra'], /Unexpected argument: "Extra"/],
  ])('exits 2 with usage on stderr for %j', async (argv, message) => {
    const run = await quire(dir, argv);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toMatch(/Usage: pnpm quire/);
    expect(run.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack traces for usage mistakes
    expect(fs.existsSync(path.join(dir, 'quire.db'))).toBe(false); // nothing was opened or created
  });

  it('works as a real process: usage errors exit 2, the password is read from piped stdin', async () => {
    expect((await quire(dir, ['org', 'create', 'Proc Org'])).status).toBe(0);
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
    const tsx = path.join(root, 'node_modules/.bin/tsx');
    const env = { ...process.env, QUIRE_DATA_DIR: dir };
    const bad = spawnSync(tsx, ['server/src/cli/index.ts', 'nope'], { cwd: root, env, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/Unknown command: "nope"/);

    const add = spawnSync(tsx, ['server/src/cli/index.ts', 'user', 'add', 'proc@example.com', '--role', 'viewer'], {
      cwd: root,
      env,
      encoding: 'utf8',
      input: 'from-stdin-password\n',
    });
    expect(add.status).toBe(0);
    expect(add.stdout).toMatch(/^email=proc@example.com$/m);
    expect(add.stdout).not.toMatch(/^password=/m);
  }, 120_000);
});
