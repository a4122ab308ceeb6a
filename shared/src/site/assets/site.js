// Quire site chrome behaviour (deferred; CSP-safe: no inline handlers, everything bound here by
// data-q-* attributes): theme toggle, navigation drawer, switcher menus,
// "On this page" scroll-spy, banner dismissal, heading anchor links (feedback: feedback.js).
(function () {
  var doc = document;
  var root = doc.documentElement;
  var $ = function (sel, ctx) { return (ctx || doc).querySelector(sel); };
  var $$ = function (sel, ctx) { return Array.prototype.slice.call((ctx || doc).querySelectorAll(sel)); };
  var store = {
    get: function (k) { try { return localStorage.getItem(k); } catch { return null; } },
    set: function (k, v) { try { localStorage.setItem(k, v); } catch { /* storage unavailable */ } },
  };

  // Theme toggle: flips light/dark and remembers the choice.
  function syncToggle() {
    var dark = root.getAttribute('data-theme') === 'dark';
    $$('[data-q-theme-toggle]').forEach(function (b) {
      b.setAttribute('aria-pressed', dark ? 'true' : 'false');
      b.setAttribute('aria-label', dark ? 'Switch to light mode' : 'Switch to dark mode');
    });
  }
  $$('[data-q-theme-toggle]').forEach(function (b) {
    b.addEventListener('click', function () {
      var next = root.getAttribute('data-theme') === 'dark' ? 'light' : 'dark';
      root.setAttribute('data-theme', next);
      store.set('quire-theme', next);
      syncToggle();
    });
  });
  syncToggle();
  if (window.matchMedia && !root.hasAttribute('data-theme-strict')) {
    var mq = window.matchMedia('(prefers-color-scheme: dark)');
    var follow = function () {
      if (store.get('quire-theme') || root.getAttribute('data-default-theme') !== 'system') return;
      root.setAttribute('data-theme', mq.matches ? 'dark' : 'light');
      syncToggle();
    };
    if (mq.addEventListener) mq.addEventListener('change', follow);
  }

  // Navigation drawer (phones and tablets).
  var sidebar = $('#q-sidebar');
  var backdrop = $('.q-backdrop');
  var opener = $('[data-q-drawer-open]');
  function setDrawer(open) {
    if (!sidebar) return;
    doc.body.classList.toggle('q-drawer-open', open);
    if (backdrop) backdrop.hidden = !open;
    if (opener) opener.setAttribute('aria-expanded', open ? 'true' : 'false');
    if (open) {
      var target = $('[aria-current="page"]', sidebar) || $('a, button', sidebar);
      if (target) target.focus();
    } else if (opener && sidebar.contains(doc.activeElement)) {
      opener.focus();
    }
  }
  if (opener) opener.addEventListener('click', function () { setDrawer(true); });
  $$('[data-q-drawer-close]').forEach(function (el) {
    el.addEventListener('click', function () { setDrawer(false); });
  });

  // The search dialog and its shortcuts (Ctrl/Cmd-K, `/`) are search.js.
  doc.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') {
      if (doc.body.classList.contains('q-drawer-open')) setDrawer(false);
      $$('details[data-q-switcher][open]').forEach(function (d) { d.open = false; });
    }
  });

  // Switcher menus close when clicking elsewhere.
  doc.addEventListener('click', function (e) {
    $$('details[data-q-switcher][open]').forEach(function (d) {
      if (!d.contains(e.target)) d.open = false;
    });
  });

  // "On this page": highlight the section being read; close the phone disclosure after a jump.
  var tocLinks = $$('a[data-q-toc]');
  var headings = [];
  var seen = {};
  tocLinks.forEach(function (a) {
    var id = decodeURIComponent(a.getAttribute('href').slice(1));
    if (seen[id]) return;
    seen[id] = true;
    var h = doc.getElementById(id);
    if (h) headings.push(h);
  });
  function markActive() {
    var offset = 120;
    var active = headings.length ? headings[0] : null;
    for (var i = 0; i < headings.length; i++) {
      if (headings[i].getBoundingClientRect().top - offset <= 0) active = headings[i];
    }
    if (window.innerHeight + window.scrollY >= doc.documentElement.scrollHeight - 2 && headings.length) {
      active = headings[headings.length - 1];
    }
    var href = active ? '#' + encodeURIComponent(active.id) : '';
    tocLinks.forEach(function (a) {
      if (a.getAttribute('href') === href) a.setAttribute('aria-current', 'true');
      else a.removeAttribute('aria-current');
    });
  }
  if (headings.length) {
    var ticking = false;
    window.addEventListener('scroll', function () {
      if (ticking) return;
      ticking = true;
      window.requestAnimationFrame(function () { ticking = false; markActive(); });
    }, { passive: true });
    markActive();
  }
  $$('.q-toc-mobile a').forEach(function (a) {
    a.addEventListener('click', function () { var d = a.closest('details'); if (d) d.open = false; });
  });

  // Dismissible banner, remembered per banner text.
  var banner = $('[data-q-banner]');
  if (banner) {
    var key = 'quire-banner:' + banner.textContent.trim().slice(0, 200);
    if (store.get(key)) banner.hidden = true;
    var close = $('[data-q-banner-close]', banner);
    if (close) close.addEventListener('click', function () { banner.hidden = true; store.set(key, '1'); });
  }

  // Anchor links on headings (shown on hover/focus), unless the renderer already added one.
  $$('.q-prose :is(h1, h2, h3, h4)[id]').forEach(function (h) {
    var own = '#' + encodeURIComponent(h.id);
    if ($$('a[href^="#"]', h).some(function (x) { var v = x.getAttribute('href'); return v === own || v === '#' + h.id; })) return;
    var a = doc.createElement('a');
    a.className = 'q-heading-anchor';
    a.href = own;
    a.setAttribute('aria-label', 'Link to this section');
    a.textContent = '#';
    h.appendChild(a);
  });
})();
