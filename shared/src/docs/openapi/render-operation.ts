/**
 * An OpenAPI operation rendered as an endpoint reference page body (site-look.md "OpenAPI pages:
 * method badge and path, auth, parameters, request body and responses as fields, code samples in a
 * CodeGroup"). The theme adds the page title; this fragment holds the rest.
 */
import { generateCodeSamples } from './code-samples';
import { endpointBarHtml } from './endpoint-bar';
import { codeGroup, esc, markdown } from './html';
import { buildOperationModel, PARAM_LOCATIONS, type OperationModel, type ParameterModel, type ResponseModel, type SecurityUse } from './operation-model';
import { fitExample, PageBudget } from './page-budget';
import { playgroundData } from './playground';
import { pageExample } from './schema-example';
import { fieldContext, renderField, renderSchemaBody } from './schema-fields';
import type { BuildWarning, TocEntry } from '../types';
import type { RenderOperationOptions, ResolvedOperation } from './types';

const LOCATION_TITLES: Record<(typeof PARAM_LOCATIONS)[number], string> = {
  path: 'Path Parameters',
  query: 'Query Parameters',
  header: 'Header Parameters',
  cookie: 'Cookie Parameters',
};

/** Status code class for coloring: `2xx`, `4xx`, ... or `default`. */
const statusClass = (status: string) => (/^[1-5]/.test(status) ? `${status[0]}xx` : 'default');

function section(id: string, title: string, inner: string, extra = ''): string {
  return `<section class="q-openapi-section" data-section="${id}"><h2 id="${id}" class="q-openapi-heading">${esc(title)}${extra}</h2>${inner}</section>`;
}

/** The endpoint bar of an operation (webhooks show no server). */
function endpointBar(model: OperationModel): string {
  const { op } = model;
  return endpointBarHtml({
    method: op.method,
    path: op.path,
    serverUrl: op.kind === 'operation' ? model.serverUrl : '',
    deprecated: op.deprecated,
    webhook: op.kind === 'webhook',
  });
}

/** Default explanation of a security scheme when the spec gives none. */
function securityDescription(s: SecurityUse): string {
  if (s.type === 'apiKey') return `API key sent in the \`${s.name ?? ''}\` ${s.in ?? 'header'}.`;
  if (s.type === 'http' && s.scheme === 'basic') {
    return 'Basic authentication header of the form `Basic <encoded-value>`, where `<encoded-value>` is the base64-encoded string `username:password`.';
  }
  const scopes = s.scopes.length > 0 ? ` Required scopes: ${s.scopes.map((x) => `\`${x}\``).join(', ')}.` : '';
  return `Bearer authentication header of the form \`Bearer <token>\`, where \`<token>\` is your auth token.${scopes}`;
}

function securityField(s: SecurityUse, budget: PageBudget): string {
  const name = s.type === 'apiKey' ? (s.name ?? s.key) : 'Authorization';
  const location = s.type === 'apiKey' ? (s.in ?? 'header') : 'header';
  const description = s.description ?? securityDescription(s);
  return renderField({ name, schema: { type: 'string' }, required: true, location, description }, fieldContext('request', budget));
}

function authSection(model: OperationModel, budget: PageBudget): string {
  if (model.security.length === 0) return '';
  const many = model.security.length > 1;
  const groups = model.security.map((alt, i) => {
    const fields = alt.map((s) => securityField(s, budget)).join('');
    return many ? `<div class="q-openapi-auth-option"><div class="q-openapi-auth-label">Option ${i + 1}: ${esc(alt.map((s) => s.key).join(' + '))}</div>${fields}</div>` : fields;
  });
  const lead = many ? '<p class="q-openapi-note">Use one of these:</p>' : '';
  const optional = model.authOptional ? '<p class="q-openapi-note">Authentication is optional.</p>' : '';
  return section('authorizations', 'Authorizations', `${lead}${optional}${groups.join('')}`);
}

function parameterField(p: ParameterModel, budget: PageBudget): string {
  return renderField(
    { name: p.name, schema: p.schema, required: p.required, deprecated: p.deprecated, description: p.description, example: p.example },
    fieldContext('request', budget),
  );
}

