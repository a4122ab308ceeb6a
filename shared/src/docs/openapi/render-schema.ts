/**
 * Schema pages (frontmatter `openapi-schema: Name`, MINTLIFY-FORMAT.md section 6): a component
 * schema shown as fields, with an example object.
 */
import { codeGroup, markdown } from './html';
import { exampleFromSchema } from './schema-example';
import { fieldContext, renderSchemaBody } from './schema-fields';
import type { RenderOperationOptions, ResolvedSchema } from './types';

/**
 * HTML fragment of a schema page: description (Markdown), every property as a field (nothing
 * hidden: readOnly/writeOnly are badges), and an example code block. Same markup rules as
 * renderOperation (plain tags; class, id, data-, role and aria- attributes only).
 */
export async function renderSchemaPage(s: ResolvedSchema, options: Pick<RenderOperationOptions, 'highlight'> = {}): Promise<string> {
  const parts: string[] = [];
  const desc = markdown(s.description);
  if (desc) parts.push(`<div class="q-openapi-description">${desc}</div>`);
  parts.push(
    `<section class="q-openapi-section" data-section="properties"><h2 id="properties" class="q-openapi-heading">Properties</h2>` +
      `<div class="q-field-list">${renderSchemaBody(s.schema, fieldContext('schema'), s.name)}</div></section>`,
  );
  let example = '';
  try {
    example = JSON.stringify(exampleFromSchema(s.schema, 'schema'), null, 2) ?? '';
  } catch {
    example = '';
  }
  if (example) parts.push(await codeGroup([{ label: s.name, lang: 'json', code: example }], 'Example', options.highlight));
  return `<div class="q-openapi q-openapi-schema" data-schema="${s.name.replace(/[^A-Za-z0-9_.-]/g, '')}">${parts.join('')}</div>`;
}
