/**
 * `pnpm desktop:package [electron-builder args, e.g. --linux]`: packages Quire Desktop with
 * electron-builder and the repository's electron-builder.yml, on a machine that has Electron.
 *
 * 1. finds an Electron binary (scripts/electron-binary.mjs); with none it stops at once with one
 *    message saying what is missing and how to point packaging at a local Electron
 *    (`QUIRE_ELECTRON_DIST`, handed to electron-builder as `electronDist`), before any build;
 * 2. builds the renderer with Vite (desktop/dist/renderer);
 * 3. bundles the shell with esbuild (desktop/dist/main, desktop/dist/preload: build-electron.ts);
 * 4. runs electron-builder with `electronDist` set, so it never downloads Electron.
 * Packages land in desktop/release. Exit code: 0 when packaged, 1 otherwise.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildElectron } from './build-electron';
import { findElectron } from './electron-binary.mjs';

const DESKTOP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = path.resolve(DESKTOP_DIR, '..');

async function main(): Promise<number> {
  const electron = findElectron();
  if (!('binary' in electron)) {
    console.error(
      `desktop:package: packaging needs an Electron binary and this machine has none (${electron.missing}). ` +
        'Electron cannot be downloaded here. On a machine with Electron, either install its binary ' +
        '(`node desktop/node_modules/electron/install.js`) or point packaging at an unpacked Electron 45 ' +
        '(e.g. an extracted electron-v45.*-linux-x64.zip): QUIRE_ELECTRON_DIST=/path/to/electron pnpm desktop:package ' +
        '(passed to electron-builder as electronDist).',
    );
    return 1;
  }
  console.log(`desktop:package: Electron at ${electron.binary}`);
  const { build } = await import('vite');
  await build({ configFile: path.join(DESKTOP_DIR, 'vite.config.ts'), logLevel: 'warn' });
  await buildElectron();
  const requireFromDesktop = createRequire(path.join(DESKTOP_DIR, 'package.json'));
  const cli = requireFromDesktop.resolve('electron-builder/cli.js');
  // electron-builder looks for the electron package beside the root package.json; it is desktop's.
  const electronVersion = (requireFromDesktop('electron/package.json') as { version: string }).version;
  const run = spawnSync(
    process.execPath,
    [cli, '--projectDir', ROOT, '--config', path.join(ROOT, 'electron-builder.yml'), `-c.electronDist=${electron.dist}`, `-c.electronVersion=${electronVersion}`, ...process.argv.slice(2)],
    { cwd: ROOT, stdio: 'inherit' },
  );
  return run.status ?? 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // Build tools have printed their own diagnostics; one line here.
    console.error(`desktop:package: ${(err as Error)?.message ?? String(err)}`);
    process.exitCode = 1;
  },
);
