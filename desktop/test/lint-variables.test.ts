import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalFolderCore, type LocalFolderCore } from './helpers/local-folder-core';

/** The desktop's linter parses a page as the build renders it: with the project's docs.json variables put in. */
let fx: LocalFolderCore;

const config = (variables: Record<string, string>) =>
  JSON.stringify({ name: 'Vars', variables, navigation: { groups: [{ group: 'Start', pages: ['index'] }] } }, null, 2);
const page = '---\ntitle: Home\n---\n\nThis is {{product.name}} version {{product.version}}.\n';

beforeAll(async () => {
  fx = await startLocalFolderCore('lint-vars', {
    'docs/docs.json': config({ 'product.name': 'Acme Tool', 'product.version': '2.1' }),
    'docs/index.mdx': page,
  });
});

afterAll(async () => {
  await fx?.close();
});

describe('linting a page that uses docs.json variables', () => {
  it('finds nothing wrong where the build renders the variables, and follows docs.json edits', async () => {
    const { c, projectId } = fx;
    const lint = async () => (await c.lint.run({ projectId, path: 'docs/index.mdx', text: page })).map((f) => f.ruleId);
    expect(await lint()).toEqual([]);

    // without the variable the build leaves {{product.name}} as written: an expression MDX cannot parse
    await c.files.write({ projectId, path: 'docs/docs.json', content: config({ 'product.version': '2.1' }) });
    expect(await lint()).toEqual(['mdx/syntax']);

    await c.files.write({ projectId, path: 'docs/docs.json', content: config({ 'product.name': 'Acme Tool', 'product.version': '2.1' }) });
    expect(await lint()).toEqual([]);
  });
});
