// Finds a usable Electron binary WITHOUT `require('electron')`: the electron package's index.js
// downloads the binary from GitHub when it is missing, which cannot work on the project's machines
// (offline-toolchain.md) and would stall CI. Used by scripts/package.ts and e2e/playwright.config.ts.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const requireFromDesktop = createRequire(new URL('../package.json', import.meta.url));

/**
 * Where Electron is on this machine.
 * Looked up in order: `QUIRE_ELECTRON_DIST` (a folder holding an unpacked Electron, e.g. an
 * extracted electron-v45.x-linux-x64.zip), `ELECTRON_OVERRIDE_DIST_PATH` (the electron package's own
 * override), then the electron package's `dist/` as its installer leaves it (`path.txt` names the
 * executable inside).
 * @returns `{ binary, dist }` (absolute paths: the executable and the folder holding it), or
 *   `{ missing }`, a sentence saying what was looked for, when no executable exists
 */
export function findElectron() {
  let pkgDir;
  try {
    pkgDir = path.dirname(requireFromDesktop.resolve('electron/package.json'));
  } catch {
    pkgDir = undefined;
  }
  const exe = pkgDir && fs.existsSync(path.join(pkgDir, 'path.txt')) ? fs.readFileSync(path.join(pkgDir, 'path.txt'), 'utf8').trim() : defaultExecutable();
  const candidates = [
    ['QUIRE_ELECTRON_DIST', process.env.QUIRE_ELECTRON_DIST],
    ['ELECTRON_OVERRIDE_DIST_PATH', process.env.ELECTRON_OVERRIDE_DIST_PATH],
    ['the electron package', pkgDir && path.join(pkgDir, 'dist')],
  ].filter(([, dir]) => dir);
  for (const [, dir] of candidates) {
    const binary = path.resolve(dir, exe);
    if (fs.existsSync(binary)) return { binary, dist: path.resolve(dir) };
  }
  const looked = candidates.map(([what, dir]) => `${path.resolve(dir, exe)} (${what})`).join(', ');
  return { missing: `no Electron executable at ${looked || 'any known place (the electron package is not installed)'}` };
}

/** The executable's path inside an unpacked Electron for this platform. */
function defaultExecutable() {
  if (process.platform === 'darwin') return 'Electron.app/Contents/MacOS/Electron';
  if (process.platform === 'win32') return 'electron.exe';
  return 'electron';
}
