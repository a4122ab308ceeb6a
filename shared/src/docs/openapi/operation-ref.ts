/**
 * The reference forms that name an operation (MINTLIFY-FORMAT.md section 6): in navigation entries
 * (`"GET /users"`, `"/path/spec.json POST /users"`) and frontmatter (`openapi: get /v1/x`,
 * `openapi: "v3-openapi GET /api/v1/runs/{runId}"`, `openapi: "spec.json webhook name"`).
 */
import { normalizeFilePath } from '../files';
import { HTTP_METHODS, type HttpMethod } from './types';

/** A parsed reference: an operation by method and path, or a webhook by name; `spec` when one is named. */
export type OperationRef =
  | { spec?: string; kind: 'operation'; method: HttpMethod; path: string }
  | { spec?: string; kind: 'webhook'; name: string };

/** True for `get`, `GET`, `Post`... */
export function isHttpMethod(s: string): boolean {
  return (HTTP_METHODS as readonly string[]).includes(s.toLowerCase());
}

/**
 * Parses `[spec] METHOD /path` or `[spec] webhook name`; surrounding quotes are dropped, methods
 * are case-insensitive. Undefined when the text has none of these shapes.
 * @example parseOperationRef('v3-openapi GET /api/v1/runs/{runId}')
 *   // { spec: 'v3-openapi', kind: 'operation', method: 'get', path: '/api/v1/runs/{runId}' }
 */
export function parseOperationRef(ref: string): OperationRef | undefined {
  const tokens = ref.trim().replace(/^(["'])(.*)\1$/s, '$2').trim().split(/\s+/).filter(Boolean);
  if (tokens.length < 2) return undefined;
  const [a, b] = tokens as [string, string];
  const make = (spec: string | undefined, word: string, rest: string[]): OperationRef | undefined => {
    const tail = rest.join(' ');
    if (tail === '') return undefined;
    if (word.toLowerCase() === 'webhook') return { ...(spec ? { spec } : {}), kind: 'webhook', name: tail };
    if (isHttpMethod(word)) {
      return { ...(spec ? { spec } : {}), kind: 'operation', method: word.toLowerCase() as HttpMethod, path: tail };
    }
    return undefined;
  };
  return make(undefined, a, tokens.slice(1)) ?? (tokens.length >= 3 ? make(a, b, tokens.slice(2)) : undefined);
}

const stem = (p: string) => p.replace(/\.(json|ya?ml)$/i, '');
const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/**
 * Which of `specFiles` (sorted file paths) a spec name denotes: the file path (with or without a
 * leading `/` or `./`), else its file name (`openapi.json` for `api/openapi.json`), else the path or
 * file name without extension (`v3-openapi` for `v3-openapi.yaml`). First alphabetical match wins.
 * Undefined for URLs and unknown names.
 */
export function matchSpecFile(name: string, specFiles: readonly string[]): string | undefined {
  const n = normalizeFilePath(name.trim());
  if (!n || /^[a-z][a-z0-9+.-]*:/i.test(name.trim())) return undefined;
  return (
    specFiles.find((f) => f === n) ??
    specFiles.find((f) => base(f) === n) ??
    specFiles.find((f) => stem(f) === n) ??
    specFiles.find((f) => stem(base(f)) === n) ??
    // `openapi.yaml` written for `openapi.yml` (or `.json`): same stem, other extension
    specFiles.find((f) => stem(f) === stem(n)) ??
    specFiles.find((f) => stem(base(f)) === stem(n))
  );
}

/**
 * Canonical form of a path template for tolerant matching: no trailing slash, parameter names
 * dropped (`/users/{id}/` and `/users/{userId}` both give `/users/{}`).
 */
export function loosePathKey(path: string): string {
  const p = path.replace(/\{[^}]*\}/g, '{}');
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}
