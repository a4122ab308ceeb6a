import { describe, expect, it } from 'vitest';
import { sitePathOf } from '../../src/deployments/site-path';
import { branchSlug, hostName, parseSiteHost, previewSiteUrl } from '../../src/deployments/site-host';

describe('sitePathOf', () => {
  it('decodes once and drops query, fragment and empty segments', () => {
    expect(sitePathOf('/')).toEqual({ path: '', trailingSlash: false });
    expect(sitePathOf('/guides/setup/?a=1#x')).toEqual({ path: 'guides/setup', trailingSlash: true });
    expect(sitePathOf('/caf%C3%A9.md')).toEqual({ path: 'café.md', trailingSlash: false });
    expect(sitePathOf('/%252e%252e/x')).toEqual({ path: '%2e%2e/x', trailingSlash: false });
  });

  it.each(['/../x', '/a/./b', '/%2e%2e/x', '/a%2f..%2fb', '/a\\\\b', '/a%5cb', '/a%00b', '/%zz', 'x', 'http://evil/'])('refuses %s', (url) => {
    expect(sitePathOf(url)).toBeUndefined();
  });
});

describe('site hosts', () => {
  it('parses production and preview hosts of the sites domain', () => {
    expect(parseSiteHost(hostName('Acme-Docs.localhost:4000'), 'localhost')).toEqual({ slug: 'acme', previewName: '' });
    expect(parseSiteHost('feat-x--my-app-docs.example.com', 'example.com')).toEqual({ slug: 'my-app', previewName: 'feat-x' });
    expect(parseSiteHost('127.0.0.1', 'localhost')).toBeUndefined();
    expect(parseSiteHost('localhost', 'localhost')).toBeUndefined();
    expect(parseSiteHost('a.b-docs.localhost', 'localhost')).toBeNull();
    expect(parseSiteHost('-docs.localhost', 'localhost')).toBeNull();
  });

  it('makes branch slugs that fit one DNS label', () => {
    expect(branchSlug('feature/New_UI', 'acme')).toBe('feature-new-ui');
    expect(branchSlug('///', 'acme')).toBe('branch');
    const long = branchSlug('x'.repeat(100), 'acme');
    expect(`${long}--acme-docs`.length).toBeLessThanOrEqual(63);
    expect(previewSiteUrl('http://acme-docs.localhost:4000/', 'feature-x')).toBe('http://feature-x--acme-docs.localhost:4000/');
  });
});
