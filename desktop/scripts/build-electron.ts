/**
 * Bundles the Electron shell with esbuild (`pnpm --filter @quire/desktop build:electron`):
 *
 * - `src/main/main.ts` with the core it runs → `<outDir>/main/main.js` (ESM, Node platform).
 *   `electron` and the native module `better-sqlite3` stay external (the one is provided by the
 *   Electron runtime, the other is rebuilt for Electron's ABI by electron-builder); `vite` too, which
 *   only web mode's renderer build imports, lazily.
 * - `src/core/preview-worker.ts` → `<outDir>/main/preview-worker.js`, the preview's worker thread.
 *   The main bundle learns its file name through the `__QUIRE_BUNDLED_PREVIEW_WORKER__` constant
 *   (preview-service.ts); run from source, the worker boots under tsx instead.
 * - `src/preload/preload.ts` → `<outDir>/preload/preload.cjs`: ONE CommonJS file with
 *   `trpc-electron`'s preload part inlined, because a sandboxed preload can require nothing but
 *   `electron` (and a few Node built-ins); only `electron` stays external.
 *
 * Run it as a script: `tsx desktop/scripts/build-electron.ts [outDir]` (default desktop/dist).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { build, type BuildOptions, type Plugin } from 'esbuild';

const DESKTOP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The bundle's name for the preview worker, relative to main.js (see preview-service.ts). */
export const PREVIEW_WORKER_FILE = './preview-worker.js';

/** What stays out of the main-process bundles: Electron itself and native modules. */
export const MAIN_EXTERNALS = ['electron', 'better-sqlite3', 'vite'];

/** The files one build writes (absolute paths). */
export interface ElectronBuildOutput {
  main: string;
  previewWorker: string;
  preload: string;
}

/**
 * `trpc-electron/main` holds both the main-process handler and the preload's bridge; its ES build
 * imports `ipcRenderer` by name, which Electron's main process does not export (a link error at
 * start). The main bundle takes its CommonJS build instead, which reads `require('electron')` lazily.
 */
const trpcElectronCjs: Plugin = {
  name: 'trpc-electron-cjs',
  setup(b) {
    const requireFromDesktop = createRequire(path.join(DESKTOP_DIR, 'package.json'));
    b.onResolve({ filter: /^trpc-electron\/main$/ }, () => ({ path: requireFromDesktop.resolve('trpc-electron/main') }));
  },
};

// CommonJS dependencies bundled into an ES module still call `require` for Node built-ins.
const ESM_REQUIRE_BANNER = "import { createRequire as __quireCreateRequire } from 'node:module'; const require = __quireCreateRequire(import.meta.url);";

/**
 * Builds the main, preview-worker and preload bundles into `outDir` (created when missing).
 * @param outDir the dist folder (`main/` and `preload/` are written below it)
 * @returns the paths written
 * @throws esbuild's error (with its messages printed) when a bundle does not build
 */
export async function buildElectron(outDir: string = path.join(DESKTOP_DIR, 'dist')): Promise<ElectronBuildOutput> {
  const out: ElectronBuildOutput = {
    main: path.join(outDir, 'main', 'main.js'),
    previewWorker: path.join(outDir, 'main', 'preview-worker.js'),
    preload: path.join(outDir, 'preload', 'preload.cjs'),
  };
  const node: BuildOptions = {
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    // ES module builds first: some packages' `main` is a UMD wrapper whose inner requires esbuild cannot follow (jsonc-parser).
    mainFields: ['module', 'main'],
    sourcemap: 'linked',
    logLevel: 'warning',
    absWorkingDir: DESKTOP_DIR,
    external: MAIN_EXTERNALS,
    banner: { js: ESM_REQUIRE_BANNER },
  };
  await Promise.all([
    build({
      ...node,
      entryPoints: [path.join(DESKTOP_DIR, 'src/main/main.ts')],
      outfile: out.main,
      plugins: [trpcElectronCjs],
      define: { __QUIRE_BUNDLED_PREVIEW_WORKER__: JSON.stringify(PREVIEW_WORKER_FILE) },
    }),
    build({ ...node, entryPoints: [path.join(DESKTOP_DIR, 'src/core/preview-worker.ts')], outfile: out.previewWorker }),
    build({
      entryPoints: [path.join(DESKTOP_DIR, 'src/preload/preload.ts')],
      outfile: out.preload,
      bundle: true,
      platform: 'node',
      target: 'node22',
      format: 'cjs',
      sourcemap: false,
      logLevel: 'warning',
      absWorkingDir: DESKTOP_DIR,
      external: ['electron'],
    }),
  ]);
  // main.js is an ES module whatever the package.json above the output says.
  fs.writeFileSync(path.join(outDir, 'main', 'package.json'), '{ "type": "module" }\n');
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = path.resolve(process.argv[2] ?? path.join(DESKTOP_DIR, 'dist'));
  buildElectron(outDir).then(
    (out) => console.log(`Electron shell built: ${path.relative(process.cwd(), out.main)}, ${path.relative(process.cwd(), out.preload)}`),
    () => {
      // esbuild has already printed what failed.
      process.exitCode = 1;
    },
  );
}
