import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../src/core/compose';
import { STORE_FILE } from '../src/core/store';
import { fileTokenVault, TOKEN_FILE } from '../src/core/token-vault';

/** The core's files hold a person's session, projects and edits: readable by their owner only. */
let root: string;
let umask: number;

/** The permission bits in octal, e.g. '600'. */
const mode = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-desktop-modes-'));
  umask = process.umask(0o022); // the usual umask, which leaves new files 0644
});

afterEach(() => {
  process.umask(umask);
  fs.rmSync(root, { recursive: true, force: true });
});

describe('the core\'s files', () => {
  it('are created readable by their owner only: data directory 0700, database, -wal, -shm and token 0600', async () => {
    const dataDir = path.join(root, 'data', 'quire');
    const vault = fileTokenVault(dataDir);
    const core = createCore({ dataDir, vault });
    vault.set('qk_session');
    const db = path.join(dataDir, STORE_FILE);
    expect(mode(path.join(root, 'data'))).toBe('700');
    expect(mode(dataDir)).toBe('700');
    expect(mode(db)).toBe('600');
    expect(mode(`${db}-wal`)).toBe('600');
    expect(mode(`${db}-shm`)).toBe('600');
    expect(mode(path.join(dataDir, TOKEN_FILE))).toBe('600');
    await core.close();
  });

  it('take group and other permissions off a store left 0644 by an older version, with its -wal and -shm', async () => {
    const dataDir = path.join(root, 'data');
    await createCore({ dataDir, vault: fileTokenVault(dataDir) }).close();
    const db = path.join(dataDir, STORE_FILE);
    for (const file of [db, `${db}-wal`, `${db}-shm`]) {
      fs.writeFileSync(file, '', { flag: 'a' });
      fs.chmodSync(file, 0o644);
    }
    const core = createCore({ dataDir, vault: fileTokenVault(dataDir) });
    expect([mode(db), mode(`${db}-wal`), mode(`${db}-shm`)]).toEqual(['600', '600', '600']);
    await core.close();
  });
});
