import { describe, expect, it } from 'vitest';
import { claimsKey, findUserMarks, personaliseHtml } from '../../src/sites/personalise';

/** The request-time substitution on built HTML (server/src/sites/personalise.ts), without a server. */

const page = (body: string, head = '') =>
  Buffer.from(`<!doctype html><html><head>${head}<title>t</title></head><body><nav><span data-quire-user="name">chrome</span></nav>` +
    `<div class="q-prose">${body}</div><footer class="q-page-footer">f</footer></body></html>`);

describe('placeholders in built pages', () => {
  it('finds placeholders in the page body only, not in the chrome', () => {
    const html = page('Hi <span data-quire-user="name">there</span> and <span data-quire-user="plan">free</span>');
    const found = findUserMarks(html)!;
    expect(found.marks.map((m) => m.field)).toEqual(['name', 'plan']);
    const out = personaliseHtml(html, found, { fields: { name: 'Zoë', plan: 'pro' } }).toString('utf8');
    expect(out).toContain('Hi <span data-quire-user="name">Zoë</span> and <span data-quire-user="plan">pro</span>');
    expect(out).toContain('<nav><span data-quire-user="name">chrome</span></nav>');
  });

  it('keeps the fallback for a claim the reader lacks, and never reads inherited properties', () => {
    const html = page('<span data-quire-user="constructor">x</span><span data-quire-user="company">your team</span>');
    const out = personaliseHtml(html, findUserMarks(html)!, { fields: { name: 'Ada' } }).toString('utf8');
    expect(out).toContain('<span data-quire-user="constructor">x</span><span data-quire-user="company">your team</span>');
  });

  it('escapes claims as text', () => {
    const html = page('<span data-quire-user="name">there</span>');
    const out = personaliseHtml(html, findUserMarks(html)!, { fields: { name: `</span><script>alert("x")</script>&'` } }).toString('utf8');
    expect(out).toContain('<span data-quire-user="name">&lt;/span&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</span>');
    expect(out).not.toContain('<script>');
  });

  it('ignores lookalikes that are not the builder placeholder (other attributes, markup inside, bad field names)', () => {
    const html = page('<span data-quire-user="name" class="x">a</span><span data-quire-user="name"><b>b</b></span><span data-quire-user="a-b">c</span>');
    expect(findUserMarks(html)).toBeNull();
  });

  it('a page without placeholders or playground has no marks; a playground page gets the inputs after <head>', () => {
    expect(findUserMarks(page('plain text'))).toBeNull();
    const html = page('<div class="q-openapi" data-q-playground="{}"></div>');
    const found = findUserMarks(html)!;
    const out = personaliseHtml(html, found, { fields: {}, apiPlaygroundInputs: { header: { 'X-API-Key': 'k"<' } } }).toString('utf8');
    expect(out).toContain('<head><meta name="quire-playground-inputs" content="{&quot;header&quot;:{&quot;X-API-Key&quot;:&quot;k\\&quot;&lt;&quot;}}"><title>');
    // without inputs the page is unchanged
    expect(personaliseHtml(html, found, { fields: { name: 'Ada' } })).toBe(html);
  });

  it('claim sets are keyed whatever the order of their keys', () => {
    expect(claimsKey({ fields: { a: '1', b: '2' } })).toBe(claimsKey({ fields: { b: '2', a: '1' } }));
    expect(claimsKey({ fields: { a: '1' } })).not.toBe(claimsKey({ fields: { a: '2' } }));
  });
});
