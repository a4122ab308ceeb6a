/** The visual mode shows an image block's picture from where the preview serves the project's files. */
import { describe, expect, it } from 'vitest';
import { imageDisplayUrl } from '../src/renderer/visual/image-url';

const base = { basePath: '/_quire-preview/local%3Aab12', pagePath: 'guides/setup' };

describe('imageDisplayUrl', () => {
  it('maps the project\'s root-relative images into the preview\'s URL space', () => {
    expect(imageDisplayUrl('/images/a.png', base)).toBe('/_quire-preview/local%3Aab12/images/a.png');
    expect(imageDisplayUrl('/images/my%20file.png', base)).toBe('/_quire-preview/local%3Aab12/images/my%20file.png');
  });

  it('resolves a page-relative image against the page\'s URL on the site', () => {
    expect(imageDisplayUrl('shot.png', base)).toBe('/_quire-preview/local%3Aab12/guides/shot.png');
    expect(imageDisplayUrl('../images/a.png', base)).toBe('/_quire-preview/local%3Aab12/images/a.png');
    expect(imageDisplayUrl('./a b.png', { ...base, pagePath: 'index' })).toBe('/_quire-preview/local%3Aab12/a%20b.png');
  });

  it('loads web images as written and shows no picture for other schemes or an empty URL', () => {
    expect(imageDisplayUrl('https://example.com/a.png', base)).toBe('https://example.com/a.png');
    expect(imageDisplayUrl('//cdn.example.com/a.png', base)).toBe('https://cdn.example.com/a.png');
    expect(imageDisplayUrl('data:image/png;base64,AAAA', base)).toBeNull();
    expect(imageDisplayUrl('javascript:alert(1)', base)).toBeNull();
    expect(imageDisplayUrl('  ', base)).toBeNull();
  });
});
