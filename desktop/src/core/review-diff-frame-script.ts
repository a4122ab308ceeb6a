/**
 * The rendered diff's part of the preview frame's script (served with preview-frame-script.ts as
 * `frame.js`, preview-files.ts). The rendered diff of a review (desktop/src/renderer/components/reviews/
 * RenderedDiff.tsx) runs in a sandboxed frame with an opaque origin and the app's CSP (no inline
 * scripts), so what its document needs to act runs here, and does nothing in a document without these marks:
 * - a click on a `button[data-quire-unfold="<k>"]` ("Show N unchanged lines") shows the blocks marked
 *   `data-quire-fold="<k>"`, removes the button and focuses the first block shown;
 * - a message `{type: 'quire-diff-change', index, focus}` from the parent window scrolls the block of
 *   change `index` (`data-quire-change="<index>"`, 0-based) to the middle and focuses it when `focus`;
 * - F7 / Shift+F7 pressed inside the frame are posted to the parent as `{type: 'quire-diff-key', shift}`
 *   (the review's "Next change" / "Previous change" keys, so they work wherever the focus is).
 * Messages from anything but the parent window are ignored.
 */
export const REVIEW_DIFF_FRAME_SCRIPT = `(function () {
  'use strict';
  function focusQuietly(el) {
    if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
    el.focus({ preventScroll: true });
  }
  document.addEventListener('click', function (event) {
    var button = event.target && event.target.closest ? event.target.closest('button[data-quire-unfold]') : null;
    if (!button) return;
    var fold = button.getAttribute('data-quire-unfold');
    var blocks = document.querySelectorAll('[data-quire-fold="' + fold + '"]');
    for (var i = 0; i < blocks.length; i++) blocks[i].removeAttribute('hidden');
    button.remove();
    if (blocks.length) focusQuietly(blocks[0]);
  });
  window.addEventListener('message', function (event) {
    if (event.source !== window.parent) return;
    var data = event.data;
    if (!data || data.type !== 'quire-diff-change' || typeof data.index !== 'number') return;
    var block = document.querySelector('[data-quire-change="' + data.index + '"]');
    if (!block) return;
    block.scrollIntoView({ block: 'center', behavior: 'instant' });
    if (data.focus) focusQuietly(block);
  });
  document.addEventListener('keydown', function (event) {
    if (event.key !== 'F7' || !document.querySelector('[data-quire-change]')) return;
    event.preventDefault();
    window.parent.postMessage({ type: 'quire-diff-key', shift: event.shiftKey }, '*');
  });
})();
`;
