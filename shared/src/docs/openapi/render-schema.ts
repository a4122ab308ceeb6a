/**
 * Schema pages (frontmatter `openapi-schema: Name`, MINTLIFY-FORMAT.md section 6): a component
 * schema shown as fields, with an example object.
 */
import { codeGroup, markdown } from './html';
import { PageBudget } from './page-budget';
import { reportCuts } from './render-operation';
import { pageExample } from './schema-example';
import { fieldContext, renderSchemaBody } from './schema-fields';
import type { RenderOperationOptions, ResolvedSchema } from './types';

/**
 * HTML fragment of a schema page: description (Markdown), every property as a field (nothing
 * hidden: readOnly/writeOnly are badges), and an example code block. Same markup rules as
 * renderOperation (plain tags; class, id, data-, role and aria- attributes only), and the same
 * limits (what is cut goes to `options.warnings`).
 */
export async function renderSchemaPage(s: ResolvedSchema, options: Pick<RenderOperationOptions, 'highlight' | 'warnings'> = {}): Promise<string> {
  const parts: string[] = [];
  const budget = new PageBudget();
  const desc = markdown(s.description);
  if (desc) parts.push(`<div class="q-openapi-description">${desc}</div>`);
  parts.push(
    `<section class="q-openapi-section" data-section="properties"><h2 id="properties" class="q-openapi-heading">Properties</h2>` +
      `<div class="q-field-list">${renderSchemaBody(s.schema, fieldContext('schema', budget), s.name)}</div></section>`,
  );
  let example = '';
  try {
    example = JSON.stringify(pageExample(s.schema, 'schema', budget, 'example'), null, 2) ?? '';
  } catch {
    example = '';
  }
  if (example) parts.push(await codeGroup([{ label: s.name, lang: 'json', code: example }], 'Example', options.highlight));
  reportCuts(budget, s.specFile, `schema ${s.name}`, options.warnings);
  return `<div class="q-openapi q-openapi-schema" data-schema="${s.name.replace(/[^A-Za-z0-9_.-]/g, '')}">${parts.join('')}</div>`;
}
