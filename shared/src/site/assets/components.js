/* Quire page components (shared/src/docs/markdown): tabs and code groups with a synced choice, copy
   buttons with a "Copied" state, deep-linkable accordions, image zoom. Vanilla, no dependencies, no
   inline handlers (the site's CSP allows only its own scripts). Everything works from data attributes
   emitted by the renderer: data-q-tabs / data-q-tab / data-q-panel / data-sync, data-q-copy; and the
   glossary tooltips' Escape (.q-glossary). */
(function () {
  'use strict';
  var SYNC_KEY = 'quire:tab-choice';

  /* ---------- tabs and code groups ---------- */
  function tabsOf(set) {
    var list = set.querySelector(':scope > .q-tablist');
    return list ? Array.prototype.slice.call(list.querySelectorAll(':scope > [data-q-tab]')) : [];
  }
  function select(set, index, focus) {
    var tabs = tabsOf(set);
    if (!tabs[index]) return;
    tabs.forEach(function (t, i) {
      t.setAttribute('aria-selected', String(i === index));
      t.tabIndex = i === index ? 0 : -1;
    });
    Array.prototype.forEach.call(set.querySelectorAll(':scope > [data-q-panel]'), function (p) {
      p.hidden = p.getAttribute('data-q-panel') !== String(index);
    });
    if (focus) tabs[index].focus();
  }
  function selectLabel(label, except) {
    Array.prototype.forEach.call(document.querySelectorAll('[data-q-tabs]'), function (set) {
      if (set === except) return;
      var tabs = tabsOf(set);
      for (var i = 0; i < tabs.length; i++) {
        if (tabs[i].getAttribute('data-sync') === label) return select(set, i, false);
      }
    });
  }
  function remember(label) {
    try { localStorage.setItem(SYNC_KEY, label); } catch { /* private mode */ }
  }

  document.addEventListener('click', function (event) {
    var tab = event.target.closest && event.target.closest('[data-q-tab]');
    if (!tab) return;
    var set = tab.closest('[data-q-tabs]');
    if (!set) return;
    var top = tab.getBoundingClientRect().top;
    select(set, tabsOf(set).indexOf(tab), false);
    var label = tab.getAttribute('data-sync');
    if (label) {
      selectLabel(label, set);
      remember(label);
    }
    // keep the clicked tab where it was when other groups above it changed height
    var shift = tab.getBoundingClientRect().top - top;
    if (shift) window.scrollBy(0, shift);
  });

  document.addEventListener('keydown', function (event) {
    var tab = event.target.closest && event.target.closest('[data-q-tab]');
    if (!tab) return;
    var set = tab.closest('[data-q-tabs]');
    var tabs = tabsOf(set);
    var i = tabs.indexOf(tab);
    var next = event.key === 'ArrowRight' ? i + 1 : event.key === 'ArrowLeft' ? i - 1 : event.key === 'Home' ? 0 : event.key === 'End' ? tabs.length - 1 : -2;
    if (next === -2) return;
    event.preventDefault();
    select(set, (next + tabs.length) % tabs.length, true);
  });

  function initTabs() {
    var saved = null;
    try { saved = localStorage.getItem(SYNC_KEY); } catch { /* ignore */ }
    Array.prototype.forEach.call(document.querySelectorAll('[data-q-tabs]'), function (set) {
      tabsOf(set).forEach(function (t) { t.tabIndex = t.getAttribute('aria-selected') === 'true' ? 0 : -1; });
    });
    if (saved) selectLabel(saved, null);
  }

  /* ---------- copy buttons ---------- */
  function copyText(text) {
    if (navigator.clipboard && navigator.clipboard.writeText) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {
      var area = document.createElement('textarea');
      area.value = text;
      area.setAttribute('readonly', '');
      area.style.position = 'fixed';
      area.style.opacity = '0';
      document.body.appendChild(area);
      area.select();
      var ok = document.execCommand('copy');
      document.body.removeChild(area);
      if (ok) resolve(); else reject(new Error('copy failed'));
    });
  }
  document.addEventListener('click', function (event) {
    var button = event.target.closest && event.target.closest('[data-q-copy]');
    if (!button) return;
    var frame = button.closest('.q-code') || button.parentElement; // a titled block's button is in its title bar
    var source = frame && (frame.querySelector('pre') || frame.querySelector('[data-q-copy-source]'));
    if (!source) return;
    copyText(source.innerText.replace(/\n$/, '')).then(function () {
      var label = button.getAttribute('aria-label');
      button.classList.add('q-copied');
      button.setAttribute('aria-label', 'Copied');
      setTimeout(function () {
        button.classList.remove('q-copied');
        button.setAttribute('aria-label', label || 'Copy code');
      }, 2000);
    }, function () { /* clipboard refused: leave the button as is */ });
  });

  /* ---------- deep links into accordions, expandables and tabs ---------- */
  // Ids and names written by authors carry the sanitizer's user-content- prefix (DOM clobbering), so
  // #x also means id="user-content-x" (or <a name="user-content-x">) when no element has the id x.
  var USER_PREFIX = 'user-content-';
  function hashTarget(id) {
    var own = document.getElementById(id);
    if (own) return { el: own, prefixed: false };
    var user = document.getElementById(USER_PREFIX + id);
    if (!user) {
      user = Array.prototype.filter.call(document.getElementsByName(USER_PREFIX + id), function (el) { return el.tagName === 'A'; })[0];
    }
    return user ? { el: user, prefixed: true } : null;
  }
  function revealHash() {
    var id;
    try { id = decodeURIComponent(window.location.hash.slice(1)); } catch { id = window.location.hash.slice(1); }
    if (!id) return;
    var found = hashTarget(id);
    if (!found) return;
    var target = found.el;
    var opened = found.prefixed; // the browser found no element for the hash: scroll to it ourselves
    for (var el = target; el; el = el.parentElement) {
      if (el.tagName === 'DETAILS' && !el.open) { el.open = true; opened = true; }
      var panel = el.getAttribute && el.getAttribute('data-q-panel');
      if (panel !== null && panel !== undefined && el.parentElement && el.parentElement.hasAttribute('data-q-tabs') && el.hidden) {
        select(el.parentElement, Number(panel), false);
        opened = true;
      }
    }
    if (opened) target.scrollIntoView();
  }
  window.addEventListener('hashchange', revealHash);
  // keep the URL in sync when a reader opens an accordion, so the address can be shared
  document.addEventListener('toggle', function (event) {
    var d = event.target;
    if (d && d.classList && d.classList.contains('q-accordion') && d.open && d.id && window.history.replaceState) {
      window.history.replaceState(null, '', '#' + d.id);
    }
  }, true);

  /* ---------- image zoom ---------- */
  var overlay = null;
  function closeZoom() {
    if (!overlay) return;
    overlay.remove();
    overlay = null;
    document.documentElement.classList.remove('q-zoom-open');
  }
  document.addEventListener('click', function (event) {
    if (overlay) { closeZoom(); return; }
    var img = event.target.closest && event.target.closest('.q-prose img');
    if (!img || img.closest('a, button, .q-card, .q-tile, .q-icon, .q-no-zoom')) return;
    overlay = document.createElement('div');
    overlay.className = 'q-zoom-overlay';
    overlay.setAttribute('role', 'dialog');
    overlay.setAttribute('aria-label', img.alt || 'Image');
    var big = document.createElement('img');
    big.src = img.currentSrc || img.src;
    big.alt = img.alt || '';
    overlay.appendChild(big);
    document.body.appendChild(overlay);
    document.documentElement.classList.add('q-zoom-open');
  });
  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape') closeZoom();
  });

  /* Glossary tooltips: Escape hides the one shown (WCAG 1.4.13: dismissable without moving focus);
     it shows again once the pointer or focus leaves and comes back. */
  document.addEventListener('keydown', function (event) {
    if (event.key !== 'Escape') return;
    Array.prototype.forEach.call(document.querySelectorAll('.q-glossary:hover, .q-glossary:focus-within'), function (g) {
      g.classList.add('q-glossary-dismissed');
    });
  });
  function undismiss(event) {
    var g = event.target.closest && event.target.closest('.q-glossary');
    if (g && !(event.relatedTarget && g.contains(event.relatedTarget))) g.classList.remove('q-glossary-dismissed');
  }
  document.addEventListener('mouseout', undismiss);
  document.addEventListener('focusout', undismiss);

  function init() {
    initTabs();
    revealHash();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
