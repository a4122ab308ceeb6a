import { describe, expect, it } from 'vitest';
import { loadOpenApiRegistry, renderApiEndpoint, renderSchemaPage } from '../../../src/docs/openapi';
import { fixtureFiles } from './fixtures';

const { registry } = loadOpenApiRegistry(fixtureFiles(), []);

describe('OpenApiRegistry.schema (openapi-schema: pages)', () => {
  it('finds a component schema by name, searching specs alphabetically', () => {
    expect(registry.schema('NewUser')).toMatchObject({ specFile: 'openapi.json', name: 'NewUser', title: 'NewUser' });
    expect(registry.schema('Run')).toMatchObject({ specFile: 'api/v3-openapi.yaml' });
  });

  it('accepts a spec before the name, and Swagger 2.0 definitions', () => {
    expect(registry.schema('"swagger.yml Pet"')).toMatchObject({ specFile: 'legacy/swagger.yml', name: 'Pet' });
    expect(registry.schema('openapi.json Run')).toBeUndefined();
    expect(registry.schema('Nope')).toBeUndefined();
  });

  it('renders every property as a field, read-only ones badged rather than hidden, with an example', async () => {
    const html = await renderSchemaPage(registry.schema('NewUser')!);
    expect(html).toMatch(/data-field="email"><div class="q-field-head"><code class="q-field-name">email<\/code><span class="q-badge q-badge-type">string&lt;email&gt;<\/span><span class="q-badge q-badge-required">required<\/span>/);
    expect(html).toMatch(/data-field="id">.*?read-only/);
    expect(html).toContain('&quot;email&quot;: &quot;jsmith@example.com&quot;');
  });

  it('renders a recursive schema without hanging', async () => {
    const html = await renderSchemaPage(registry.schema('Node')!);
    expect(html).toContain('Circular reference to <code>Node</code>');
  });
});

describe('renderApiEndpoint (manual api: pages)', () => {
  it('shows method, server from api.mdx.server and path', () => {
    const html = renderApiEndpoint('POST /v1/users/{id}', 'https://api.example.com/');
    expect(html).toContain('<span class="q-method q-method-post" data-method="post">POST</span>');
    expect(html).toContain('<span class="q-openapi-server">https://api.example.com</span>');
    expect(html).toContain('/v1/<wbr>users/<wbr><span class="q-openapi-path-param">{id}</span>');
  });

  it('splits a full URL into server and path', () => {
    const html = renderApiEndpoint('get https://api.example.com/v2/ping', ['https://ignored.example.com'])!;
    expect(html).toContain('<span class="q-openapi-server">https://api.example.com</span><span class="q-openapi-path">/v2/<wbr>ping</span>');
  });

  it('refuses values that are not METHOD path', () => {
    expect(renderApiEndpoint('users list')).toBeUndefined();
    expect(renderApiEndpoint('GET')).toBeUndefined();
  });
});

describe('spec names with another extension', () => {
  it('openapi.yaml finds openapi.json when that is the spec there is', () => {
    expect(registry.resolve('openapi.yaml GET /users')).toMatchObject({ specFile: 'openapi.json' });
  });
});
