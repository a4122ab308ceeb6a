/**
 * The preview frame's own script, served by the core as `/_quire-preview/_assets/frame.js`
 * (preview-files.ts) and loaded by every preview document (preview-render.ts). The frame runs the
 * site's scripts in an opaque origin (sandbox `allow-scripts` without `allow-same-origin`), so the
 * app cannot reach into it: it posts `{type: 'quire-preview-scroll', line}` (the editor's first
 * visible line, 1-based) and this script scrolls the block rendered from that line to just below the
 * site's sticky header. The mapping: the blocks rendered from the page carry `data-line`
 * (shared/src/docs/markdown/source-lines.ts, preview renders only); the line's offset is the top of the
 * last block starting at or before it, interpolated towards the next block by line. Line 1 (or a line
 * before the first block) is the top of the page. Messages from anything but the parent window are
 * ignored. This string is the only implementation (desktop/test/preview-scroll.test.ts runs it).
 */
export const PREVIEW_FRAME_SCRIPT = `(function () {
  'use strict';
  function anchorsOf() {
    var scrollTop = window.scrollY || 0;
    var out = [];
    var blocks = document.querySelectorAll('[data-line]');
    for (var i = 0; i < blocks.length; i++) {
      var line = Number(blocks[i].getAttribute('data-line'));
      if (!isFinite(line) || line < 1) continue;
      out.push({ line: line, top: blocks[i].getBoundingClientRect().top + scrollTop });
    }
    return out.sort(function (a, b) { return a.line - b.line || a.top - b.top; });
  }
  function offsetForLine(anchors, line) {
    var lo = -1;
    for (var i = 0; i < anchors.length; i++) {
      if (anchors[i].line <= line) lo = i;
      else break;
    }
    if (lo < 0) return 0;
    var a = anchors[lo];
    var b = null;
    for (var j = lo + 1; j < anchors.length; j++) if (anchors[j].line > a.line) { b = anchors[j]; break; }
    if (!b || b.top <= a.top) return a.top;
    return a.top + ((line - a.line) / (b.line - a.line)) * (b.top - a.top);
  }
  window.addEventListener('message', function (event) {
    if (event.source !== window.parent) return;
    var data = event.data;
    if (!data || data.type !== 'quire-preview-scroll' || typeof data.line !== 'number') return;
    var anchors = anchorsOf();
    if (anchors.length === 0) return;
    var header = document.querySelector('.q-header');
    var height = header ? header.getBoundingClientRect().height : 0;
    var top = data.line <= 1 ? 0 : Math.max(0, offsetForLine(anchors, data.line) - height - 8);
    window.scrollTo({ top: top, behavior: 'instant' });
  });
})();
`;
