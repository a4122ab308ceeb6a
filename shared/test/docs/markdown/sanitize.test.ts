/** The shared sanitizer against the OWASP XSS cheat sheet classics (decisions.md section 10). */
import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from '../../../src/docs/markdown/sanitize';

/** Nothing in the output may run script: no script/style elements, no handlers, no script URLs. */
function expectInert(html: string): void {
  expect(html).not.toMatch(/<script|<style|<object|<embed|<base|<meta|<form|<link/i);
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/(href|src|action|poster|formaction|xlink:href)\s*=\s*"?\s*(javascript|vbscript|data):/i);
  expect(html).not.toMatch(/srcdoc/i);
}

const VECTORS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>',
  '<IMG SRC="javascript:alert(\'XSS\');">',
  '<IMG SRC=JaVaScRiPt:alert(1)>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)><circle r="1"/></svg>',
  '<svg><use href="data:image/svg+xml,<svg id=x onload=alert(1)>"/></svg>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<BODY ONLOAD=alert(1)>',
  '<object data="https://x.example/x.swf"></object><embed src="https://x.example/x.swf">',
  '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">go</button></form>',
  '<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=https://evil.example">',
  '<div style="background:url(javascript:alert(1))">x</div><span style="behavior:url(x.htc)">y</span>',
  '<style>body{display:none}</style><link rel=stylesheet href=https://evil.example/x.css>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<video poster="javascript:alert(1)"><source src="javascript:alert(1)"></video>',
  '<details open ontoggle=alert(1)><summary>x</summary></details>',
];

describe('sanitizeHtml', () => {
  it.each(VECTORS)('neutralizes %s', (vector) => {
    expectInert(sanitizeHtml(vector));
  });

  it('keeps ordinary prose, tables, media and our component markup', () => {
    const html =
      '<h2 id="a">A</h2><p><a href="/guides/x#y" title="t">x</a> <strong>b</strong></p>' +
      '<div class="q-callout" role="note" data-q-tabs aria-label="Note">n</div>' +
      '<table><tr><td colspan="2">c</td></tr></table><details open><summary>s</summary>d</details>' +
      '<img src="/images/a.png" alt="a" width="10"><video src="https://cdn.example/v.mp4" controls></video>';
    const out = sanitizeHtml(html);
    for (const part of ['id="a"', 'href="/guides/x#y"', 'class="q-callout"', 'data-q-tabs', 'aria-label="Note"', 'colspan="2"', '<details open', 'src="/images/a.png"', 'controls']) {
      expect(out).toContain(part);
    }
  });

  it('allows only color styles on spans and pre (shiki), nothing else', () => {
    const out = sanitizeHtml('<pre style="background-color:#fff;--shiki-dark-bg:#24292e;position:fixed"><span style="color:#D73A49;--shiki-dark:#F97583;font-style:italic;top:0">x</span></pre><div style="color:red">d</div>');
    expect(out).toContain('style="background-color:#fff;--shiki-dark-bg:#24292e"');
    expect(out).toContain('style="color:#D73A49;--shiki-dark:#F97583;font-style:italic"');
    expect(out).toContain('<div>d</div>');
  });

  it('keeps https iframes with a forced sandbox and drops others', () => {
    const out = sanitizeHtml('<iframe src="https://www.youtube.com/embed/x" sandbox="allow-top-navigation" allowfullscreen></iframe><iframe src="http://x.example"></iframe><iframe src="/local"></iframe>');
    expect(out.match(/<iframe/g)).toHaveLength(1);
    expect(out).toContain('src="https://www.youtube.com/embed/x"');
    expect(out).toContain('sandbox="allow-scripts allow-same-origin allow-popups allow-presentation"');
  });

  it('adds rel=noopener to new-window links and forces buttons to type=button', () => {
    const out = sanitizeHtml('<a href="https://x.example" target="_blank">x</a><button type="submit">b</button>');
    expect(out).toContain('rel="noopener noreferrer"');
    expect(out).toContain('<button type="button">');
  });
});

describe('boolean attributes', () => {
  it('keeps bare hidden, open and controls so content hidden by the author stays hidden', () => {
    const out = sanitizeHtml('<div hidden>secret draft</div><details open><summary>s</summary></details><video controls src="https://x.test/v.mp4"></video>');
    expect(out).toContain('<div hidden');
    expect(out).toContain('<details open');
    expect(out).toMatch(/<video[^>]*controls/);
  });
});
