/**
 * The API playground ("Try it") of OpenAPI pages: what the reader's browser needs to send the
 * operation's request itself (site assets `playground.js` builds the form from it) and the config
 * switch. Mintlify's settings are followed: docs.json `api.playground.display` (`interactive`,
 * `simple`, `none`) and mint.json `api.playground.mode` (`show`, `simple`, `hide`); Quire shows the
 * playground only when the config asks for `interactive` / `show` (the request goes from the reader's
 * browser to the API's own server, which the site's CSP must allow: {@link playgroundOrigins}).
 * `simple` shows the endpoint bar and samples only, as every page does.
 */
import { decodeEntities } from '../markdown/html';
import type { OperationModel, ParamLocation } from './operation-model';
import { fitExample, type PageBudget } from './page-budget';
import { pageExample } from './schema-example';

/** What `playground.js` reads from an operation page's `data-q-playground` attribute (JSON). */
export interface PlaygroundData {
  /** upper-case HTTP method */
  method: string;
  /** path template (`/users/{id}`) */
  path: string;
  /** absolute http(s) server URL without trailing slash */
  server: string;
  params: { name: string; in: ParamLocation; required: boolean; example: string }[];
  /** the body as editable text (JSON pretty-printed), for JSON and text media types */
  body?: { contentType: string; example: string; required: boolean };
  /** the first security alternative: one credential field per scheme */
  auth: { key: string; type: string; scheme?: string; name?: string; in?: ParamLocation }[];
}

/** The playground setting of a site config's raw keys: `interactive` shows it; anything else does not. */
export function playgroundDisplay(raw: Record<string, unknown> | undefined): 'interactive' | 'simple' | 'none' {
  const api = raw?.api;
  const pg = typeof api === 'object' && api !== null ? (api as Record<string, unknown>).playground : undefined;
  const o = typeof pg === 'object' && pg !== null ? (pg as Record<string, unknown>) : {};
  const value = o.display ?? o.mode;
  if (value === 'interactive' || value === 'show') return 'interactive';
  if (value === 'simple') return 'simple';
  return 'none';
}

/** The origin (`https://api.example.com`) of an http(s) URL without credentials; undefined otherwise. */
export function serverOrigin(url: string): string | undefined {
  try {
    const u = new URL(url);
    if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username || u.password) return undefined;
    return u.origin;
  } catch {
    return undefined;
  }
}

const text = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/**
 * The playground data of an operation, or undefined when it cannot be tried from a browser
 * (webhooks, no absolute http(s) server). Examples draw on the page's budget like the samples.
 */
export function playgroundData(model: OperationModel, budget: PageBudget): PlaygroundData | undefined {
  if (model.op.kind !== 'operation' || !serverOrigin(model.serverUrl)) return undefined;
  const params = model.parameters
    .filter((p) => p.in !== 'cookie') // browsers do not let a page set Cookie headers
    .map((p) => {
      const what = `playground parameter ${p.name}`;
      const ex = p.example !== undefined ? fitExample(p.example, budget, what) : p.required ? pageExample(p.schema, 'request', budget, what) : undefined;
      return { name: p.name, in: p.in, required: p.required, example: text(ex) };
    });
  const data: PlaygroundData = { method: model.op.method.toUpperCase(), path: model.op.path, server: model.serverUrl, params, auth: [] };
  const b = model.body;
  if (b && !/form/i.test(b.contentType)) {
    const value = b.example !== undefined ? fitExample(b.example, budget, 'playground body') : b.schema ? pageExample(b.schema, 'request', budget, 'playground body') : undefined;
    let example = '';
    try {
      example = value === undefined ? '' : typeof value === 'string' && !/json/i.test(b.contentType) ? value : (JSON.stringify(value, null, 2) ?? '');
    } catch {
      example = '';
    }
    data.body = { contentType: b.contentType, example, required: b.required };
  }
  for (const s of model.security[0] ?? []) {
    if (s.type === 'apiKey' && s.in === 'cookie') continue;
    data.auth.push({ key: s.key, type: s.type, ...(s.scheme ? { scheme: s.scheme } : {}), ...(s.name ? { name: s.name } : {}), ...(s.in ? { in: s.in } : {}) });
  }
  return data;
}

/**
 * The origins an OpenAPI page's playground sends to (its `data-q-playground` server), read back
 * from the rendered page's frontmatter `servers` (openapi pages record them), so the builder can
 * list them in the deployment manifest for the site's CSP `connect-src`.
 */
export function playgroundOrigins(servers: unknown): string[] {
  if (!Array.isArray(servers)) return [];
  return servers.map((s) => (typeof s === 'string' ? serverOrigin(s) : undefined)).filter((o): o is string => o !== undefined);
}

/**
 * The servers of the playgrounds in a rendered page body (each `data-q-playground` attribute's
 * `server`): MDX pages with frontmatter `openapi:` embed an operation too.
 */
export function playgroundServersIn(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/data-q-playground="([^"]*)"/g)) {
    try {
      const server = (JSON.parse(decodeEntities(m[1]!)) as { server?: unknown }).server;
      if (typeof server === 'string') out.push(server);
    } catch {
      // not playground data: ignored
    }
  }
  return out;
}
