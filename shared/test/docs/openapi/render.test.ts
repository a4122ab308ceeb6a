import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR, dirFiles } from '../../helpers/dir-files';
import { loadOpenApiRegistry, operationToc, renderOperation } from '../../../src/docs/openapi';
import { fixtureFiles } from './fixtures';

const { registry } = loadOpenApiRegistry(fixtureFiles(), []);
const op = (ref: string) => {
  const found = registry.resolve(ref);
  if (!found) throw new Error(`fixture operation ${ref} not found`);
  return found;
};

/** The head (name + type + badges) of the field called `name`, or undefined. */
function fieldHead(html: string, name: string): string | undefined {
  const re = new RegExp(`<div class="q-field q-field-(?:param|response)" data-field="${name.replace(/[{}]/g, '\\$&')}"><div class="q-field-head">(.*?)</div>`);
  return re.exec(html)?.[1];
}

/** The HTML of one `<section data-section=...>`. */
function section(html: string, id: string): string {
  const start = html.indexOf(`<section class="q-openapi-section" data-section="${id}">`);
  if (start < 0) return '';
  return html.slice(start, html.indexOf('</section>', start));
}

describe('renderOperation: endpoint, parameters, auth', () => {
  it('shows the method badge, the server URL with variables filled in, and the path', async () => {
    const html = await renderOperation(op('openapi GET /users/{userId}'));
    expect(html).toContain('<span class="q-method q-method-get" data-method="get">GET</span>');
    expect(html).toContain('<span class="q-openapi-server">https://eu.example.com/v1</span>');
    // a line break opportunity after each inner `/` (long paths wrap between segments)
    expect(html).toContain('/users/<wbr><span class="q-openapi-path-param">{userId}</span>');
  });

  it('lists path-level, query, header and cookie parameters with types and badges', async () => {
    const html = await renderOperation(op('openapi GET /users'));
    const query = section(html, 'query-parameters');
    expect(fieldHead(query, 'limit')).toContain('<span class="q-badge q-badge-type">integer</span>');
    expect(fieldHead(query, 'limit')).toContain('required');
    expect(fieldHead(query, 'limit')).toContain('default: <code>20</code>');
    expect(fieldHead(query, 'limit')).toContain('&gt;= 1');
    expect(query).toContain('Page size');
    expect(fieldHead(section(html, 'header-parameters'), 'X-Trace')).toContain('string');
    expect(fieldHead(section(html, 'cookie-parameters'), 'session')).toContain('string');
    const path = section(await renderOperation(op('openapi GET /users/{userId}')), 'path-parameters');
    expect(fieldHead(path, 'userId')).toContain('string&lt;uuid&gt;');
    expect(fieldHead(path, 'userId')).toContain('required');
  });

  it('shows the security scheme as an Authorization field', async () => {
    const apiKey = section(await renderOperation(op('openapi GET /users')), 'authorizations');
    expect(fieldHead(apiKey, 'X-Api-Key')).toContain('header');
    const bearer = section(await renderOperation(op('v3-openapi GET /api/v1/runs/{runId}')), 'authorizations');
    expect(fieldHead(bearer, 'Authorization')).toContain('required');
    expect(bearer).toContain('Bearer authentication header');
    const basic = section(await renderOperation(op('swagger POST /pets')), 'authorizations');
    expect(basic).toContain('Basic authentication');
  });

  it('lists resolved $ref parameters', async () => {
    const html = await renderOperation(op('v3-openapi GET /api/v1/runs/{runId}'));
    expect(fieldHead(section(html, 'path-parameters'), 'runId')).toContain('string');
    expect(section(html, 'path-parameters')).toContain('The run ID');
  });
});

describe('renderOperation: body and responses', () => {
  it('shows request body fields with types, enums and required, and hides readOnly ones', async () => {
    const html = await renderOperation(op('POST /users'));
    const body = section(html, 'body');
    expect(body).toContain('application/json');
    expect(fieldHead(body, 'email')).toContain('string&lt;email&gt;');
    expect(fieldHead(body, 'email')).toContain('required');
    expect(fieldHead(body, 'role')).toContain('enum&lt;string&gt;');
    expect(body).toContain('Available options: <code>admin</code>, <code>member</code>');
    expect(fieldHead(body, 'id')).toBeUndefined();
  });

  it('shows responses per status code with their schema fields (allOf merged, readOnly kept)', async () => {
    const html = await renderOperation(op('POST /users'));
    const resp = section(html, 'response');
    expect(resp).toContain('<span class="q-status q-status-2xx">201</span>');
    expect(fieldHead(resp, 'email')).toContain('string');
    expect(fieldHead(resp, 'id')).toContain('read-only');
    // User.manager is a User: shown once, then marked circular instead of expanding forever
    expect(fieldHead(resp, 'manager')).toContain('object');
    expect(resp).toContain('Circular reference to <code>User</code>');
  });

  it('expands array items in <details>', async () => {
    const resp = section(await renderOperation(op('openapi GET /users')), 'response');
    expect(fieldHead(resp, 'response')).toContain('object[]');
    expect(resp).toMatch(/<details class="q-expandable"><summary class="q-expandable-summary"><span>Show item attributes<\/span><\/summary>/);
  });

  it('renders 3.1 type arrays as nullable types', async () => {
    const resp = section(await renderOperation(op('v3-openapi GET /api/v1/runs/{runId}')), 'response');
    expect(fieldHead(resp, 'costInCents')).toContain('number | null');
    expect(fieldHead(resp, 'children')).toContain('object[]');
  });

  it('reads Swagger 2.0 body and formData parameters as the request body', async () => {
    const body = section(await renderOperation(op('swagger POST /pets')), 'body');
    expect(fieldHead(body, 'name')).toContain('required');
    const upload = await renderOperation(op('swagger POST /pets/{petId}/photo'));
    expect(section(upload, 'body')).toContain('multipart/form-data');
    expect(fieldHead(section(upload, 'body'), 'file')).toContain('string&lt;binary&gt;');
    expect(fieldHead(section(upload, 'path-parameters'), 'petId')).toContain('integer');
    expect(upload).toContain('https://legacy.example.com/api');
  });

  it('renders a webhook with its payload and no request samples', async () => {
    const html = await renderOperation(op('webhook runFinished'));
    expect(html).toContain('q-openapi-badge-webhook');
    expect(section(html, 'body')).toContain('>Payload<');
    expect(html).not.toContain('curl --request');
  });
});

