import { Worker } from 'node:worker_threads';
import type { GlossaryEntry } from '@quire/shared/docs/markdown/index';
import type { PreviewResult } from './preview-render';
import type { PreviewWorkerRequest } from './preview-worker';
import { previewBasePath } from './preview-urls';

/** Set by the esbuild bundle of the Electron shell: the worker bundle's path relative to this module. */
declare const __QUIRE_BUNDLED_PREVIEW_WORKER__: string | undefined;

/**
 * Renders previews on one worker thread (preview-worker.ts, booted by preview-worker-boot.mjs
 * under tsx). The worker holds each project's files; {@link PreviewService.render} sends them
 * again only when `version` changed (the core bumps it when a file other than the previewed one is
 * written or the project is reopened). Requests are answered in order; the renderer drops stale ones.
 */
export class PreviewService {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, (r: PreviewResult) => void>();
  private readonly loaded = new Map<string, string>();

  private start(): Worker {
    if (this.worker) return this.worker;
    const resourceLimits = { maxOldGenerationSizeMb: 512 };
    // Bundled (desktop/scripts/build-electron.ts): the worker's own bundle beside this one. From
    // source: preview-worker-boot.mjs registers tsx's loader in the thread, then imports the TypeScript entry.
    const w =
      typeof __QUIRE_BUNDLED_PREVIEW_WORKER__ === 'string'
        ? new Worker(new URL(__QUIRE_BUNDLED_PREVIEW_WORKER__, import.meta.url), { resourceLimits })
        : new Worker(new URL('./preview-worker-boot.mjs', import.meta.url), {
            workerData: { entry: new URL('./preview-worker.ts', import.meta.url).href },
            resourceLimits,
          });
    w.on('message', (msg: { id: number; result: PreviewResult }) => {
      const done = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      done?.(msg.result);
    });
    w.on('error', (err) => this.fail(`the preview worker failed: ${err.message}`));
    w.on('exit', () => {
      this.worker = undefined;
      this.loaded.clear();
      this.fail('the preview worker stopped');
    });
    w.unref();
    this.worker = w;
    return w;
  }

  private fail(message: string): void {
    for (const done of this.pending.values()) done({ ok: false, message });
    this.pending.clear();
  }

  /**
   * Renders `text` as the page at `path` of project `key` (its files' URLs under preview-urls.ts `previewBasePath(key)`).
   * @param version the project's file version; `files()` is called (and the files sent) only when it changed
   */
  render(key: string, version: string, files: () => Record<string, string>, path: string, text: string, options: { theme: 'light' | 'dark'; glossary: GlossaryEntry[] }): Promise<PreviewResult> {
    const w = this.start();
    if (this.loaded.get(key) !== version) {
      w.postMessage({ type: 'load', key, files: files() } satisfies PreviewWorkerRequest);
      this.loaded.set(key, version);
    }
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      w.postMessage({ type: 'render', id, key, path, text, theme: options.theme, glossary: options.glossary, basePath: previewBasePath(key) } satisfies PreviewWorkerRequest);
    });
  }

  /** Stops the worker. */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
  }
}
