/** Markup of every supported MDX component (decisions.md section 5; MINTLIFY-FORMAT.md section 9). */
import { describe, expect, it } from 'vitest';
import { codeGroup } from '../../../src/docs/openapi/html';
import { kinds, render } from './render-helpers';

/** Attribute maps of every element with `role="<role>"` in `html` (the renderer's markup is regular). */
function byRole(html: string, role: string): Record<string, string>[] {
  return [...html.matchAll(new RegExp(`<[a-z]+([^>]*\\brole="${role}"[^>]*)>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/([a-z-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])),
  );
}

/** Every tab controls a panel that is labelled by that tab; all ids are unique on the page. */
function expectLinkedTabs(html: string, count: number): void {
  const tabs = byRole(html, 'tab');
  const panels = byRole(html, 'tabpanel');
  expect(tabs).toHaveLength(count);
  expect(panels).toHaveLength(count);
  const ids = [...html.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]);
  expect(new Set(ids).size).toBe(ids.length);
  for (const tab of tabs) {
    expect(tab.id).toBeTruthy();
    const panel = panels.find((p) => p.id === tab['aria-controls']);
    expect(panel, `panel of tab ${tab.id}`).toBeDefined();
    expect(panel!['aria-labelledby']).toBe(tab.id);
  }
}

const CASES: [string, string, string[]][] = [
  ['Note', '<Note>Read **this**</Note>', ['q-callout q-callout-note', '<strong>this</strong>', '<svg']],
  ['Tip', '<Tip>t</Tip>', ['q-callout-tip']],
  ['Info', '<Info>i</Info>', ['q-callout-info']],
  ['Warning', '<Warning>w</Warning>', ['q-callout-warning']],
  ['Check', '<Check>c</Check>', ['q-callout-check']],
  ['Danger', '<Danger>d</Danger>', ['q-callout-danger']],
  ['Callout', '<Callout icon="rocket" color="#ff0000">c</Callout>', ['q-callout-custom', 'data-color="#ff0000"']],
  ['Card with link', '<Card title="Start" href="/quickstart" icon="rocket">Body</Card>', ['class="q-card q-card-clickable"', '<a class="q-card-title q-card-link" href="/quickstart">Start</a>', 'q-card-icon', 'Body']],
  ['Card with image', '<Card title="T" img="/images/c.png">x</Card>', ['<img class="q-card-img" src="/images/c.png"', '<div class="q-card-title">T</div>']],
  ['CardGroup', '<CardGroup cols={3}><Card title="a">x</Card></CardGroup>', ['<div class="q-columns" data-cols="3">']],
  ['Columns', '<Columns cols={2}><Column>a</Column></Columns>', ['data-cols="2"', 'q-column']],
  ['Steps', '<Steps>\n<Step title="Install">a</Step>\n<Step title="Run">b</Step>\n</Steps>', ['<ol class="q-steps">', 'id="install"', '<span class="q-step-number" aria-hidden="true">2</span>', '<div class="q-step-title">Run</div>']],
  ['Tabs', '<Tabs>\n<Tab title="npm">n</Tab>\n<Tab title="pnpm">p</Tab>\n</Tabs>', ['data-q-tabs', 'role="tab"', 'aria-selected="true"', 'data-sync="pnpm"', 'data-q-panel="1" hidden']],
  ['CodeGroup', '<CodeGroup>\n```js index.js\nconsole.log(1)\n```\n```py\nprint(1)\n```\n</CodeGroup>', ['q-code-group', '>index.js</button>', '>py</button>', 'data-lang="py"']],
  ['RequestExample', '<RequestExample>\n```bash cURL\ncurl x\n```\n</RequestExample>', ['q-request-example', '>cURL</button>']],
  ['ResponseExample', '<ResponseExample>\n```json 200\n{}\n```\n</ResponseExample>', ['q-response-example', '>200</button>']],
  ['Accordion', '<AccordionGroup>\n<Accordion title="Why Quire?" defaultOpen>x</Accordion>\n</AccordionGroup>', ['q-accordion-group', '<details class="q-accordion" id="why-quire" open>', '<summary', 'Why Quire?']],
  ['Expandable', '<Expandable title="properties">x</Expandable>', ['<details class="q-expandable">', 'Show properties']],
  ['Frame', '<Frame caption="A screen">![alt](/images/s.png)</Frame>', ['<figure class="q-frame">', '<figcaption class="q-frame-caption">A screen</figcaption>', 'src="/images/s.png"']],
  ['ParamField', '<ParamField query="limit" type="integer" required default={10}>How many</ParamField>', ['<code class="q-field-name">limit</code>', 'q-badge-type">integer<', 'q-badge-required">required<', 'default: 10', 'q-badge-location">query<']],
  ['ResponseField', '<ResponseField name="id" type="string" deprecated>Id</ResponseField>', ['q-field-response', '<code class="q-field-name">id</code>', 'q-badge-deprecated']],
  ['Update', '<Update label="2024-05-01" description="v1.2" tags={["API"]}>New</Update>', ['class="q-update" id="2024-05-01"', 'q-update-label', '>API</span>']],
  ['Icon', 'A <Icon icon="rocket" /> b', ['q-icon-wrap', '<svg']],
  ['Tooltip', 'An <Tooltip tip="Application programming interface">API</Tooltip>.', ['class="q-tooltip"', 'data-tip="Application programming interface"', '>API</span>']],
  ['Badge', '<Badge color="green">New</Badge>', ['q-badge q-badge-custom q-badge-green', 'New']],
  ['Tree', '<Tree>\n<Tree.Folder name="src" defaultOpen>\n<Tree.File name="index.ts" />\n</Tree.Folder>\n</Tree>', ['<ul class="q-tree"', 'q-tree-folder', '<details open>', 'index.ts']],
  ['Tile', '<Tile href="/x" title="X" description="d">p</Tile>', ['q-tile', 'href="/x"', 'q-tile-description']],
  ['Panel', '<Panel>side</Panel>', ['<aside class="q-panel">side</aside>']],
  ['Visibility humans', '<Visibility for="humans">seen</Visibility>', ['seen']],
  ['View', '<View title="Python">py</View>', ['q-view', 'Python']],
  ['Prompt', '<Prompt description="Ask">Do x</Prompt>', ['q-prompt', 'data-q-copy']],
  ['Color', '<Color>\n<Color.Item name="Primary" value="#0D9373" />\n</Color>', ['q-colors', 'style="background-color:#0D9373"', 'Primary']],
  ['img/video/iframe', '<img src="/a.png" alt="a" />\n\n<video src="/v.mp4" controls />\n\n<iframe src="https://www.youtube.com/embed/x" allowFullScreen />', ['<img src="/a.png" alt="a"', '<video src="/v.mp4" controls', 'sandbox="allow-scripts']],
];

describe('MDX components', () => {
  it.each(CASES)('%s', async (_name, source, expected) => {
    const page = await render(source);
    for (const part of expected) expect(page.html).toContain(part);
    expect(kinds(page)).not.toContain('unknown-component');
  });

  it('links tabs and panels with unique ids (aria-controls / aria-labelledby) without moving heading ids', async () => {
    const tabs = '<Tabs>\n<Tab title="npm">n</Tab>\n<Tab title="pnpm">p</Tab>\n</Tabs>';
    const group = '<CodeGroup>\n```js a.js\n1\n```\n```py b.py\n2\n```\n</CodeGroup>';
    const request = '<RequestExample>\n```bash cURL\ncurl x\n```\n</RequestExample>';
    const page = await render([tabs, '## Tabs', tabs, group, request, '## Code'].join('\n\n'));
    expectLinkedTabs(page.html, 7);
    expect(page.toc.map((t) => t.id)).toEqual(['tabs', 'code']);
  });

  it('links the tabs of OpenAPI code groups (request and response samples on one page)', async () => {
    const request = await codeGroup([{ label: 'cURL', lang: 'bash', code: 'curl x' }, { label: 'Python', lang: 'python', code: 'x' }], 'Request');
    const response = await codeGroup([{ label: '200', lang: 'json', code: '{}' }], 'Response');
    expectLinkedTabs(request + response, 3);
  });

  it('hides Visibility for agents', async () => {
    expect((await render('<Visibility for="agents">secret</Visibility>')).html).not.toContain('secret');
  });

  it('renders an inline SVG icon passed as JSX (agentops cards)', async () => {
    const page = await render('<Card title="T" icon={<svg viewBox="0 0 10 10"><path fill="teal" d="M0 0h10v10z"/></svg>}>x</Card>');
    expect(page.html).toMatch(/<svg viewbox="0 0 10 10"><path fill="teal" d="M0 0h10v10z"><\/path><\/svg>/i);
  });

  it('renders unknown components as their children with one warning per name', async () => {
    const page = await render('<Foo>first</Foo>\n\n<Foo>second</Foo>\n\n<GitHub.Repo repo="x/y" />');
    expect(page.html).toContain('first');
    expect(page.html).toContain('second');
    expect(kinds(page)).toEqual(['unknown-component', 'unknown-component']);
    expect(page.warnings[0]).toMatchObject({ file: 'page.mdx', line: 1 });
  });

  it('unwraps a block component written on one line instead of nesting it in <p>', async () => {
    const page = await render('<Note>one line</Note>');
    expect(page.html).not.toContain('<p>');
  });
});
