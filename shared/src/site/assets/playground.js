/* API playground ("Try it") on OpenAPI pages, when the site's config turns it on
   (<html data-q-playground="interactive">, docs.json api.playground.display). Each endpoint page
   carries its operation as JSON in data-q-playground (shared/src/docs/openapi/playground.ts); this
   script adds a "Try it" button to the endpoint bar and a form with the credentials, parameters and
   body, sends the request from the reader's browser with fetch (no cookies; the site's CSP
   connect-src allows exactly the OpenAPI servers), and shows the status, headers and body.
   Credentials stay in the page: never stored, never sent anywhere but the API. Vanilla, CSP-safe.
   A personalised page (server/src/sites/personalise.ts) carries the reader's apiPlaygroundInputs claim
   in <meta name="quire-playground-inputs">: {header|query|path: {name: value}}; matching credential
   and parameter fields start with those values (Mintlify's API key prefill). */
/* global btoa, fetch, performance */
(function () {
  'use strict';
  if (document.documentElement.getAttribute('data-q-playground') !== 'interactive') return;
  var counter = 0;
  var prefill = {};
  var meta = document.querySelector('meta[name="quire-playground-inputs"]');
  if (meta) {
    try { prefill = JSON.parse(meta.getAttribute('content') || '{}') || {}; } catch { prefill = {}; }
  }
  /* the reader's value for an input at a location ('header', 'query', 'path'), or '' */
  function given(loc, name) {
    var values = prefill[loc];
    return values && typeof values === 'object' && typeof values[name] === 'string' ? values[name] : '';
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') node.textContent = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }

  /* one labelled text field; returns the row and its input */
  function field(id, label, value, opts) {
    opts = opts || {};
    var input = el(opts.multiline ? 'textarea' : 'input', { id: id, name: id, autocomplete: 'off', spellcheck: 'false' });
    if (!opts.multiline) input.type = opts.secret ? 'password' : 'text';
    if (opts.multiline) input.rows = Math.min(14, Math.max(4, (value || '').split('\n').length + 1));
    if (value) input.value = value;
    if (opts.placeholder) input.placeholder = opts.placeholder;
    if (opts.required) input.required = true;
    var lab = el('label', { for: id }, [el('span', { class: 'q-playground-name', text: label })]);
    if (opts.hint) lab.appendChild(el('span', { class: 'q-playground-hint', text: opts.hint }));
    return { row: el('div', { class: 'q-playground-field' }, [lab, input]), input: input };
  }

  function fieldset(legend, rows) {
    if (!rows.length) return null;
    return el('fieldset', { class: 'q-playground-set' }, [el('legend', { text: legend })].concat(rows));
  }

  function statusText(res) {
    return res.status + (res.statusText ? ' ' + res.statusText : '');
  }

  function setup(op, data) {
    var bar = op.querySelector('.q-openapi-endpoint');
    if (!bar) return;
    var n = ++counter;
    var prefix = 'q-pg' + n + '-';
    var panelId = prefix + 'panel';
    var toggle = el('button', { type: 'button', class: 'q-playground-toggle', 'aria-expanded': 'false', 'aria-controls': panelId, text: 'Try it' });
    bar.appendChild(toggle);

    var inputs = { auth: [], params: [] };
    var authRows = [];
    (data.auth || []).forEach(function (a, i) {
      var id = prefix + 'auth' + i;
      if (a.type === 'http' && a.scheme === 'basic') {
        var u = field(id + 'u', 'Username', '', {});
        var p = field(id + 'p', 'Password', '', { secret: true });
        authRows.push(u.row, p.row);
        inputs.auth.push({ a: a, user: u.input, pass: p.input });
      } else if (a.type === 'apiKey') {
        var k = field(id, a.name || a.key, given(a.in || 'header', a.name || a.key), { secret: true, hint: 'API key, sent in the ' + (a.in || 'header'), placeholder: '<api-key>' });
        authRows.push(k.row);
        inputs.auth.push({ a: a, value: k.input });
      } else {
        var t = field(id, 'Bearer token', given('header', 'Authorization').replace(/^Bearer\s+/i, ''), { secret: true, hint: 'Sent as Authorization: Bearer <token>', placeholder: '<token>' });
        authRows.push(t.row);
        inputs.auth.push({ a: a, value: t.input });
      }
    });
    var sets = [fieldset('Authorization', authRows)];
    ['path', 'query', 'header'].forEach(function (loc) {
      var rows = [];
      (data.params || []).forEach(function (p, i) {
        if (p.in !== loc) return;
        var f = field(prefix + 'param' + i, p.name, given(loc, p.name) || p.example, { required: p.required && loc === 'path', hint: p.required ? 'required' : '' });
        rows.push(f.row);
        inputs.params.push({ p: p, input: f.input });
      });
      sets.push(fieldset(loc === 'path' ? 'Path parameters' : loc === 'query' ? 'Query parameters' : 'Headers', rows));
    });
    if (data.body) {
      var b = field(prefix + 'body', 'Body', data.body.example, { multiline: true, hint: data.body.contentType });
      inputs.body = b.input;
      sets.push(fieldset('Body', [b.row]));
    }
    var send = el('button', { type: 'submit', class: 'q-button q-playground-send', text: 'Send request' });
    var result = el('div', { class: 'q-playground-result', role: 'status', 'aria-live': 'polite' });
    var form = el('form', { class: 'q-playground-form', novalidate: '', 'aria-label': 'Try ' + data.method + ' ' + data.path },
      [el('p', { class: 'q-playground-server' }, [el('span', { class: 'q-method q-method-' + data.method.toLowerCase(), text: data.method }), el('code', { text: data.server + data.path })])]
        .concat(sets).concat([el('div', { class: 'q-playground-actions' }, [send])]));
    var panel = el('section', { class: 'q-playground', id: panelId, 'aria-label': 'API playground', hidden: '' }, [form, result]);
    bar.parentNode.insertBefore(panel, bar.nextSibling);

    toggle.addEventListener('click', function () {
      var open = toggle.getAttribute('aria-expanded') !== 'true';
      toggle.setAttribute('aria-expanded', String(open));
      panel.hidden = !open;
      if (open) {
        var first = form.querySelector('input, textarea');
        if (first) first.focus();
      }
    });

    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var path = data.path;
      var query = [];
      var headers = {};
      var missing = [];
      inputs.params.forEach(function (x) {
        var v = x.input.value.trim();
        if (x.p.in === 'path') {
          if (!v) missing.push(x.p.name);
          path = path.split('{' + x.p.name + '}').join(encodeURIComponent(v));
        } else if (v && x.p.in === 'query') query.push(encodeURIComponent(x.p.name) + '=' + encodeURIComponent(v));
        else if (v && x.p.in === 'header') headers[x.p.name] = v;
      });
      if (missing.length) {
        result.textContent = 'Fill in the path parameter' + (missing.length > 1 ? 's ' : ' ') + missing.join(', ') + ' first.';
        return;
      }
      inputs.auth.forEach(function (x) {
        var a = x.a;
        if (x.user) {
          if (x.user.value || x.pass.value) headers.Authorization = 'Basic ' + btoa(unescape(encodeURIComponent(x.user.value + ':' + x.pass.value)));
          return;
        }
        var v = x.value.value.trim();
        if (!v) return;
        if (a.type === 'apiKey' && a.in === 'query') query.push(encodeURIComponent(a.name || a.key) + '=' + encodeURIComponent(v));
        else if (a.type === 'apiKey') headers[a.name || a.key] = v;
        else headers.Authorization = 'Bearer ' + v;
      });
      var init = { method: data.method, headers: headers, credentials: 'omit', mode: 'cors' };
      if (inputs.body && inputs.body.value.trim() && data.method !== 'GET' && data.method !== 'HEAD') {
        init.body = inputs.body.value;
        headers['Content-Type'] = data.body.contentType;
      }
      var url = data.server + path + (query.length ? '?' + query.join('&') : '');
      send.disabled = true;
      result.textContent = 'Sending…';
      var started = performance.now();
      fetch(url, init).then(function (res) {
        return res.text().then(function (text) {
          var ms = Math.round(performance.now() - started);
          result.textContent = '';
          var code = el('span', { class: 'q-status q-status-' + String(res.status).charAt(0) + 'xx', text: statusText(res) });
          result.appendChild(el('p', { class: 'q-playground-status' }, [el('span', { text: 'Response ' }), code, el('span', { class: 'q-playground-time', text: ms + ' ms' })]));
          var lines = [];
          res.headers.forEach(function (value, name) { lines.push(name + ': ' + value); });
          if (lines.length) {
            result.appendChild(el('details', { class: 'q-playground-headers' }, [el('summary', { text: 'Response headers' }), el('pre', {}, [el('code', { text: lines.join('\n') })])]));
          }
          var shown = text;
          try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch { /* not JSON: as sent */ }
          result.appendChild(el('pre', { class: 'q-playground-body', tabindex: '0', 'aria-label': 'Response body' }, [el('code', { text: shown || '(empty body)' })]));
        });
      }).catch(function () {
        result.textContent = 'The request could not be sent: the server did not answer, or it does not accept requests from this site (CORS).';
      }).then(function () {
        send.disabled = false;
      });
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll('.q-openapi[data-q-playground]'), function (op) {
    var data;
    try { data = JSON.parse(op.getAttribute('data-q-playground')); } catch { return; }
    if (data && data.server && data.path && data.method) setup(op, data);
  });
})();
