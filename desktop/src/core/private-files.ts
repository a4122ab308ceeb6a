import fs from 'node:fs';

/**
 * Files of the core that hold a person's data (the store, the session token) are readable by their
 * owner only, whatever the umask (CWE-276, CWE-732): files 0600, directories 0700.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Creates `dir` and its missing parents with mode 0700. A directory that already exists keeps its
 * mode: it may be one the person chose (`QUIRE_DESKTOP_DATA_DIR`).
 */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Makes `file` readable and writable by its owner only: creates it empty with mode 0600 when it is
 * missing (never truncating it), then sets 0600, since an older file or the umask could have left
 * it wider.
 * @param options.create false for a file that may be absent (a SQLite `-wal` left by a crash):
 *   then nothing is created and a missing file is no error.
 * @throws the fs error when the file cannot be created or changed (permissions, a missing directory)
 */
export function makePrivateFile(file: string, options: { create?: boolean } = {}): void {
  const create = options.create ?? true;
  if (create) fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  try {
    fs.chmodSync(file, PRIVATE_FILE_MODE);
  } catch (err) {
    if (create || (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