describe('renderOperation: cycles, safety, descriptions', () => {
  it('does not hang on recursive schemas or $ref loops', async () => {
    const files = fixtureFiles();
    const spec = loadOpenApiRegistry(files, []).registry;
    const tree = spec.resolve('v3-openapi POST /tree')!; // x-excluded from lists, still resolvable
    const html = await renderOperation(tree);
    expect(fieldHead(section(html, 'body'), 'children')).toContain('object[]');
    expect(section(html, 'body')).toContain('Circular reference to <code>Node</code>');
    expect(section(html, 'response')).toContain('q-status-2xx');
  });

  it('renders Markdown descriptions with raw HTML escaped, and the deprecated badge', async () => {
    const html = await renderOperation(op('POST /users'));
    expect(html).toContain('<strong>user</strong>');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('q-openapi-badge-deprecated');
  });

  it('uses only attributes the page sanitizer keeps: class, id, data-*, role, aria-*, hidden, button type, details open', async () => {
    const html = await renderOperation(op('POST /users'));
    const attrs = [...html.matchAll(/<[a-z0-9]+((?:\s+[a-z-]+(?:="[^"]*")?)*)\s*>/g)].flatMap((m) =>
      [...m[1]!.matchAll(/\s([a-z-]+)(?:="[^"]*")?/g)].map((a) => a[1]!),
    );
    const odd = attrs.filter((a) => !['class', 'id', 'type', 'open', 'role', 'hidden'].includes(a) && !/^(data|aria)-/.test(a));
    expect(odd).toEqual([]);
  });
});

describe('renderOperation: code samples', () => {
  it('generates cURL, JavaScript and Python with auth, required query parameters and a body example', async () => {
    const html = await renderOperation(op('POST /users'));
    for (const label of ['cURL', 'JavaScript', 'Python']) expect(html).toContain(`>${label}</button>`);
    expect(html).toContain('curl --request POST');
    expect(html).toContain('--header &#39;X-Api-Key: &lt;api-key&gt;&#39;');
    expect(html).toContain('&quot;email&quot;: &quot;jsmith@example.com&quot;');
    expect(html).toContain('requests.request(&quot;POST&quot;, url, json=payload, headers=headers)');
    expect(html).toContain('await fetch(url, options)');
    const list = await renderOperation(op('openapi GET /users'));
    expect(list).toContain('https://eu.example.com/v1/users?limit=20');
  });

  it('lets the spec’s own sample for a language replace the generated one', async () => {
    const { registry: r } = loadOpenApiRegistry(dirFiles(path.join(CORPUS_DIR, 'trigger-dev')), []);
    const html = await renderOperation(r.resolve('v3-openapi POST /api/v1/tasks/{taskIdentifier}/trigger')!);
    const labels = [...html.slice(0, html.indexOf('class="q-tabpanel"')).matchAll(/role="tab"[^>]*>([^<]*)<\/button>/g)].map((m) => m[1]);
    expect(labels).toEqual(['TypeScript', 'cURL', 'Python', 'JavaScript']);
  });

  it('puts the spec’s own x-codeSamples first and passes every block to the highlighter', async () => {
    const spec = {
      openapi: '3.1.0',
      servers: [{ url: 'https://x.dev' }],
      paths: { '/ping': { get: { 'x-codeSamples': [{ lang: 'typescript', source: 'await sdk.ping()' }], responses: { '200': { description: 'pong', content: { 'application/json': { example: { ok: true } } } } } } } },
    };
    const { memoryFiles } = await import('../../../src/docs/files');
    const { registry: r } = loadOpenApiRegistry(memoryFiles({ 's.json': JSON.stringify(spec) }), []);
    const langs: string[] = [];
    const html = await renderOperation(r.resolve('GET /ping')!, {
      highlight: async (code, lang) => {
        langs.push(lang);
        return `<pre class="hl" data-lang="${lang}">${code.length}</pre>`;
      },
    });
    expect(langs).toEqual(['typescript', 'bash', 'javascript', 'python', 'json']);
    expect(html.indexOf('>TypeScript</button>')).toBeLessThan(html.indexOf('>cURL</button>'));
    expect(html).toContain('<pre class="hl" data-lang="json">');
  });
});

describe('operationToc', () => {
  it('lists the sections the page shows', () => {
    expect(operationToc(op('openapi GET /users')).map((e) => e.id)).toEqual([
      'authorizations',
      'query-parameters',
      'header-parameters',
      'cookie-parameters',
      'response',
    ]);
  });
});
