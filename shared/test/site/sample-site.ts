/**
 * A sample site for the theme's tests and the screenshot preview: tabs, anchors (one external),
 * a version switcher, groups with nested groups, an OpenAPI page with a method badge, navbar,
 * footer, and a page body exercising the prose styles.
 */
import type { NavNode, SiteConfig, TocEntry } from '../../src/docs/types';

/** A docs.json-like config after loading. */
export function sampleSite(overrides: Partial<SiteConfig> = {}): SiteConfig {
  return {
    source: 'docs.json',
    name: 'Acme',
    description: 'Acme developer documentation',
    colors: { primary: '#0E7C66', light: '#3DD6B0', dark: '#0A5E4E' },
    navbar: {
      links: [{ label: 'Support', href: 'mailto:help@acme.test' }, { label: 'Blog', href: 'https://acme.test/blog' }],
      primary: { label: 'Dashboard', href: 'https://app.acme.test' },
    },
    footer: {
      socials: [{ type: 'github', href: 'https://github.com/acme' }, { type: 'x', href: 'https://x.com/acme' }],
      links: [{ header: 'Company', items: [{ label: 'About', href: 'https://acme.test/about' }, { label: 'Careers', href: 'https://acme.test/jobs' }] }],
    },
    redirects: [],
    variables: {},
    navigation: [],
    openapi: [],
    raw: {},
    ...overrides,
  };
}

/** Navigation: three tabs (one external); anchors (two external), groups, nested groups, a hidden page, API pages with methods. */
export function sampleNav(): NavNode[] {
  return [
    {
      type: 'division', kind: 'tab', title: 'Guides', children: [
        { type: 'division', kind: 'anchor', title: 'Documentation', icon: 'book-open', children: [
        {
          type: 'group', title: 'Get started', children: [
            { type: 'page', path: 'index', title: 'Introduction', icon: 'house' },
            { type: 'page', path: 'quickstart', title: 'Quickstart' },
            { type: 'page', path: 'installation', title: 'Installation' },
          ],
        },
        {
          type: 'group', title: 'Core concepts', children: [
            { type: 'page', path: 'concepts/projects', title: 'Projects' },
            {
              type: 'group', title: 'Authentication', children: [
                { type: 'page', path: 'concepts/auth/api-keys', title: 'API keys' },
                { type: 'page', path: 'concepts/auth/oauth', title: 'OAuth' },
              ],
            },
            {
              type: 'group', title: 'Deployments', tag: 'NEW', children: [
                { type: 'page', path: 'concepts/deploy/previews', title: 'Preview deployments' },
              ],
            },
            { type: 'page', path: 'concepts/secret', title: 'Secret page', hidden: true },
          ],
        },
        ] },
        { type: 'division', kind: 'anchor', title: 'Community', icon: 'discord', href: 'https://discord.gg/acme', children: [] },
        { type: 'division', kind: 'anchor', title: 'Changelog', icon: 'newspaper', href: 'https://acme.test/changelog', children: [] },
      ],
    },
    {
      type: 'division', kind: 'tab', title: 'API reference', children: [
        {
          type: 'group', title: 'Users', children: [
            { type: 'page', path: 'api/users/list', title: 'List users', method: 'GET' },
            { type: 'page', path: 'api/users/create', title: 'Create a user', method: 'POST' },
            { type: 'page', path: 'api/users/delete', title: 'Delete a user', method: 'DELETE' },
          ],
        },
      ],
    },
    { type: 'division', kind: 'tab', title: 'Status', href: 'https://status.acme.test', children: [] },
  ];
}

/** The table of contents of {@link SAMPLE_BODY}. */
export const SAMPLE_TOC: TocEntry[] = [
  { depth: 2, id: 'create-a-key', text: 'Create a key' },
  { depth: 3, id: 'scopes', text: 'Scopes' },
  { depth: 2, id: 'use-the-key', text: 'Use the key' },
  { depth: 2, id: 'rotate-keys', text: 'Rotate keys' },
];

/** A page body like the Markdown renderer produces (shiki spans with --shiki-dark variables). */
export const SAMPLE_BODY = `<p>API keys authenticate server-to-server requests. Each key belongs to one <a href="/concepts/projects">project</a> and carries the <code>read</code> or <code>write</code> scope. Keep keys secret: anyone holding one can act as your project.</p>
<h2 id="create-a-key">Create a key</h2>
<p>Open <strong>Settings → API keys</strong> in the dashboard and choose <em>New key</em>. The secret is shown once.</p>
<ol><li>Pick a name that says where the key is used.</li><li>Choose the scopes.</li><li>Copy the secret into your secret manager.</li></ol>
<h3 id="scopes">Scopes</h3>
<table><thead><tr><th>Scope</th><th>Allows</th><th>Typical use</th></tr></thead><tbody><tr><td><code>read</code></td><td>GET requests on every resource of the project</td><td>Dashboards, reporting jobs</td></tr><tr><td><code>write</code></td><td>Every request, including deletes</td><td>Deploy pipelines</td></tr></tbody></table>
<h2 id="use-the-key">Use the key</h2>
<p>Send the key in the <code>Authorization</code> header:</p>
<pre class="shiki shiki-themes github-light github-dark" style="background-color:#fff;--shiki-dark-bg:#24292e;color:#24292e;--shiki-dark:#e1e4e8" tabindex="0"><code><span class="line"><span style="color:#6F42C1;--shiki-dark:#B392F0">curl</span><span style="color:#032F62;--shiki-dark:#9ECBFF"> https://api.acme.test/v1/users</span><span style="color:#005CC5;--shiki-dark:#79B8FF"> \\</span></span>
<span class="line"><span style="color:#005CC5;--shiki-dark:#79B8FF">  -H</span><span style="color:#032F62;--shiki-dark:#9ECBFF"> "Authorization: Bearer $ACME_KEY"</span></span></code></pre>
<blockquote><p>Keys never appear in URLs: query-string keys are refused with <code>401</code>.</p></blockquote>
<h2 id="rotate-keys">Rotate keys</h2>
<ul><li>Create the new key first.</li><li>Deploy it everywhere the old one is used.</li><li>Revoke the old key; requests with it answer <code>401</code> from then on.</li></ul>
<p>That is all. Continue with <a href="/concepts/auth/oauth">OAuth</a> for user-facing apps.</p>`;
