/** Author ids and names are prefixed on whole pages; the engine's own ids stay as they are (DOM clobbering). */
import { describe, expect, it } from 'vitest';
import { render } from './render-helpers';

/** Every `id="..."` value of `html`, in order. */
function ids(html: string): string[] {
  return [...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]!);
}

describe('author ids on rendered pages', () => {
  it('prefixes raw HTML ids and names in .md pages but keeps heading anchors', async () => {
    const page = await render(
      '# Quire\n\n## Setup\n\n<div id="quire">x</div>\n\n<p><a name="getElementById">old anchor</a> <a href="#setup">up</a></p>\n',
      { filePath: 'guide.md' },
    );
    // an author's element reusing a heading's id gets the prefix; the heading keeps its anchor
    expect(ids(page.html)).toEqual(['quire', 'setup', 'user-content-quire']);
    expect(page.html).toContain('name="user-content-getElementById"');
    expect(page.html).toContain('href="#setup"');
    expect(page.toc.map((t) => t.id)).toEqual(['setup']);
  });

  it('prefixes lowercase JSX ids in .mdx pages and keeps tab, accordion and step ids', async () => {
    const source = [
      '## Install',
      '<Tabs>\n<Tab title="npm">n</Tab>\n<Tab title="pnpm">p</Tab>\n</Tabs>',
      '<Accordion title="Why Quire?">w</Accordion>',
      '<Steps>\n<Step title="Write">a</Step>\n</Steps>',
      '<label htmlFor="email">Email</label>\n<div id="email" aria-describedby="install">e</div>',
      '<Accordion id="faq" title="FAQ">f</Accordion>',
    ].join('\n\n');
    const page = await render(source);
    const all = ids(page.html);
    expect(all).toEqual(expect.arrayContaining(['install', 'q-tabs-tab-0', 'q-tabs-panel-1', 'why-quire', 'write']));
    expect(page.html).toContain('aria-controls="q-tabs-panel-0"');
    expect(page.html).toContain('aria-labelledby="q-tabs-tab-1"');
    // the author's own ids: a JSX attribute and a component's id prop
    expect(all).toEqual(expect.arrayContaining(['user-content-email', 'user-content-faq']));
    expect(all).not.toContain('email');
    expect(page.html).toContain('for="user-content-email"');
    expect(page.html).toContain('aria-describedby="install"');
  });

  it('keeps the ids of an OpenAPI section appended from the frontmatter', async () => {
    const page = await render('---\nopenapi: GET /users\n---\n\nIntro <span id="body">x</span>\n', {
      renderOpenApi: () => '<section class="q-openapi-section"><h2 id="body">Body</h2></section>',
    });
    expect(ids(page.html)).toEqual(['user-content-body', 'body']);
  });
});
