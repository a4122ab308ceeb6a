/**
 * Public shapes of the OpenAPI pages module (`openapi:` pages rendered as an endpoint
 * reference; MINTLIFY-FORMAT.md section 6). Specs are kept as parsed; `$ref`s are resolved lazily
 * when a property is read (see lazy-refs.ts), so these objects are views, not copies.
 */

import type { BuildWarning } from '../types';

/** Any JSON value of a spec, as parsed from JSON or YAML. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * A JSON object of a spec seen through the lazy `$ref` view: reading a property whose value is
 * `{ $ref: '#/...' }` yields the referenced object instead. Values are loosely typed on purpose:
 * specs in the wild break their own schema, so readers check what they read.
 */
export type SpecObject = Record<string, unknown>;

/** The HTTP methods an OpenAPI path item may hold, lowercase as in the spec. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** A lowercase HTTP method of {@link HTTP_METHODS}. */
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** One operation (or webhook) of a spec, found by {@link OpenApiRegistry.resolve} or listed by `operations()`. */
export interface ResolvedOperation {
  /** file path of the spec, relative to the docs root (`openapi.json`, `api/v3-openapi.yaml`) */
  specFile: string;
  /** 'operation' for `paths`, 'webhook' for OpenAPI 3.1 `webhooks` */
  kind: 'operation' | 'webhook';
  /** lowercase HTTP method: `get`, `post`, ... */
  method: HttpMethod;
  /** the path template as in the spec (`/api/v1/runs/{runId}`); for webhooks, the webhook name */
  path: string;
  /** the OpenAPI Operation object, `$ref`s resolved on access */
  operation: SpecObject;
  /** the Path Item holding the operation (path-level parameters and servers) */
  pathItem: SpecObject;
  /** the whole spec document (components, servers, security), `$ref`s resolved on access */
  document: SpecObject;
  /** '3.0', '3.1' or '2.0' (Swagger, best effort) */
  specVersion: '2.0' | '3.0' | '3.1';
  operationId?: string;
  summary?: string;
  /** page title: `x-mint.metadata.title` ?? summary ?? operationId ?? `METHOD /path` */
  title: string;
  /** Markdown: `x-mint.metadata.description` ?? operation description ?? path item description */
  description?: string;
  deprecated: boolean;
  /** `x-hidden: true`: a page is generated but not listed in the navigation */
  hidden: boolean;
  tags: string[];
}

/** Every spec of a docs repository, and lookup of operations by the reference forms of MINTLIFY-FORMAT.md section 6. */
export interface OpenApiRegistry {
  /**
   * Finds the operation a navigation entry or frontmatter `openapi:` value names. Forms:
   * `GET /users`, `get /users`, `/openapi.json GET /users`, `openapi.json GET /users`,
   * `v3-openapi GET /api/v1/runs/{runId}` (file stem), `spec.json webhook name`, `webhook name`.
   * With no spec named, `defaultSpec` (inherited from the navigation) is searched first, then all
   * specs in alphabetical order of file path; the first match wins. Undefined when nothing matches
   * or the form is not understood (never throws).
   */
  resolve(ref: string, defaultSpec?: string): ResolvedOperation | undefined;
  /**
   * Operations of one spec (named as in `resolve`: path, file name or stem), or of all specs when
   * `spec` is omitted: specs alphabetically, paths in the order the spec lists them, methods
   * in {@link HTTP_METHODS} order, webhooks after paths. `x-excluded` operations are left out. Unknown spec: [].
   */
  operations(spec?: string): ResolvedOperation[];
  /**
   * Finds a component schema for a schema page (frontmatter `openapi-schema: Name`, or
   * `openapi-schema: "spec.json Name"`): `components.schemas` (2.0: `definitions`), the named or
   * default spec first, then all specs alphabetically. Undefined when no spec has it.
   */
  schema(ref: string, defaultSpec?: string): ResolvedSchema | undefined;
  /** file paths of the loaded specs, sorted */
  specFiles: string[];
}

/** A component schema found by {@link OpenApiRegistry.schema}. */
export interface ResolvedSchema {
  specFile: string;
  /** the component name (`User`) */
  name: string;
  /** the schema, `$ref`s resolved on access */
  schema: SpecObject;
  document: SpecObject;
  /** schema `title` ?? name */
  title: string;
  description?: string;
}

/** Options of {@link renderOperation}. */
export interface RenderOperationOptions {
  /**
   * server URL used when the spec has none (`servers: []`), and base for relative server URLs
   * (`/v1`); e.g. the config's `api.baseUrl`
   */
  baseUrl?: string;
  /** code highlighter (shiki through the page renderer): returns an HTML `<pre>` for `code` */
  highlight?: (code: string, lang: string) => Promise<string>;
  /**
   * receives an `openapi` warning for each part of the page cut to stay within the page's limits
   * (limits.ts: MAX_OPENAPI_EXAMPLE_CHARS, MAX_OPENAPI_PAGE_CHARS); without it they are not reported
   */
  warnings?: BuildWarning[];
}
