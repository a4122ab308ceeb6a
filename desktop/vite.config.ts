import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The renderer build: React + Monaco bundled locally with its workers (no CDN, no network).
 * `base: './'` keeps asset paths relative, so the same build loads over `file://` in Electron and
 * over HTTP from the core in web mode. Output: desktop/dist/renderer.
 *
 * Built on the first start of `pnpm desktop:web`, so its time is a first impression: Monaco is
 * trimmed to what the app edits (src/renderer/editor/monaco-editor.ts), and Rollup's tree-shaking,
 * a sixth of the build's time that removed under 2 % of the output (Monaco's modules are nearly all
 * used or have side effects), is off.
 */
export default defineConfig({
  root: path.join(here, 'src/renderer'),
  base: './',
  plugins: [react()],
  build: {
    outDir: path.join(here, 'dist/renderer'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 8000,
    rollupOptions: {
      treeshake: false,
      // zod's sources carry `@__PURE__` comments Rollup cannot place: a dozen lines of noise on the first start, nothing to act on
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('/node_modules/')) return;
        warn(warning);
      },
    },
  },
  worker: { format: 'es' },
  logLevel: 'warn',
});
