/* global fetch, AbortController, URLSearchParams, TextDecoder, Event */
// Quire "Ask AI" (deferred; CSP-safe: no inline handlers, bound here by id and data-q-ask-*): the
// panel of shared/src/site/ask-ai.ts. The top bar's button shows once GET /_quire/chat says the
// assistant is on. A question is POSTed to /_quire/chat with Accept: text/event-stream and the
// answer streams in (events session, sources, delta..., done | error: shared/src/api/chat.ts),
// parsed here from the response body (EventSource cannot POST). Answer text is only ever set as
// text nodes: the citation markers [n] become links to the cited sections, nothing else becomes
// markup. Closing the panel, a new conversation or opening another one stops the answer being read.
// The visitor id is a random UUID in localStorage (quire.visitorId); the conversation being read
// is remembered for the tab in sessionStorage (quire.chatSession), so it is still there on the
// next page. Ctrl/Cmd-I opens the panel; search's "Ask AI about ..." sends a `quire:ask` event.
(function () {
  var doc = document;
  var dialog = doc.getElementById('q-ask') || makePanel();
  if (!dialog) return;
  var $ = function (sel) { return dialog.querySelector(sel); };
  var input = $('.q-ask-input');
  var form = $('.q-ask-form');
  var thread = $('.q-ask-thread');
  var intro = $('.q-ask-intro');
  var body = $('.q-ask-body');
  var sendBtn = $('.q-ask-send');
  var stopBtn = $('[data-q-ask-stop]');
  var historyBtn = $('[data-q-ask-history]');
  var historyBox = $('.q-ask-history');
  var historyList = $('.q-ask-history-list');
  var historyStatus = $('.q-ask-history-status');
  if (!input || !form || !thread || !historyBox || !historyList) return;

  var endpoint = dialog.getAttribute('data-q-ask-endpoint') || '/_quire/chat';
  var version = doc.documentElement.getAttribute('data-version');
  // on a site with languages, answers come from the language being read (divisions.ts withPageLanguage)
  var language = doc.documentElement.getAttribute('data-quire-language');
  var openers = Array.prototype.slice.call(doc.querySelectorAll('[data-q-ask-open]'));
  var VISITOR_KEY = 'quire.visitorId';
  var SESSION_KEY = 'quire.chatSession';
  var MAX_QUESTION = 2000;
  var OFF_MESSAGE = 'The assistant is not available on this site.';

  var enabled = false;
  var returnFocus = null;
  var sessionId = null;
  var controller = null; // the answer being streamed
  var loader = null; // the conversation list or transcript being fetched
  var restored = false;

  function storage(kind) {
    try { return window[kind]; } catch { return null; }
  }
  function getItem(kind, key) {
    var s = storage(kind);
    try { return s ? s.getItem(key) : null; } catch { return null; }
  }
  function setItem(kind, key, value) {
    var s = storage(kind);
    try {
      if (!s) return;
      if (value === null) s.removeItem(key); else s.setItem(key, value);
    } catch { /* storage unavailable */ }
  }

  // ---------- visitor id ----------
  function randomUuid() {
    if (window.crypto && typeof window.crypto.randomUUID === 'function') return window.crypto.randomUUID();
    var b = new Uint8Array(16);
    if (window.crypto && window.crypto.getRandomValues) window.crypto.getRandomValues(b);
    else for (var i = 0; i < 16; i++) b[i] = Math.floor(Math.random() * 256);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 0x100).toString(16).slice(1); }).join('');
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
  }
  var memoryVisitor = null;
  function visitorId() {
    var id = getItem('localStorage', VISITOR_KEY);
    if (id && id.length <= 100) return id;
    id = memoryVisitor || randomUuid();
    memoryVisitor = id;
    setItem('localStorage', VISITOR_KEY, id);
    return id;
  }
  function setSession(id) {
    sessionId = id;
    setItem('sessionStorage', SESSION_KEY, id);
  }

  // ---------- showing the button ----------
  function setEnabled(on) {
    enabled = on;
    if (on) doc.documentElement.setAttribute('data-q-ask', '');
    else doc.documentElement.removeAttribute('data-q-ask');
    openers.forEach(function (b) {
      b.removeAttribute('data-q-ask-pending');
      b.hidden = !on;
    });
  }
  // GET /_quire/chat: 200 {data: {enabled: true}} when the assistant is on; resolves to that answer
  function checkEnabled() {
    return fetch(endpoint, { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(function (json) { setEnabled(!!(json && json.data && json.data.enabled === true)); return enabled; })
      .catch(function () { setEnabled(false); return false; });
  }
  checkEnabled();

  // ---------- open / close ----------
  function open() {
    if (!enabled) return;
    if (!dialog.open) {
      returnFocus = doc.activeElement;
      if (dialog.showModal) dialog.showModal(); else dialog.setAttribute('open', '');
    }
    if (!restored) {
      restored = true;
      var saved = getItem('sessionStorage', SESSION_KEY);
      if (saved && !thread.firstChild) openConversation(saved, true);
    }
    input.focus();
  }
  function close() {
    if (!dialog.open) return;
    if (dialog.close) dialog.close(); else { dialog.removeAttribute('open'); onClosed(); }
  }
  function onClosed() {
    stopAnswer();
    if (loader) { loader.abort(); loader = null; }
    var back = returnFocus;
    returnFocus = null;
    if (back && back.isConnected && typeof back.focus === 'function') back.focus();
  }
  dialog.addEventListener('close', onClosed);
  // Tab and Shift-Tab cycle inside the panel (the modal dialog alone would let focus leave to the
  // browser's own controls)
  dialog.addEventListener('keydown', function (e) {
    if (e.key !== 'Tab') return;
    var items = Array.prototype.filter.call(dialog.querySelectorAll('a[href], button, textarea, input, select, [tabindex]'), function (n) {
      return !n.disabled && n.tabIndex >= 0 && n.getClientRects().length > 0;
    });
    if (!items.length) return;
    var first = items[0];
    var last = items[items.length - 1];
    if (e.shiftKey && (doc.activeElement === first || !dialog.contains(doc.activeElement))) { e.preventDefault(); last.focus(); }
    else if (!e.shiftKey && doc.activeElement === last) { e.preventDefault(); first.focus(); }
  });
  dialog.addEventListener('click', function (e) { if (e.target === dialog) close(); });
  openers.forEach(function (b) { b.addEventListener('click', open); });
  Array.prototype.forEach.call(dialog.querySelectorAll('[data-q-ask-close]'), function (b) { b.addEventListener('click', close); });
  doc.addEventListener('keydown', function (e) {
    if ((e.key === 'i' || e.key === 'I') && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && enabled) {
      var t = e.target;
      if (t && t.isContentEditable) return;
      e.preventDefault();
      if (dialog.open) close(); else open();
    }
  });
  // search.js: "Ask AI about <query>" when the search finds nothing
  doc.addEventListener('quire:ask', function (e) {
    var q = e && e.detail && typeof e.detail.question === 'string' ? e.detail.question.trim() : '';
    if (!enabled) return;
    open();
    if (q) ask(q);
  });

  // ---------- rendering ----------
  function el(tag, cls, text) {
    var n = doc.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = text;
    return n;
  }
  function scrollDown() { body.scrollTop = body.scrollHeight; }
  function showIntro() { if (intro) intro.hidden = !!thread.firstChild; }

  // A source's link: the server gives site-relative URLs (`/guides/setup#install`); only those and
  // http(s) URLs become links.
  function sourceHref(source) {
    var url = source && typeof source.url === 'string' ? source.url : '';
    if (/^(https?:\/\/|\/(?!\/))/i.test(url)) return url;
    return null;
  }
  function sourceName(source) {
    return String((source && (source.title || source.path)) || 'Source');
  }

  // Inline text: `code` spans and **bold** as elements, citation markers [n] (or [1, 2]) as links
  // to sources[n-1] when `sources` is given, everything else as text.
  var INLINE = /(`[^`\n]+`|\*\*[^*\n]+\*\*|\[\d+(?:\s*,\s*\d+)*\])/;
  function appendInline(parent, text, sources) {
    text.split(INLINE).forEach(function (part, i) {
      if (!part) return;
      if (i % 2 === 0) { parent.appendChild(doc.createTextNode(part)); return; }
      if (part.charAt(0) === '`') { parent.appendChild(el('code', '', part.slice(1, -1))); return; }
      if (part.charAt(0) === '*') { parent.appendChild(el('strong', '', part.slice(2, -2))); return; }
      var nums = part.slice(1, -1).split(/\s*,\s*/);
      var links = nums.map(function (n) {
        var s = sources && sources[Number(n) - 1];
        var href = s && sourceHref(s);
        if (!href) return null;
        var a = el('a', 'q-ask-cite', '[' + n + ']');
        a.href = href;
        a.title = sourceName(s);
        a.setAttribute('aria-label', '[' + n + '] ' + sourceName(s));
        return a;
      });
      if (links.some(function (a) { return !a; })) { parent.appendChild(doc.createTextNode(part)); return; }
      links.forEach(function (a) { parent.appendChild(a); });
    });
  }

  // The answer's text as blocks built from text nodes: paragraphs (single line breaks kept),
  // bulleted and numbered lists, ``` code blocks (also while still open during streaming) and
  // `#` heading lines shown as bold paragraphs.
  var BULLET = /^\s*[-*+]\s+/;
  var NUMBERED = /^\s*(\d+)[.)]\s+/;
  var FENCE = /^\s*```/;
  var HEADING = /^\s*#{1,6}\s+/;
  function renderText(box, text, sources) {
    box.textContent = '';
    var lines = String(text).replace(/\r\n?/g, '\n').split('\n');
    var i = 0;
    while (i < lines.length) {
      var line = lines[i];
      if (!line.trim()) { i++; continue; }
      if (FENCE.test(line)) {
        var code = [];
        i++;
        while (i < lines.length && !FENCE.test(lines[i])) code.push(lines[i++]);
        i++;
        var pre = el('pre', 'q-ask-code');
        pre.appendChild(el('code', '', code.join('\n')));
        box.appendChild(pre);
        continue;
      }
      if (HEADING.test(line)) {
        var h = el('p', 'q-ask-heading');
        var strong = el('strong');
        appendInline(strong, line.replace(HEADING, ''), sources);
        h.appendChild(strong);
        box.appendChild(h);
        i++;
        continue;
      }
      var kind = BULLET.test(line) ? BULLET : NUMBERED.test(line) ? NUMBERED : null;
      if (kind) {
        var list = el(kind === BULLET ? 'ul' : 'ol');
        var first = line.match(NUMBERED);
        if (kind === NUMBERED && first && first[1] !== '1') list.setAttribute('start', first[1]);
        while (i < lines.length && kind.test(lines[i])) {
          var li = el('li');
          appendInline(li, lines[i].replace(kind, ''), sources);
          list.appendChild(li);
          i++;
        }
        box.appendChild(list);
        continue;
      }
      var p = el('p');
      var n = 0;
      while (i < lines.length && lines[i].trim() && !FENCE.test(lines[i]) && !HEADING.test(lines[i]) && !BULLET.test(lines[i]) && !NUMBERED.test(lines[i])) {
        if (n++) p.appendChild(el('br'));
        appendInline(p, lines[i], sources);
        i++;
      }
      box.appendChild(p);
    }
  }

  function addQuestion(text) {
    var m = el('div', 'q-ask-msg q-ask-msg-user');
    m.appendChild(el('span', 'q-visually-hidden', 'You asked: '));
    m.appendChild(el('p', 'q-ask-question', text));
    thread.appendChild(m);
    showIntro();
    return m;
  }

  // An answer in the thread: its text box, its source list, its state line.
  function addAnswer() {
    var m = el('div', 'q-ask-msg q-ask-msg-assistant');
    m.appendChild(el('span', 'q-visually-hidden', 'Answer: '));
    var text = el('div', 'q-ask-answer');
    var pending = el('p', 'q-ask-pending');
    pending.appendChild(el('span', 'q-ask-dots'));
    pending.appendChild(doc.createTextNode('Searching the documentation\u2026'));
    text.appendChild(pending);
    m.appendChild(text);
    thread.appendChild(m);
    showIntro();
    return { root: m, text: text, sourcesBox: null, copy: null };
  }
  function renderSources(answer, sources, content) {
    if (answer.sourcesBox) { answer.sourcesBox.remove(); answer.sourcesBox = null; }
    // only the sources the text cites, in their numbered order
    var cited = {};
    String(content).replace(/\[(\d+(?:\s*,\s*\d+)*)\]/g, function (_, nums) {
      nums.split(/\s*,\s*/).forEach(function (n) { cited[Number(n)] = true; });
      return '';
    });
    var items = [];
    (sources || []).forEach(function (s, i) { if (cited[i + 1] && sourceHref(s)) items.push({ n: i + 1, s: s }); });
    if (!items.length) return;
    var box = el('div', 'q-ask-sources');
    var id = 'q-ask-src-' + Math.random().toString(36).slice(2, 9);
    var title = el('p', 'q-ask-sources-title', 'Sources');
    title.id = id;
    box.appendChild(title);
    var list = el('ol');
    list.setAttribute('aria-labelledby', id);
    items.forEach(function (it) {
      var li = el('li');
      li.value = it.n;
      var a = el('a', 'q-ask-source');
      a.href = sourceHref(it.s);
      a.appendChild(el('span', 'q-ask-source-n', String(it.n)));
      a.appendChild(el('span', 'q-ask-source-title', sourceName(it.s)));
      if (it.s.path) a.appendChild(el('span', 'q-ask-source-path', '/' + String(it.s.path).replace(/^\/+/, '')));
      li.appendChild(a);
      list.appendChild(li);
    });
    box.appendChild(list);
    answer.root.appendChild(box);
    answer.sourcesBox = box;
  }
  // "Copy answer" under a finished answer: its text as written (citations as [n]).
  function addCopy(answer, content) {
    if (answer.copy || !content || !navigator.clipboard) return;
    var b = el('button', 'q-ask-copy');
    b.type = 'button';
    b.setAttribute('aria-label', 'Copy answer');
    b.title = 'Copy answer';
    b.appendChild(el('span', '', 'Copy'));
    b.addEventListener('click', function () {
      navigator.clipboard.writeText(content).then(function () {
        b.firstChild.textContent = 'Copied';
        b.setAttribute('aria-label', 'Copied');
        setTimeout(function () { b.firstChild.textContent = 'Copy'; b.setAttribute('aria-label', 'Copy answer'); }, 2000);
      }, function () { /* clipboard refused: nothing copied */ });
    });
    answer.root.appendChild(b);
    answer.copy = b;
  }
  function showError(answer, message) {
    answer.text.textContent = '';
    var p = el('p', 'q-ask-error', message);
    p.setAttribute('role', 'alert');
    answer.text.appendChild(p);
    answer.root.classList.add('q-ask-msg-error');
  }

  // What a reader is told for an error envelope `{error: {code, message}}` (or an HTTP status).
  function errorMessage(status, envelope) {
    var code = envelope && envelope.error && envelope.error.code ? String(envelope.error.code).toLowerCase() : '';
    var msg = envelope && envelope.error && typeof envelope.error.message === 'string' ? envelope.error.message : '';
    if (code === 'usage_limit_exceeded' || status === 403) return 'The assistant has answered as many questions as this site allows for now. Try again later, or search the documentation.';
    if (code === 'rate_limited' || status === 429) return 'Too many questions in a short time. Wait a minute, then ask again.';
    if (code === 'not_found' || status === 404) {
      checkEnabled();
      return OFF_MESSAGE;
    }
    if (status === 400 || code === 'invalid_request' || code === 'validation_error') return 'This question cannot be sent' + (msg ? ': ' + msg : '.');
    return 'The assistant could not answer right now. Try again in a moment.';
  }

  // ---------- streaming ----------
  function setBusy(on) {
    thread.setAttribute('aria-busy', on ? 'true' : 'false');
    if (stopBtn) stopBtn.hidden = !on;
    sendBtn.hidden = on;
    dialog.classList.toggle('q-ask-streaming', on);
  }
  function stopAnswer() {
    if (controller) { controller.abort(); controller = null; }
    setBusy(false);
  }

  // Reads `event:`/`data:` blocks from a text/event-stream body, calling onEvent(name, data).
  function readEvents(res, onEvent) {
    var reader = res.body.getReader();
    var decoder = new TextDecoder();
    var buffer = '';
    function dispatch(block) {
      var name = 'message';
      var data = [];
      block.split('\n').forEach(function (line) {
        if (!line || line.charAt(0) === ':') return;
        var i = line.indexOf(':');
        var field = i < 0 ? line : line.slice(0, i);
        var value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
        if (field === 'event') name = value;
        else if (field === 'data') data.push(value);
      });
      if (!data.length) return;
      var parsed;
      try { parsed = JSON.parse(data.join('\n')); } catch { return; }
      onEvent(name, parsed);
    }
    function pump() {
      return reader.read().then(function (r) {
        if (r.value) buffer += decoder.decode(r.value, { stream: true });
        if (r.done) buffer += decoder.decode();
        buffer = buffer.replace(/\r\n?/g, '\n');
        var at;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          var block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          dispatch(block);
        }
        if (r.done) { if (buffer.trim()) dispatch(buffer); return; }
        return pump();
      });
    }
    return pump();
  }

  function ask(question) {
    question = question.trim();
    if (!question) { input.focus(); return; }
    if (question.length > MAX_QUESTION) question = question.slice(0, MAX_QUESTION);
    stopAnswer();
    if (loader) { loader.abort(); loader = null; }
    closeHistory();
    addQuestion(question);
    var answer = addAnswer();
    scrollDown();
    var own = (controller = typeof AbortController === 'function' ? new AbortController() : null);
    setBusy(true);
    var content = '';
    var sources = [];
    var finished = false;
    var frame = 0;
    function paint() {
      frame = 0;
      renderText(answer.text, content, sources);
      var nearBottom = body.scrollHeight - body.scrollTop - body.clientHeight < 80;
      if (nearBottom) scrollDown();
    }
    function onEvent(name, data) {
      if (own !== controller) return;
      if (name === 'session' && data && typeof data.sessionId === 'string') setSession(data.sessionId);
      else if (name === 'sources' && Array.isArray(data)) sources = data;
      else if (name === 'delta' && data && typeof data.text === 'string') {
        content += data.text;
        if (!frame) frame = window.requestAnimationFrame(paint);
      } else if (name === 'done' && data) {
        finished = true;
        if (data.sessionId) setSession(data.sessionId);
        if (data.message && typeof data.message.content === 'string') content = data.message.content;
        if (Array.isArray(data.sources)) sources = data.sources;
        if (frame) { window.cancelAnimationFrame(frame); frame = 0; }
        renderText(answer.text, content, sources);
        renderSources(answer, sources, content);
        addCopy(answer, content);
      } else if (name === 'error') {
        finished = true;
        if (frame) { window.cancelAnimationFrame(frame); frame = 0; }
        showError(answer, errorMessage(0, data));
      }
    }
    var payload = { question: question, visitorId: visitorId() };
    if (sessionId) payload.sessionId = sessionId;
    if (version) payload.version = version;
    if (language) payload.language = language;
    fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      credentials: 'same-origin',
      body: JSON.stringify(payload),
      signal: own ? own.signal : undefined,
    })
      .then(function (res) {
        var type = res.headers.get('content-type') || '';
        if (!res.ok) {
          return res.json().catch(function () { return null; }).then(function (env) {
            if (res.status !== 404 || !payload.sessionId) throw { shown: errorMessage(res.status, env) };
            // 404 with a conversation: the assistant was turned off, or the conversation is gone
            // (the next question then starts a new one)
            setSession(null);
            return checkEnabled().then(function (on) {
              throw { shown: on ? 'This conversation is no longer available. Ask again to start a new one.' : OFF_MESSAGE };
            });
          });
        }
        if (type.indexOf('text/event-stream') >= 0 && res.body) return readEvents(res, onEvent);
        return res.json().then(function (json) { onEvent('done', json && json.data); });
      })
      .then(function () {
        if (own !== controller) return;
        if (!finished) {
          if (content) { renderText(answer.text, content, sources); renderSources(answer, sources, content); }
          else showError(answer, 'The answer was cut off. Ask again.');
        }
        controller = null;
        setBusy(false);
        scrollDown();
      })
      .catch(function (err) {
        if (err && err.name === 'AbortError') {
          // stopped by the reader: keep what came, say it stopped
          if (frame) { window.cancelAnimationFrame(frame); frame = 0; }
          if (content) { renderText(answer.text, content, sources); renderSources(answer, sources, content); }
          else answer.text.textContent = '';
          answer.text.appendChild(el('p', 'q-ask-stopped', 'Stopped.'));
          return;
        }
        if (own !== controller) return;
        controller = null;
        setBusy(false);
        showError(answer, err && err.shown ? err.shown : 'The assistant could not be reached. Check your connection and try again.');
        if (!input.value) input.value = question;
      });
  }

  form.addEventListener('submit', function (e) {
    e.preventDefault();
    if (controller) return;
    var q = input.value;
    if (!q.trim()) { input.focus(); return; }
    input.value = '';
    ask(q);
    input.focus();
  });
  input.addEventListener('keydown', function (e) {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      if (typeof form.requestSubmit === 'function') form.requestSubmit(); else form.dispatchEvent(new Event('submit', { cancelable: true }));
    }
  });
  if (stopBtn) stopBtn.addEventListener('click', function () { stopAnswer(); input.focus(); });

  // ---------- conversations ----------
  function newConversation() {
    stopAnswer();
    if (loader) { loader.abort(); loader = null; }
    setSession(null);
    thread.textContent = '';
    showIntro();
    closeHistory();
    input.value = '';
    input.focus();
  }
  var newBtn = $('[data-q-ask-new]');
  if (newBtn) newBtn.addEventListener('click', newConversation);

  function getJson(url) {
    if (loader) loader.abort();
    var own = (loader = typeof AbortController === 'function' ? new AbortController() : null);
    return fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin', signal: own ? own.signal : undefined })
      .then(function (res) {
        return res.json().catch(function () { return null; }).then(function (json) {
          if (own === loader) loader = null;
          return { status: res.status, json: json };
        });
      });
  }

  var dateFormat = (function () {
    try { return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }); } catch { return null; }
  })();
  function when(iso) {
    var d = new Date(iso);
    if (isNaN(d.getTime())) return '';
    return dateFormat ? dateFormat.format(d) : d.toLocaleString();
  }

  function closeHistory() {
    historyBox.hidden = true;
    body.hidden = false;
    if (historyBtn) historyBtn.setAttribute('aria-expanded', 'false');
  }
  function openHistory() {
    historyBox.hidden = false;
    body.hidden = true;
    if (historyBtn) historyBtn.setAttribute('aria-expanded', 'true');
    historyList.textContent = '';
    historyStatus.textContent = 'Loading conversations\u2026';
    var params = new URLSearchParams({ visitorId: visitorId() });
    getJson(endpoint + '/sessions?' + params.toString())
      .then(function (r) {
        if (historyBox.hidden) return;
        var sessions = r.status === 200 && r.json && r.json.data && Array.isArray(r.json.data.sessions) ? r.json.data.sessions : null;
        if (!sessions) { historyStatus.textContent = 'Your conversations could not be loaded. Try again in a moment.'; return; }
        historyStatus.textContent = sessions.length ? '' : 'No conversations yet. Ask a question to start one.';
        sessions.forEach(function (s) {
          if (!s || typeof s.id !== 'string') return;
          var li = el('li');
          var b = el('button', 'q-ask-history-item');
          b.type = 'button';
          if (s.id === sessionId) b.setAttribute('aria-current', 'true');
          b.appendChild(el('span', 'q-ask-history-name', String(s.title || 'Conversation')));
          var t = when(s.createdAt);
          if (t) b.appendChild(el('span', 'q-ask-history-date', t));
          b.addEventListener('click', function () { openConversation(s.id, false); });
          li.appendChild(b);
          historyList.appendChild(li);
        });
        var first = historyList.querySelector('button');
        if (first) first.focus();
      })
      .catch(function (err) {
        if (err && err.name === 'AbortError') return;
        historyStatus.textContent = 'Your conversations could not be loaded. Try again in a moment.';
      });
  }
  if (historyBtn) {
    historyBtn.addEventListener('click', function () {
      if (historyBox.hidden) openHistory(); else { closeHistory(); input.focus(); }
    });
  }

  // Shows a stored conversation and continues it: answers stored with their `sources` get citation
  // links and a source list; without them [n] stays text.
  function openConversation(id, quiet) {
    stopAnswer();
    var params = new URLSearchParams({ visitorId: visitorId() });
    if (!quiet) historyStatus.textContent = 'Loading the conversation\u2026';
    getJson(endpoint + '/sessions/' + encodeURIComponent(id) + '?' + params.toString())
      .then(function (r) {
        var messages = r.status === 200 && r.json && r.json.data && Array.isArray(r.json.data.messages) ? r.json.data.messages : null;
        if (!messages) {
          if (r.status === 404 && sessionId === id) setSession(null);
          if (!quiet) historyStatus.textContent = r.status === 404 ? 'This conversation is no longer available.' : 'The conversation could not be loaded. Try again in a moment.';
          return;
        }
        setSession(id);
        thread.textContent = '';
        messages.forEach(function (m) {
          if (!m || typeof m.content !== 'string') return;
          if (m.role === 'user') addQuestion(m.content);
          else {
            var a = addAnswer();
            var cited = Array.isArray(m.sources) ? m.sources : null;
            renderText(a.text, m.content, cited);
            if (cited) renderSources(a, cited, m.content);
            addCopy(a, m.content);
          }
        });
        showIntro();
        closeHistory();
        scrollDown();
        if (!quiet) input.focus();
      })
      .catch(function (err) {
        if (err && err.name === 'AbortError') return;
        if (!quiet) historyStatus.textContent = 'The conversation could not be loaded. Try again in a moment.';
      });
  }
  // ---------- the panel ----------
  // Made here rather than sent with every page (ask-ai.ts): a child of <body>, right after the top bar
  // that holds the Ask AI button; nothing when the page has no such button.
  function makePanel() {
    var opener = doc.querySelector('[data-q-ask-open]');
    if (!opener || !doc.body) return null;
    var bar = opener.closest('header');
    var svg = function (shapes) {
      return '<svg class="q-icon" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" ' +
        'stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">' + shapes + '</svg>';
    };
    var sparkles = svg('<path d="M10 3 11.9 8.1 17 10l-5.1 1.9L10 17l-1.9-5.1L3 10l5.1-1.9Z"/><path d="M19 14v6M16 17h6"/>');
    var box = doc.createElement('div');
    box.innerHTML =
      '<dialog class="q-ask-dialog" id="q-ask" aria-label="Ask AI" aria-modal="true" data-q-ask-endpoint="/_quire/chat">' +
      '<div class="q-ask-head"><h2 class="q-ask-title">' + sparkles + '<span>Ask AI</span></h2><div class="q-ask-actions">' +
      '<button class="q-icon-btn" type="button" data-q-ask-history aria-expanded="false" aria-controls="q-ask-history" aria-label="Conversations" ' +
      'title="Conversations">' + svg('<circle cx="12" cy="12" r="10"/><path d="M12 6v6l4 2"/>') + '</button>' +
      '<button class="q-icon-btn" type="button" data-q-ask-new aria-label="New conversation" title="New conversation">' +
      svg('<path d="M12 20h9"/><path d="M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z"/>') + '</button>' +
      '<button class="q-icon-btn" type="button" data-q-ask-close aria-label="Close" title="Close (Esc)">' + svg('<path d="M18 6 6 18M6 6l12 12"/>') +
      '</button></div></div>' +
      '<section class="q-ask-history" id="q-ask-history" aria-labelledby="q-ask-history-title" hidden>' +
      '<h3 class="q-ask-history-title" id="q-ask-history-title">Previous conversations</h3>' +
      '<p class="q-ask-history-status" role="status"></p><ul class="q-ask-history-list"></ul></section>' +
      '<div class="q-ask-body"><div class="q-ask-intro"><span class="q-ask-intro-icon">' + sparkles + '</span>' +
      '<p>Ask a question about this documentation. Answers are written from its pages and link to the sections they come from.</p></div>' +
      '<div class="q-ask-thread" role="log" aria-live="polite" aria-label="Conversation"></div></div>' +
      '<form class="q-ask-form" novalidate><label class="q-visually-hidden" for="q-ask-input">Your question</label>' +
      '<textarea class="q-ask-input" id="q-ask-input" name="question" rows="1" maxlength="2000" placeholder="Ask a question..." ' +
      'enterkeyhint="send" autocomplete="off"></textarea>' +
      '<button class="q-ask-stop" type="button" data-q-ask-stop hidden>' + svg('<rect x="5" y="5" width="14" height="14" rx="2"/>') +
      '<span>Stop</span></button>' +
      '<button class="q-ask-send" type="submit" aria-label="Send" title="Send (Enter)">' + svg('<path d="M5 12h14M12 5l7 7-7 7"/>') + '</button>' +
      '</form><p class="q-ask-note">Answers come only from this documentation and can be wrong: check the cited pages.</p></dialog>';
    var made = box.firstChild;
    doc.body.insertBefore(made, bar && bar.parentNode === doc.body ? bar.nextSibling : null);
    return made;
  }
})();
