/**
 * Monaco, bundled locally with its workers (no CDN; offline-toolchain.md): the editor worker and
 * the JSON worker are built by Vite as module workers of the app's own origin, so a strict CSP
 * (`worker-src 'self'`) holds. Import this module before creating an editor.
 *
 * Only what the app edits is bundled (monaco-editor.ts): the editor core and its features, the JSON
 * language service and the syntax colouring of Markdown, MDX and the usual code block languages;
 * not the TypeScript, CSS and HTML language services, whose workers made most of the build's time.
 */
import { monaco, jsonDefaults } from './monaco-editor';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';
import { docsJsonSchema } from '@quire/shared/docs/config/docs-json-schema';

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    return label === 'json' ? new JsonWorker() : new EditorWorker();
  },
};

// docs.json is checked as you type against the JSON Schema that ships with the product (no schema download).
jsonDefaults.setDiagnosticsOptions({
  validate: true,
  allowComments: false,
  enableSchemaRequest: false,
  schemas: [{ uri: String(docsJsonSchema.$id ?? 'https://quire.dev/schema/docs.json'), fileMatch: ['docs.json', '**/docs.json'], schema: docsJsonSchema }],
});

/** The model URI of a workspace file (so that JSON schemas match docs.json by name). */
export function modelUri(path: string): monaco.Uri {
  return monaco.Uri.from({ scheme: 'file', path: `/${path}` });
}

/** The Monaco theme that follows the system's light or dark preference. */
export function systemTheme(): 'vs' | 'vs-dark' {
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'vs-dark' : 'vs';
}

window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => monaco.editor.setTheme(systemTheme()));

/** Monaco's language for a file path: markdown for .md/.mdx, json for .json, plain text otherwise. */
export function languageOf(path: string): string {
  if (/\.mdx?$/i.test(path)) return 'markdown';
  if (/\.json$/i.test(path)) return 'json';
  return 'plaintext';
}

export { monaco };
