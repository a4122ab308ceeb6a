/** `View`: one title's views shown without JavaScript, the others hidden until chosen in the selector. */
import { describe, expect, it } from 'vitest';
import { render } from './render-helpers';

describe('View', () => {
  it('shows the first title and hides the other views, keeping their ids engine-owned', async () => {
    const page = await render(
      '<View title="JavaScript" icon="js">\n\n## Install\n\nnpm\n\n</View>\n\n<View title="Python">\n\npip\n\n</View>\n\n<View title="JavaScript">\n\nmore js\n\n</View>\n',
    );
    const sections = [...page.html.matchAll(/<section class="q-view" id="([^"]+)" data-q-view="([^"]+)" aria-label="[^"]+"( hidden="hidden")?>/g)];
    expect(sections.map((s) => [s[1], s[2], Boolean(s[3])])).toEqual([
      ['q-view', 'JavaScript', false],
      ['q-view-2', 'Python', true],
      ['q-view-3', 'JavaScript', false],
    ]);
    expect(page.toc).toEqual([{ depth: 2, id: 'install', text: 'Install' }]);
  });

  it('escapes the title', async () => {
    const page = await render('<View title={"<b>x</b>"}>a</View>\n');
    expect(page.html).toContain('data-q-view="&lt;b&gt;x&lt;/b&gt;"');
  });
});
