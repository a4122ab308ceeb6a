import { describe, expect, it } from 'vitest';
import { createSiteRenderer, type SiteRendererInput } from '../../src/site/index';
import { withBasePath } from '../../src/site/site-versions';
import { defaultVersion, versionOfPath, versionRefCandidates } from '../../src/docs/versions';
import type { SiteConfig } from '../../src/docs/types';

const versioning: SiteConfig['versioning'] = {
  versions: [
    { label: 'v3', default: true },
    { label: 'v2', branch: 'release-2' },
    { label: 'v1', tag: 'v1.0.0', branch: 'old', deprecated: true, deprecationMessage: 'v1 is <gone> soon.' },
    { label: 'v0', deprecated: true },
  ],
};

function render(basePath: string, site: Partial<SiteConfig> = { versioning }) {
  const input: SiteRendererInput = {
    site: { name: 'Acme', redirects: [], ...site } as SiteConfig,
    nav: [{ type: 'group', title: 'Start', children: [{ type: 'page', path: 'index', title: 'Home' }, { type: 'page', path: 'guides/setup', title: 'Setup' }] }],
    assets: { css: '/a.css', js: '/a.js', themeJs: '/t.js' },
    siteCss: '/s.css',
    basePath,
  } as SiteRendererInput;
  return createSiteRenderer(input);
}

describe('documentation versions in pages', () => {
  it('lists every version in the switcher with latest and deprecated badges, keeping the page path', () => {
    const html = render('/v2').page({ path: 'guides/setup', title: 'Setup', html: '<p>x</p>', toc: [] });
    expect(html).toContain('<a href="/guides/setup?_quire_from=switcher"><span class="q-switcher-text"><span class="q-switcher-title">v3 <span class="q-badge q-badge-sm q-badge-green q-version-badge">latest</span>');
    expect(html).toContain('<a href="/v2/guides/setup?_quire_from=switcher" aria-current="true">');
    expect(html).toContain('<a href="/v1/guides/setup?_quire_from=switcher"><span class="q-switcher-text"><span class="q-switcher-title">v1 <span class="q-badge q-badge-sm q-badge-deprecated q-version-badge">deprecated</span>');
    expect(html).toContain('<summary aria-label="Version: v2">');
    expect(html).not.toContain('q-version-banner');
  });

  it('shows a deprecated version its banner, with its message escaped and a link to the same page on latest', () => {
    const html = render('/v1').page({ path: 'guides/setup', title: 'Setup', html: '<p>x</p>', toc: [] });
    expect(html).toContain('<div class="q-banner q-version-banner" role="note" aria-label="Deprecated version"><p>v1 is &lt;gone&gt; soon. <a href="/guides/setup?_quire_from=switcher">Go to the latest version (v3)</a></p></div>');
    const v0 = render('/v0').notFound();
    expect(v0).toContain('You are reading the documentation of v0, a deprecated version. <a href="/?_quire_from=switcher">');
  });

  it('shows no switcher with one version or none', () => {
    const one = render('', { versioning: { versions: [{ label: 'v1' }] } }).page({ path: 'index', title: 'Home', html: '', toc: [] });
    expect(one).not.toContain('q-switcher-versions');
    expect(one).not.toContain('quire:versions');
    expect(render('', {}).page({ path: 'index', title: 'Home', html: '', toc: [] })).not.toContain('q-switcher-versions');
  });

  it('puts the base path in front of root-relative links of a page body only', () => {
    const body = '<a href="/guides/setup">a</a><img src="/img/a.png" alt=""><a href="//cdn.example/x">b</a><a href="https://x.test/">c</a><a href="#top">d</a><a href="rel">e</a>';
    expect(withBasePath(body, '/v1')).toBe('<a href="/v1/guides/setup">a</a><img src="/v1/img/a.png" alt=""><a href="//cdn.example/x">b</a><a href="https://x.test/">c</a><a href="#top">d</a><a href="rel">e</a>');
    expect(withBasePath(body, '')).toBe(body);
  });
});

describe('version rules', () => {
  it('takes the version marked default, else the first listed', () => {
    expect(defaultVersion(versioning!.versions)?.label).toBe('v3');
    expect(defaultVersion([{ label: 'a' }, { label: 'b' }])?.label).toBe('a');
    expect(defaultVersion([])).toBeUndefined();
  });

  it('resolves refs by precedence: tag, then branch, then the label as a branch', () => {
    expect(versionRefCandidates(versioning!.versions[2]!).map((r) => r.ref)).toEqual(['refs/tags/v1.0.0', 'refs/heads/old', 'refs/heads/v1']);
    expect(versionRefCandidates({ label: 'v2' }).map((r) => r.ref)).toEqual(['refs/heads/v2']);
  });

  it('finds the non-default version a path names', () => {
    expect(versionOfPath(versioning!.versions, 'v1/guides/setup')).toMatchObject({ version: { label: 'v1' }, rest: 'guides/setup' });
    expect(versionOfPath(versioning!.versions, 'v2')).toMatchObject({ version: { label: 'v2' }, rest: '' });
    expect(versionOfPath(versioning!.versions, 'v3/guides')).toBeUndefined();
    expect(versionOfPath(versioning!.versions, 'guides/v1')).toBeUndefined();
  });
});
