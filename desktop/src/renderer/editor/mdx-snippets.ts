/**
 * The components the editor's "/" menu inserts (mdx-authoring.ts), as Monaco snippets: `$1`, `$2`
 * are the tab stops, `${1:text}` a tab stop with placeholder text, `$0` where the caret ends. They are
 * the components of Quire's MDX renderer (Mintlify's set: callouts Note, Warning, Tip and Info; Steps
 * of Step; Tabs of Tab; CodeGroup; Card and CardGroup; Accordion; Frame), plus a Markdown image whose
 * file lives under `/images/`, and "Insert image", which chooses an image file, adds it to the project
 * and inserts its Markdown.
 */

/** One entry of the "/" menu. */
export interface MdxSnippet {
  /** what the menu shows and filters on (the component's name) */
  label: string;
  /** a short description beside the label */
  detail: string;
  /** the text inserted, in Monaco's snippet syntax */
  body: string;
  /** an editor command run after the body is inserted (mdx-authoring.ts registers it) */
  command?: string;
}

/** The editor command of the "/" menu's "Insert image": the open page's "Insert image" (a file chooser; image-insert.ts). */
export const INSERT_IMAGE_COMMAND = 'quire.insertImage';

const callout = (name: string, what: string): MdxSnippet => ({ label: name, detail: `${what} callout`, body: `<${name}>\n  \${1:${what} text}\n</${name}>\n$0` });

/** The "/" menu's components, in menu order. */
export const MDX_SNIPPETS: readonly MdxSnippet[] = [
  callout('Note', 'Note'),
  callout('Warning', 'Warning'),
  callout('Tip', 'Tip'),
  callout('Info', 'Info'),
  {
    label: 'Steps',
    detail: 'Numbered steps (two Step)',
    body: '<Steps>\n  <Step title="${1:First step}">\n    ${2:What to do first.}\n  </Step>\n  <Step title="${3:Second step}">\n    ${4:What to do next.}\n  </Step>\n</Steps>\n$0',
  },
  {
    label: 'Tabs',
    detail: 'Tabs (two Tab)',
    body: '<Tabs>\n  <Tab title="${1:First tab}">\n    ${2:Content of the first tab.}\n  </Tab>\n  <Tab title="${3:Second tab}">\n    ${4:Content of the second tab.}\n  </Tab>\n</Tabs>\n$0',
  },
  {
    label: 'CodeGroup',
    detail: 'Code blocks shown as tabs',
    body: '<CodeGroup>\n```${1:bash} ${2:npm}\n${3:npm install}\n```\n\n```${4:bash} ${5:pnpm}\n${6:pnpm add}\n```\n</CodeGroup>\n$0',
  },
  { label: 'Card', detail: 'A card with a link', body: '<Card title="${1:Title}" icon="${2:book}" href="${3:/page}">\n  ${4:Description.}\n</Card>\n$0' },
  {
    label: 'CardGroup',
    detail: 'Cards in columns',
    body: '<CardGroup cols={${1:2}}>\n  <Card title="${2:First}" href="${3:/page}">\n    ${4:Description.}\n  </Card>\n  <Card title="${5:Second}" href="${6:/page}">\n    ${7:Description.}\n  </Card>\n</CardGroup>\n$0',
  },
  { label: 'Accordion', detail: 'A section that folds', body: '<Accordion title="${1:Title}">\n  ${2:Content.}\n</Accordion>\n$0' },
  { label: 'Frame', detail: 'A framed image with a caption', body: '<Frame caption="${1:Caption}">\n  ![${2:alt text}](/images/${3:image.png})\n</Frame>\n$0' },
  { label: 'Image', detail: 'A Markdown image', body: '![${1:alt text}](/images/${2:image.png})$0' },
  { label: 'Insert image', detail: 'Choose an image file to add to the project', body: '', command: INSERT_IMAGE_COMMAND },
];
