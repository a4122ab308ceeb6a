/* Code block options, Mermaid diagrams and views (shared/src/docs/markdown: code-figure.ts,
   code-mermaid.ts, components/view.ts). Vanilla, no inline handlers (the site CSP runs only the site's
   own scripts). Without JavaScript: expandable blocks show whole, diagrams show their source, the first
   view shows. */
(function () {
  'use strict';
  var root = document.documentElement;
  function each(selector, fn) { Array.prototype.forEach.call(document.querySelectorAll(selector), fn); }

  /* ---------- expandable code blocks: collapsed past COLLAPSE_LINES, a button toggles ---------- */
  var COLLAPSE_LINES = 13;
  var expandables = 0;
  each('[data-q-expandable]', function (figure) {
    var pre = figure.querySelector('.q-code-frame > pre');
    if (!pre) return;
    var lines = pre.querySelectorAll('.line').length;
    if (lines <= COLLAPSE_LINES) return;
    if (!pre.id) pre.id = 'q-code-expandable-' + ++expandables;
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'q-code-expand';
    button.setAttribute('aria-controls', pre.id);
    function set(expanded) {
      figure.classList.toggle('q-code-collapsed', !expanded);
      button.setAttribute('aria-expanded', String(expanded));
      button.textContent = expanded ? 'Show less' : 'Show all ' + lines + ' lines';
    }
    button.addEventListener('click', function () {
      set(button.getAttribute('aria-expanded') !== 'true');
    });
    figure.classList.add('q-code-has-toggle');
    figure.appendChild(button);
    set(false);
  });

  /* ---------- mermaid: drawn with the page's theme, again when the theme changes ---------- */
  var diagrams = document.querySelectorAll('[data-q-mermaid]');
  var mermaid = window.mermaid;
  if (diagrams.length && mermaid) {
    var drawn = 0;
    var drawing = Promise.resolve();
    var draw = function () {
      var dark = root.getAttribute('data-theme') === 'dark';
      mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: dark ? 'dark' : 'default' });
      Array.prototype.forEach.call(diagrams, function (figure) {
        var source = figure.querySelector('.q-mermaid-source');
        if (!source) return;
        drawing = drawing.then(function () {
          return mermaid.render('q-mermaid-svg-' + ++drawn, source.textContent || '');
        }).then(function (out) {
          var box = figure.querySelector('.q-mermaid-diagram');
          if (!box) {
            box = document.createElement('div');
            box.className = 'q-mermaid-diagram';
            box.setAttribute('role', 'img');
            box.setAttribute('aria-label', 'Diagram');
            figure.appendChild(box);
          }
          box.innerHTML = out.svg; // sanitized by mermaid (securityLevel 'strict')
          figure.classList.add('q-mermaid-drawn');
        }, function () {
          figure.classList.remove('q-mermaid-drawn'); // a diagram mermaid cannot read keeps its source
        });
      });
    };
    draw();
    var theme = root.getAttribute('data-theme');
    new window.MutationObserver(function () {
      var now = root.getAttribute('data-theme');
      if (now === theme) return;
      theme = now;
      draw();
    }).observe(root, { attributes: true, attributeFilter: ['data-theme'] });
  }

  /* ---------- views: a selector before the first view shows one title's views at a time ---------- */
  var VIEW_KEY = 'quire:view';
  var views = Array.prototype.slice.call(document.querySelectorAll('.q-view[data-q-view]'));
  if (views.length) {
    var titles = [];
    views.forEach(function (v) {
      var t = v.getAttribute('data-q-view');
      if (titles.indexOf(t) < 0) titles.push(t);
    });
    var showView = function (title) {
      views.forEach(function (v) { v.hidden = v.getAttribute('data-q-view') !== title; });
      // table of contents: only the headings of the views shown
      each('[data-q-toc]', function (link) {
        var id = decodeURIComponent((link.getAttribute('href') || '').slice(1));
        var target = id && document.getElementById(id);
        var view = target && target.closest('.q-view');
        if (link.parentElement) link.parentElement.hidden = Boolean(view && view.hidden);
      });
    };
    if (titles.length > 1) {
      var wrap = document.createElement('div');
      wrap.className = 'q-view-select';
      var label = document.createElement('label');
      label.htmlFor = 'q-view-select';
      label.textContent = 'View';
      var select = document.createElement('select');
      select.id = 'q-view-select';
      titles.forEach(function (t) {
        var option = document.createElement('option');
        option.value = t;
        option.textContent = t;
        select.appendChild(option);
      });
      var first = views.filter(function (v) { return !v.hidden; })[0];
      var saved = null;
      try { saved = localStorage.getItem(VIEW_KEY); } catch { /* private mode */ }
      select.value = saved && titles.indexOf(saved) >= 0 ? saved : first ? first.getAttribute('data-q-view') : titles[0];
      select.addEventListener('change', function () {
        showView(select.value);
        try { localStorage.setItem(VIEW_KEY, select.value); } catch { /* private mode */ }
      });
      wrap.appendChild(label);
      wrap.appendChild(select);
      views[0].parentNode.insertBefore(wrap, views[0]);
      showView(select.value);
    }
  }
})();
