/**
 * The endpoint bar at the top of an API page: method badge, server URL and path with `{params}`
 * marked, plus webhook/deprecated badges. Used by OpenAPI pages and by manual API pages
 * (frontmatter `api: "POST /v1/users"` with `api.mdx.server`, MINTLIFY-FORMAT.md section 6).
 */
import { esc } from './html';
import { isHttpMethod } from './operation-ref';

/** What the bar shows. */
export interface EndpointBar {
  /** HTTP method, any case */
  method: string;
  /** path template (`/users/{id}`), or a webhook name */
  path: string;
  /** shown muted before the path; '' for none */
  serverUrl?: string;
  deprecated?: boolean;
  webhook?: boolean;
}

/** HTML of the endpoint bar (classes `q-openapi-endpoint`, `q-method q-method-<method>`, `q-openapi-url`). */
export function endpointBarHtml(bar: EndpointBar): string {
  const m = bar.method.toLowerCase();
  const method = `<span class="q-method q-method-${esc(m)}" data-method="${esc(m)}">${esc(m.toUpperCase())}</span>`;
  const badges: string[] = [];
  if (bar.webhook) badges.push('<span class="q-openapi-badge q-openapi-badge-webhook">Webhook</span>');
  if (bar.deprecated) badges.push('<span class="q-openapi-badge q-openapi-badge-deprecated">Deprecated</span>');
  // a line break opportunity after each `/`: a long path wraps between segments on a phone
  const path = esc(bar.path).replace(/(?<=.)\/(?=.)/g, '/<wbr>').replace(/\{([^}]*)\}/g, '<span class="q-openapi-path-param">{$1}</span>');
  const server = bar.serverUrl ? `<span class="q-openapi-server">${esc(bar.serverUrl)}</span>` : '';
  return `<div class="q-openapi-endpoint">${badges.join('')}${method}<code class="q-openapi-url">${server}<span class="q-openapi-path">${path}</span></code></div>`;
}

/**
 * The endpoint bar of a manual API page from its frontmatter `api:` value (`POST /v1/users`,
 * `GET https://api.example.com/v1/users`) and the config's `api.mdx.server` (string or the first
 * of an array). Undefined when the value is not `METHOD path-or-URL`.
 */
export function renderApiEndpoint(api: string, server?: string | string[]): string | undefined {
  const m = /^\s*(\S+)\s+(\S+)\s*$/.exec(api.replace(/^(["'])(.*)\1$/s, '$2'));
  if (!m || !isHttpMethod(m[1]!)) return undefined;
  let path = m[2]!;
  let serverUrl = (Array.isArray(server) ? server[0] : server) ?? '';
  const abs = /^([a-z][a-z0-9+.-]*:\/\/[^/]+)(\/.*)?$/i.exec(path);
  if (abs) {
    serverUrl = abs[1]!;
    path = abs[2] ?? '/';
  }
  return endpointBarHtml({ method: m[1]!, path, serverUrl: serverUrl.replace(/\/+$/, '') });
}
