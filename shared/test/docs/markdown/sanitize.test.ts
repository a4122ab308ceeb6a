/** The shared sanitizer against the OWASP XSS cheat sheet classics (decisions.md section 10). */
import { describe, expect, it } from 'vitest';
import { IFRAME_SANDBOX, sanitizeHtml } from '../../../src/docs/markdown/sanitize';

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
    for (const part of ['id="user-content-a"', 'href="/guides/x#y"', 'class="q-callout"', 'data-q-tabs', 'aria-label="Note"', 'colspan="2"', '<details open', 'src="/images/a.png"', 'controls']) {
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
    expect(out).toContain(`sandbox="${IFRAME_SANDBOX}"`);
    expect(out).toContain('allowfullscreen');
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

/** The sandbox tokens of the first iframe in `html`. */
function sandboxOf(html: string): string[] {
  return (/<iframe[^>]*\ssandbox="([^"]*)"/.exec(html)?.[1] ?? '').split(/\s+/);
}

describe('iframes (embedded players)', () => {
  it('never lets a framed page run script with the same origin (it could lift its own sandbox)', () => {
    const out = sanitizeHtml('<iframe src="https://www.youtube.com/embed/x" sandbox="allow-scripts allow-same-origin"></iframe>');
    const tokens = sandboxOf(out);
    expect(tokens).toContain('allow-scripts');
    expect(tokens).not.toContain('allow-same-origin');
    expect(tokens).not.toContain('allow-top-navigation');
  });

  it('passes only harmless permissions in allow=, and only for the frame itself', () => {
    const out = sanitizeHtml(
      '<iframe src="https://player.example/v/1" allow="camera; microphone; Fullscreen; autoplay *; ' +
        "picture-in-picture 'self'; geolocation; payment; usb; serial; display-capture; encrypted-media 'src'; " +
        'clipboard-write https://evil.example; web-share; made-up-feature"></iframe>',
    );
    expect(out).toContain(`allow="fullscreen; picture-in-picture 'self'; encrypted-media 'src'; web-share"`);
  });

  it('drops allow= when nothing in it is harmless', () => {
    const out = sanitizeHtml('<iframe src="https://player.example/v/1" allow="camera *; microphone"></iframe>');
    expect(out).toContain('<iframe');
    expect(out).not.toContain('allow=');
  });
});

describe('author ids and names (DOM clobbering)', () => {
  it('prefixes author ids and names so they cannot shadow document or window properties', () => {
    const out = sanitizeHtml(
      '<img name="getElementById" src="/a.png" alt=""><img id="body" name="x" src="/b.png" alt=""><a id="quire" href="/x">q</a>' +
        '<a name="cookie">c</a><iframe name="location" src="https://player.example/v"></iframe><div id="q-sidebar">s</div>',
    );
    for (const attr of ['id="user-content-body"', 'id="user-content-quire"', 'name="user-content-cookie"', 'name="user-content-location"', 'id="user-content-q-sidebar"']) {
      expect(out).toContain(attr);
    }
    expect(out).not.toMatch(/\s(id|name)="(?!user-content-)/);
  });

  it('keeps labels, table headers and aria references pointing at the prefixed ids', () => {
    const out = sanitizeHtml(
      '<label for="agree">Agree</label><input id="agree" type="checkbox">' +
        '<table><tr><th id="h1">A</th></tr><tr><td headers="h1">1</td></tr></table>' +
        '<p id="help">Help</p><div role="region" aria-labelledby="help missing" aria-describedby="help">r</div>',
    );
    expect(out).toContain('for="user-content-agree"');
    expect(out).toContain('id="user-content-agree"');
    expect(out).toContain('headers="user-content-h1"');
    expect(out).toContain('aria-labelledby="user-content-help user-content-missing"');
    expect(out).toContain('aria-describedby="user-content-help"');
  });

  it('keeps the ids the engine generated, and references to them, unless document exposes the element by id', () => {
    const ownIds = new Set(['setup', 'q-tabs-tab-0', 'q-tabs-panel-0']);
    const out = sanitizeHtml(
      '<template id="setup"></template><h2 id="setup">Setup</h2><button role="tab" id="q-tabs-tab-0" aria-controls="q-tabs-panel-0">A</button>' +
        '<div role="tabpanel" id="q-tabs-panel-0" aria-labelledby="q-tabs-tab-0">a</div><div id="notes">n</div><img id="setup" name="n" src="/a.png" alt=""><p id="setup">copy</p>',
      { ownIds },
    );
    expect(out).toContain('<h2 id="setup">');
    expect(out).toContain('id="q-tabs-tab-0" aria-controls="q-tabs-panel-0"');
    expect(out).toContain('id="q-tabs-panel-0" aria-labelledby="q-tabs-tab-0"');
    expect(out).toContain('id="user-content-notes"');
    expect(out).toContain('<img id="user-content-setup"');
    expect(out).toContain('<p id="user-content-setup">copy</p>'); // an author's copy of an engine id
  });

  it('is stable when run twice (a prefixed id is not prefixed again)', () => {
    const once = sanitizeHtml('<p id="a" aria-describedby="a">x</p><a name="b">b</a>');
    expect(sanitizeHtml(once)).toBe(once);
  });
});
