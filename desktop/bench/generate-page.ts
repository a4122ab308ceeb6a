/** A 2,000-line MDX page: frontmatter, headings, prose, lists, tables, code blocks and components. */
export function generatePage(lines = 2000): string {
  const out = ['---', 'title: Generated reference', 'description: A long page for the desktop benchmark', '---', ''];
  const langs = ['ts', 'bash', 'json', 'python', 'yaml'];
  const code: Record<string, string[]> = {
    ts: ['import { createClient } from "@acme/sdk";', 'const client = createClient({ token: process.env.TOKEN });', 'export async function run(id: string) {', '  return client.items.get(id);', '}'],
    bash: ['npm install @acme/sdk', 'export TOKEN=secret', 'acme items list --limit 20'],
    json: ['{', '  "id": "itm_123",', '  "name": "Example",', '  "tags": ["a", "b"]', '}'],
    python: ['from acme import Client', 'client = Client(token="secret")', 'for item in client.items.list():', '    print(item.name)'],
    yaml: ['name: example', 'steps:', '  - run: acme build', '  - run: acme deploy'],
  };
  let i = 0;
  for (;;) {
    const n = i++;
    const block = n % 8;
    const before = out.length;
    if (block === 0) out.push(`## Section ${n}`, '');
    else if (block === 1) out.push(`This paragraph explains part ${n} of the reference, with **bold** words, \`inline code\` and a [link](/guides/setup).`, 'It goes on for a second line so that the paragraph wraps in the preview.', '');
    else if (block === 2) {
      const lang = langs[n % langs.length]!;
      out.push(`\`\`\`${lang} title="example-${n}.${lang}"`, ...code[lang]!, '```', '');
    } else if (block === 3) out.push('<Note>', `Remember step ${n}: components render exactly as on the site.`, '</Note>', '');
    else if (block === 4) out.push('- First point of the list', '- Second point with `code`', '- Third point', '');
    else if (block === 5) out.push('<CardGroup cols={2}>', `  <Card title="Card ${n}" href="/guides/setup">A card with a link.</Card>`, '  <Card title="Another card">More text.</Card>', '</CardGroup>', '');
    else if (block === 6) out.push('| Name | Type | Description |', '| --- | --- | --- |', `| id${n} | string | The item's id |`, '| name | string | Its name |', '');
    else out.push('<Steps>', `  <Step title="Install ${n}">Run the installer.</Step>`, '  <Step title="Configure">Edit the config.</Step>', '</Steps>', '');
    if (out.length > lines) {
      // the last whole block did not fit: end with one-line paragraphs
      out.length = before;
      while (out.length < lines) out.push(out.length % 2 ? '' : `Closing line ${out.length}.`);
      break;
    }
  }
  return out.join('\n') + '\n';
}
