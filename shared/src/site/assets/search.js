/* global fetch, AbortController, URLSearchParams, CustomEvent */
// Quire site search (deferred; CSP-safe: no inline handlers, bound here by id and data-q-search-*):
// the dialog of shared/src/site/search-ui.ts. Opened by the search buttons, Ctrl/Cmd-K and `/`;
// results as you type (debounced, stale requests aborted) from the site's /_quire/search, scoped to
// the version on <html data-version>; grouped by page with the section under it, matched words
// marked; Up/Down/Enter/Esc on the combobox; focus returns to where it was on close.
(function () {
  var doc = document;
  var dialog = doc.getElementById('q-search');
  var input = doc.getElementById('q-search-input');
  var list = doc.getElementById('q-search-list');
  var status = doc.getElementById('q-search-status');
  var askButton = dialog ? dialog.querySelector('[data-q-search-ask]') : null;
  if (!dialog || !input || !list || !status) return;

  var DEBOUNCE_MS = 100;
  var LIMIT = 20;
  var CACHED_QUERIES = 50;
  var endpoint = dialog.getAttribute('data-q-search-endpoint') || '/_quire/search';
  var version = doc.documentElement.getAttribute('data-version');
  // a site with languages searches the language being read only (divisions.ts withPageLanguage)
  var language = doc.documentElement.getAttribute('data-quire-language');
  var base = version ? '/' + version : '';
  var returnFocus = null;
  var timer = 0;
  var controller = null;
  var shownQuery = null;
  var options = [];
  var active = -1;
  var cache = new Map();

  if (/Mac|iPhone|iPad/.test(navigator.platform || '')) {
    Array.prototype.forEach.call(doc.querySelectorAll('.q-search-btn .q-kbd'), function (k) { k.textContent = '\u2318K'; });
  }

  function open() {
    if (dialog.open) return;
    returnFocus = doc.activeElement;
    if (dialog.showModal) dialog.showModal(); else dialog.setAttribute('open', '');
    input.focus();
    input.select();
  }
  function close() {
    if (!dialog.open) return;
    if (dialog.close) dialog.close(); else { dialog.removeAttribute('open'); restoreFocus(); }
  }
  function restoreFocus() {
    var back = returnFocus;
    returnFocus = null;
    if (back && back.isConnected && typeof back.focus === 'function') back.focus();
  }
  dialog.addEventListener('close', restoreFocus);
  dialog.addEventListener('click', function (e) { if (e.target === dialog) close(); });
  Array.prototype.forEach.call(doc.querySelectorAll('[data-q-search-open]'), function (b) { b.addEventListener('click', open); });
  Array.prototype.forEach.call(doc.querySelectorAll('[data-q-search-close]'), function (b) { b.addEventListener('click', close); });

  doc.addEventListener('keydown', function (e) {
    var t = e.target;
    var typing = t && (/^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName || '') || t.isContentEditable);
    if ((e.key === 'k' || e.key === 'K') && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey) {
      e.preventDefault();
      if (dialog.open) close(); else open();
    } else if (e.key === '/' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey && !dialog.open) {
      e.preventDefault();
      open();
    }
  });

  // The server's snippet is HTML-escaped text with <mark> around matches: it is turned into text
  // nodes and <mark> elements (never innerHTML), so nothing in it can become markup.
  var ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  function decode(s) {
    return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, function (m, name) {
      if (name.charAt(0) === '#') {
        var code = name.charAt(1) === 'x' || name.charAt(1) === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
      }
      var v = ENTITIES[name.toLowerCase()];
      return v === undefined ? m : v;
    });
  }
  function snippetNodes(parent, snippet) {
    var marked = false;
    String(snippet || '').split(/(<\/?mark>)/i).forEach(function (part) {
      if (/^<mark>$/i.test(part)) { marked = true; return; }
      if (/^<\/mark>$/i.test(part)) { marked = false; return; }
      if (!part) return;
      var text = doc.createTextNode(decode(part));
      if (marked) {
        var m = doc.createElement('mark');
        m.appendChild(text);
        parent.appendChild(m);
      } else parent.appendChild(text);
    });
  }

  // The server marks matches in the snippet only; the words of the query are marked in the result's
  // title (section or page) here, where a word of the title starts with one of them.
  function queryPattern(query) {
    var words = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(function (w) { return w.length >= 2; });
    if (!words.length) return null;
    words.sort(function (a, b) { return b.length - a.length; });
    var alt = words.map(function (w) { return w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }).join('|');
    return new RegExp('(^|[^\\p{L}\\p{N}])(' + alt + ')', 'giu');
  }
  function titleNodes(parent, text, pattern) {
    if (!pattern) { parent.textContent = text; return; }
    var at = 0;
    var m;
    pattern.lastIndex = 0;
    while ((m = pattern.exec(text))) {
      var start = m.index + m[1].length;
      if (start > at) parent.appendChild(doc.createTextNode(text.slice(at, start)));
      var mark = doc.createElement('mark');
      mark.textContent = m[2];
      parent.appendChild(mark);
      at = start + m[2].length;
      if (m[0].length === 0) pattern.lastIndex++;
    }
    if (at < text.length) parent.appendChild(doc.createTextNode(text.slice(at)));
  }

  function hrefOf(hit) {
    var url = typeof hit.url === 'string' ? hit.url : '';
    if (/^(https?:\/\/|\/(?!\/))/i.test(url)) return url;
    var path = String(hit.path || '');
    var page = path === 'index' ? '/' : '/' + path.split('/').map(encodeURIComponent).join('/');
    return base + page + (hit.anchor ? '#' + encodeURIComponent(hit.anchor) : '');
  }

  function setStatus(text, visible) {
    status.textContent = text;
    status.classList.toggle('q-visually-hidden', !visible);
  }
  function setActive(i) {
    if (active >= 0 && options[active]) options[active].setAttribute('aria-selected', 'false');
    active = options.length ? (i + options.length) % options.length : -1;
    if (active < 0) { input.removeAttribute('aria-activedescendant'); return; }
    var o = options[active];
    o.setAttribute('aria-selected', 'true');
    input.setAttribute('aria-activedescendant', o.id);
    o.scrollIntoView({ block: 'nearest' });
  }
  // "Ask AI about <query>" when nothing is found and the assistant is on (ask-ai.js sets
  // <html data-q-ask> and answers the `quire:ask` event).
  function offerAsk(query) {
    if (!askButton) return;
    var on = !!query && doc.documentElement.hasAttribute('data-q-ask');
    askButton.hidden = !on;
    if (on) askButton.lastChild.textContent = 'Ask AI about \u201c' + query + '\u201d';
  }
  if (askButton) {
    askButton.addEventListener('click', function () {
      var question = input.value.trim();
      var back = returnFocus;
      returnFocus = null;
      close();
      if (back && back.isConnected && typeof back.focus === 'function') back.focus();
      doc.dispatchEvent(new CustomEvent('quire:ask', { detail: { question: question } }));
    });
  }
  function clearResults() {
    offerAsk('');
    list.textContent = '';
    list.hidden = true;
    options = [];
    active = -1;
    input.removeAttribute('aria-activedescendant');
    input.setAttribute('aria-expanded', 'false');
  }

  function render(query, hits) {
    shownQuery = query;
    clearResults();
    if (!hits.length) {
      setStatus('No results for \u201c' + query + '\u201d', true);
      offerAsk(query);
      return;
    }
    var groups = [];
    var byPath = new Map();
    hits.forEach(function (hit) {
      var g = byPath.get(hit.path);
      if (!g) { g = { title: hit.title || hit.path, hits: [] }; byPath.set(hit.path, g); groups.push(g); }
      g.hits.push(hit);
    });
    var n = 0;
    var pattern = queryPattern(query);
    groups.forEach(function (g, gi) {
      var group = doc.createElement('div');
      group.className = 'q-search-group';
      group.setAttribute('role', 'group');
      group.setAttribute('aria-labelledby', 'q-search-group-' + gi);
      var heading = doc.createElement('div');
      heading.className = 'q-search-group-title';
      heading.id = 'q-search-group-' + gi;
      heading.setAttribute('role', 'presentation');
      heading.textContent = g.title;
      group.appendChild(heading);
      g.hits.forEach(function (hit) {
        var o = doc.createElement('a');
        o.className = 'q-search-hit' + (hit.section ? ' q-search-hit-section' : ' q-search-hit-page');
        o.id = 'q-search-opt-' + n++;
        o.href = hrefOf(hit);
        o.tabIndex = -1;
        o.setAttribute('role', 'option');
        o.setAttribute('aria-selected', 'false');
        var title = doc.createElement('span');
        title.className = 'q-search-hit-title';
        titleNodes(title, String(hit.section || hit.title || hit.path), pattern);
        o.appendChild(title);
        if (hit.snippet) {
          var text = doc.createElement('span');
          text.className = 'q-search-hit-snippet';
          snippetNodes(text, hit.snippet);
          o.appendChild(text);
        }
        options.push(o);
        group.appendChild(o);
      });
      list.appendChild(group);
    });
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    setStatus(hits.length === 1 ? '1 result' : hits.length + ' results', false);
    setActive(0);
  }

  function remember(query, hits) {
    if (cache.size >= CACHED_QUERIES) cache.delete(cache.keys().next().value);
    cache.set(query, hits);
  }

  function search(query) {
    if (controller) controller.abort();
    var own = (controller = typeof AbortController === 'function' ? new AbortController() : null);
    var params = new URLSearchParams({ q: query, limit: String(LIMIT) });
    if (version) params.set('version', version);
    if (language) params.set('language', language);
    fetch(endpoint + '?' + params.toString(), { headers: { Accept: 'application/json' }, credentials: 'same-origin', signal: own ? own.signal : undefined })
      .then(function (res) {
        if (res.status === 404) {
          // the site's search is turned off (project setting searchEnabled), or the version is unknown
          return res.json().then(function (answer) {
            var off = new Error('HTTP 404');
            off.searchOff = Boolean(answer && answer.error && answer.error.details && answer.error.details.reason === 'search_disabled');
            throw off;
          });
        }
        if (!res.ok) throw new Error('HTTP ' + res.status);
        return res.json();
      })
      .then(function (body) {
        if (own !== controller) return;
        controller = null;
        var hits = body && Array.isArray(body.data) ? body.data : [];
        remember(query, hits);
        if (input.value.trim() === query) render(query, hits);
      })
      .catch(function (err) {
        if (own !== controller || (err && err.name === 'AbortError')) return;
        controller = null;
        clearResults();
        shownQuery = null;
        setStatus(err && err.searchOff ? 'Search is turned off for this site.' : 'Search is not available right now. Try again in a moment.', true);
      });
  }

  input.addEventListener('input', function () {
    var query = input.value.trim();
    clearTimeout(timer);
    if (!query) {
      if (controller) controller.abort();
      controller = null;
      shownQuery = null;
      clearResults();
      setStatus('Type to search the documentation.', true);
      return;
    }
    if (query === shownQuery) return;
    if (askButton && !askButton.hidden) offerAsk(query);
    var known = cache.get(query);
    if (known) {
      if (controller) controller.abort();
      controller = null;
      render(query, known);
      return;
    }
    if (!options.length) setStatus('Searching\u2026', true);
    timer = setTimeout(function () { search(query); }, DEBOUNCE_MS);
  });

  function go(o) {
    var href = o.href;
    close();
    window.location.assign(href);
  }
  input.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!options.length) return;
      e.preventDefault();
      setActive(active + (e.key === 'ArrowDown' ? 1 : -1));
    } else if (e.key === 'Enter') {
      if (e.isComposing) return;
      e.preventDefault();
      if (active >= 0 && options[active]) go(options[active]);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      close();
    }
  });
  list.addEventListener('mousemove', function (e) {
    var o = e.target && e.target.closest ? e.target.closest('[role="option"]') : null;
    var i = o ? options.indexOf(o) : -1;
    if (i >= 0 && i !== active) setActive(i);
  });
  list.addEventListener('click', function (e) {
    var o = e.target && e.target.closest ? e.target.closest('[role="option"]') : null;
    if (!o || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    go(o);
  });
})();