function parameterSections(model: OperationModel, budget: PageBudget): string {
  return PARAM_LOCATIONS.map((loc) => {
    const params = model.parameters.filter((p) => p.in === loc);
    if (params.length === 0) return '';
    return section(`${loc}-parameters`, LOCATION_TITLES[loc], `<div class="q-field-list">${params.map((p) => parameterField(p, budget)).join('')}</div>`);
  }).join('');
}

function bodySection(model: OperationModel, budget: PageBudget): string {
  const body = model.body;
  if (!body) return '';
  const media = `<span class="q-openapi-media">${esc(body.contentType)}</span>`;
  const parts: string[] = [];
  if (body.required) parts.push('<p class="q-openapi-note">The body is required.</p>');
  const desc = markdown(body.description);
  if (desc) parts.push(`<div class="q-openapi-description">${desc}</div>`);
  if (body.schema) parts.push(`<div class="q-field-list">${renderSchemaBody(body.schema, fieldContext('request', budget))}</div>`);
  const title = model.op.kind === 'webhook' ? 'Payload' : 'Body';
  return section('body', title, parts.join(''), media);
}

function responseBlock(r: ResponseModel, open: boolean, budget: PageBudget): string {
  const summaryText = r.description ? r.description.trim().split('\n')[0]!.replace(/[*_`]/g, '') : '';
  const parts: string[] = [];
  // a one-line description is already the summary line
  if (r.description && r.description.trim() !== summaryText) parts.push(`<div class="q-openapi-description">${markdown(r.description)}</div>`);
  if (r.headers.length > 0) {
    const fields = r.headers.map((h) => renderField({ name: h.name, schema: h.schema, required: h.required, description: h.description }, fieldContext('response', budget))).join('');
    parts.push(`<div class="q-openapi-subheading">Headers</div><div class="q-field-list">${fields}</div>`);
  }
  if (r.schema) parts.push(`<div class="q-field-list">${renderSchemaBody(r.schema, fieldContext('response', budget), 'response')}</div>`);
  const media = r.contentType ? `<span class="q-openapi-media">${esc(r.contentType)}</span>` : '';
  return (
    `<details class="q-openapi-response" data-status="${esc(r.status)}"${open ? ' open' : ''}>` +
    `<summary><span class="q-status q-status-${statusClass(r.status)}">${esc(r.status)}</span>` +
    `<span class="q-openapi-response-summary">${esc(summaryText)}</span>${media}</summary>` +
    `<div class="q-openapi-response-body">${parts.join('') || '<p class="q-openapi-note">No content.</p>'}</div></details>`
  );
}

function responsesSection(model: OperationModel, budget: PageBudget): string {
  if (model.responses.length === 0) return '';
  const firstOk = model.responses.findIndex((r) => /^2/.test(r.status));
  const openIndex = firstOk >= 0 ? firstOk : 0;
  return section('response', 'Response', model.responses.map((r, i) => responseBlock(r, i === openIndex, budget)).join(''));
}

/** JSON text of a value; cyclic examples (only possible through YAML aliases) print as null. */
function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? 'null';
  } catch {
    return 'null';
  }
}

/** Response examples: one tab per status that has an example or a schema. */
function responseExamples(model: OperationModel, budget: PageBudget) {
  return model.responses
    .filter((r) => r.example !== undefined || r.schema)
    .map((r) => {
      const what = `response ${r.status}`;
      const value = r.example !== undefined ? fitExample(r.example, budget, what) : pageExample(r.schema!, 'response', budget, what);
      const code = typeof value === 'string' && !/json/i.test(r.contentType ?? '') ? value : json(value);
      return { label: r.status, lang: /json/i.test(r.contentType ?? 'json') ? 'json' : 'text', code };
    });
}

/**
 * Renders an operation as an HTML fragment in three parts: the head (endpoint bar: method badge,
 * server URL, path, deprecated/webhook badges; description, Markdown with raw HTML off), the examples
 * (`.q-openapi-aside`: request samples code group with the spec's `x-codeSamples`, cURL, JavaScript
 * fetch and Python requests; response examples), and the body (sections Authorizations,
 * Path/Query/Header/Cookie Parameters, Body (Payload for webhooks) and Response, one `<details>` per
 * status code, the first 2xx open). openapi.css shows the examples as a sticky right-hand column
 * on wide screens and between head and body on narrow ones. Operations a browser can call carry
 * the playground's data (`data-q-playground`, playground.ts). Section headings
 * are `<h2>` with fixed ids (see {@link operationToc}). Plain tags with class/id/data-* only.
 * Never throws on odd specs: missing pieces are left out. Bounded (limits.ts): fields and examples
 * share MAX_OPENAPI_PAGE_CHARS, each example MAX_OPENAPI_EXAMPLE_CHARS; what is cut is reported
 * to `options.warnings` (kind `openapi`, naming the spec file and the operation).
 */
export async function renderOperation(op: ResolvedOperation, options: RenderOperationOptions = {}): Promise<string> {
  const model = buildOperationModel(op, options.baseUrl);
  const budget = new PageBudget();
  const head = [endpointBar(model)];
  const content = (op.operation['x-mint'] as Record<string, unknown> | undefined)?.content;
  const description = markdown(op.description);
  if (description) head.push(`<div class="q-openapi-description">${description}</div>`);
  if (typeof content === 'string') head.push(`<div class="q-openapi-description">${markdown(content)}</div>`);
  const examples = [await codeGroup(generateCodeSamples(model, budget), op.kind === 'webhook' ? 'Samples' : 'Request', options.highlight)];
  if (op.kind === 'webhook' && model.body?.schema) {
    const payload =
      model.body.example !== undefined ? fitExample(model.body.example, budget, 'payload') : pageExample(model.body.schema, 'request', budget, 'payload');
    examples.push(await codeGroup([{ label: 'Payload', lang: 'json', code: json(payload) }], 'Payload example', options.highlight));
  }
  const body = [authSection(model, budget), parameterSections(model, budget), bodySection(model, budget), responsesSection(model, budget)];
  examples.push(await codeGroup(responseExamples(model, budget), 'Response', options.highlight));
  const where = op.kind === 'webhook' ? `webhook ${op.path}` : `${op.method.toUpperCase()} ${op.path}`;
  reportCuts(budget, op.specFile, where, options.warnings);
  // the playground's data has a budget of its own: it never cuts what the page shows
  const tryIt = playgroundData(model, new PageBudget());
  const tryAttr = tryIt ? ` data-q-playground="${esc(JSON.stringify(tryIt))}"` : '';
  const aside = examples.filter(Boolean).join('');
  return (
    `<div class="q-openapi q-openapi-split" data-method="${op.method}" data-kind="${op.kind}"${tryAttr}>` +
    `<div class="q-openapi-head">${head.join('')}</div>` +
    (aside ? `<div class="q-openapi-aside" role="region" aria-label="Examples">${aside}</div>` : '') +
    `<div class="q-openapi-body">${body.filter(Boolean).join('')}</div></div>`
  );
}

/** Turns what a page budget cut into `openapi` warnings (`spec.json: GET /x: response 200: example truncated ...`). */
export function reportCuts(budget: PageBudget, specFile: string, where: string, warnings: BuildWarning[] | undefined): void {
  for (const note of budget.notes) warnings?.push({ file: specFile, kind: 'openapi', message: `${specFile}: ${where}: ${note}` });
}

/** The table of contents entries of {@link renderOperation}'s sections, in page order (all depth 2). */
export function operationToc(op: ResolvedOperation): TocEntry[] {
  const model = buildOperationModel(op);
  const toc: TocEntry[] = [];
  if (model.security.length > 0) toc.push({ depth: 2, id: 'authorizations', text: 'Authorizations' });
  for (const loc of PARAM_LOCATIONS) {
    if (model.parameters.some((p) => p.in === loc)) toc.push({ depth: 2, id: `${loc}-parameters`, text: LOCATION_TITLES[loc] });
  }
  if (model.body) toc.push({ depth: 2, id: 'body', text: op.kind === 'webhook' ? 'Payload' : 'Body' });
  if (model.responses.length > 0) toc.push({ depth: 2, id: 'response', text: 'Response' });
  return toc;
}
