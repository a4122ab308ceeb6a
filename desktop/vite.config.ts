import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The renderer build: React + Monaco bundled locally with its workers (no CDN, no network).
 * `base: './'` keeps asset paths relative, so the same build loads over `file://` in Electron and
 * over HTTP from the core in web mode. Output: desktop/dist/renderer.
 */
export default defineConfig({
  root: path.join(here, 'src/renderer'),
  base: './',
  plugins: [react()],
  build: {
    outDir: path.join(here, 'dist/renderer'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 8000,
  },
  worker: { format: 'es' },
  logLevel: 'warn',
});
