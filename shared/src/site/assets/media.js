/* Missing images in page content: an image whose file cannot be loaded (the build warned about it:
   `missing-image`) is replaced by a styled placeholder naming it by its alt text, instead of the
   browser's broken-image icon. Images that failed before this deferred script ran are found by
   decode() rejecting; later ones by the error event (captured: it does not bubble). Icons and
   logos are left alone. Vanilla, no inline handlers (CSP). */
(function () {
  'use strict';
  var SELECTOR = '.q-prose img:not(.q-icon-img):not(.q-icon)';

  function placeholder(img) {
    if (!img.parentNode || !img.matches(SELECTOR)) return;
    var alt = (img.getAttribute('alt') || '').trim();
    var box = document.createElement('span');
    box.className = 'q-img-missing';
    box.setAttribute('role', 'img');
    box.setAttribute('aria-label', alt ? 'Image not available: ' + alt : 'Image not available');
    box.setAttribute('data-src', img.getAttribute('src') || '');
    var icon = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    icon.setAttribute('viewBox', '0 0 24 24');
    icon.setAttribute('class', 'q-icon');
    icon.setAttribute('fill', 'none');
    icon.setAttribute('stroke', 'currentColor');
    icon.setAttribute('stroke-width', '2');
    icon.setAttribute('aria-hidden', 'true');
    icon.innerHTML = '<rect x="3" y="3" width="18" height="18" rx="2"/><circle cx="9" cy="9" r="2"/><path d="m21 15-3.1-3.1a2 2 0 0 0-2.8 0L6 21"/><path d="m3 3 18 18"/>';
    var text = document.createElement('span');
    text.className = 'q-img-missing-text';
    text.textContent = alt || 'Image not available';
    box.appendChild(icon);
    box.appendChild(text);
    img.replaceWith(box);
  }

  document.addEventListener('error', function (event) {
    var t = event.target;
    if (t && t.tagName === 'IMG') placeholder(t);
  }, true);

  Array.prototype.forEach.call(document.querySelectorAll(SELECTOR), function (img) {
    if (img.complete && img.naturalWidth === 0 && img.getAttribute('src') && typeof img.decode === 'function') {
      img.decode().catch(function () { placeholder(img); });
    }
  });
})();
