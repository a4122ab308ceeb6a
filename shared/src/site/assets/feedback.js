/* global fetch */
// Quire reader feedback (deferred; CSP-safe: no inline handlers, bound here by data-q-feedback*):
// - "Was this page helpful?" (article.ts FEEDBACK_HTML): Yes/No, then an optional comment (at most
//   1,000 characters) and Send;
// - a thumbs up/down pair next to each h2/h3 of the page (shown on hover or keyboard focus of the
//   heading row, or once the row was tapped, on every screen), named "Helpful: <heading>" /
//   "Not helpful: <heading>", then an optional comment (at most 500 characters) and Send.
// An answer is sent once, with its comment, to the site's own /_quire/feedback/page or /section
// (decisions.md sections 6-7) when the reader presses Send, or when the page is hidden or left
// before that (fetch keepalive), so a vote without a comment still counts. Sent answers are
// remembered in localStorage (per page path and section), so a reload shows "Thanks". The anonymous
// visitor id is the one the assistant uses (localStorage quire.visitorId). No cookies.
(function () {
  var doc = document;
  var pageBox = doc.querySelector('[data-q-feedback]');
  if (!pageBox) return;

  var ENDPOINT = '/_quire/feedback/';
  var VISITOR_KEY = 'quire.visitorId';
  var THANKS = 'Thanks for your feedback!';
  var FAILED = 'Your feedback could not be sent; try again.';
  var MAX_PAGE_COMMENT = 1000;
  var MAX_SECTION_COMMENT = 500;
  var pagePath = (function () {
    try { return decodeURIComponent(window.location.pathname); } catch { return window.location.pathname; }
  })();
  var storePrefix = 'quire.feedback:' + pagePath;
  var pending = [];

  function getItem(key) { try { return localStorage.getItem(key); } catch { return null; } }
  function setItem(key, value) { try { localStorage.setItem(key, value); } catch { /* storage unavailable */ } }

  function visitorId() {
    var id = getItem(VISITOR_KEY);
    if (id && id.length <= 100) return id;
    id = window.crypto && typeof window.crypto.randomUUID === 'function' ? window.crypto.randomUUID() : String(Date.now()) + '-' + String(Math.random()).slice(2);
    setItem(VISITOR_KEY, id);
    return id;
  }

  function el(tag, attrs, text) {
    var node = doc.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text) node.textContent = text;
    return node;
  }

  // One answer waiting for its comment: sent by Send, or flushed when the page goes away.
  // `body` is the request body without the comment; `form` holds the comment; `done(ok)` updates the widget.
  function newAnswer(kind, body, storeKey, storeValue, form, done) {
    var answer = { kind: kind, body: body, storeKey: storeKey, storeValue: storeValue, form: form, sent: false };
    function payload() {
      var full = Object.assign({}, answer.body, { pagePath: pagePath, visitorId: visitorId() });
      var area = answer.form.querySelector('textarea');
      var comment = area ? area.value.trim() : '';
      if (comment) full.comment = comment;
      return JSON.stringify(full);
    }
    answer.send = function (keepalive) {
      if (answer.sent) return;
      answer.sent = true;
      var request = fetch(ENDPOINT + answer.kind, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: payload(), keepalive: Boolean(keepalive), credentials: 'same-origin' });
      if (keepalive) return;
      request.then(function (res) {
        if (!res.ok) throw new Error(String(res.status));
        setItem(answer.storeKey, answer.storeValue);
        var i = pending.indexOf(answer);
        if (i !== -1) pending.splice(i, 1);
        done(true);
      }).catch(function () {
        answer.sent = false;
        done(false);
      });
    };
    pending.push(answer);
    return answer;
  }

  function flushPending() {
    pending.slice().forEach(function (a) {
      a.send(true);
      setItem(a.storeKey, a.storeValue);
    });
    pending = [];
  }
  doc.addEventListener('visibilitychange', function () { if (doc.visibilityState === 'hidden') flushPending(); });
  window.addEventListener('pagehide', flushPending);

  // The comment form shown once an answer is chosen.
  function commentForm(name, label, max, idSuffix) {
    var form = el('form', { class: 'q-feedback-form', 'aria-label': name });
    var id = 'q-feedback-comment-' + idSuffix;
    form.appendChild(el('label', { for: id }, label));
    form.appendChild(el('textarea', { id: id, name: 'comment', maxlength: String(max), rows: '3' }));
    var row = el('div', { class: 'q-feedback-form-row' });
    row.appendChild(el('button', { type: 'submit', class: 'q-btn-ghost' }, 'Send'));
    row.appendChild(el('span', { class: 'q-feedback-count', 'aria-hidden': 'true' }, '0/' + max));
    form.appendChild(row);
    var area = form.querySelector('textarea');
    var count = form.querySelector('.q-feedback-count');
    area.addEventListener('input', function () { count.textContent = area.value.length + '/' + max; });
    return form;
  }

  // ---------- the page ----------
  var pageButtons = Array.prototype.slice.call(pageBox.querySelectorAll('[data-q-feedback-value]'));
  var pageThanks = pageBox.querySelector('.q-feedback-thanks');
  var pageAnswer = null;
  function pressPage(value) {
    pageButtons.forEach(function (b) { b.setAttribute('aria-pressed', b.getAttribute('data-q-feedback-value') === value ? 'true' : 'false'); });
  }
  function pageDone(value) {
    pressPage(value);
    pageBox.classList.add('q-feedback-done');
    if (pageThanks) pageThanks.textContent = THANKS;
  }
  var answeredPage = getItem(storePrefix);
  if (answeredPage === 'yes' || answeredPage === 'no') pageDone(answeredPage);
  pageButtons.forEach(function (button) {
    button.addEventListener('click', function () {
      if (pageBox.classList.contains('q-feedback-done')) return;
      var value = button.getAttribute('data-q-feedback-value');
      pressPage(value);
      if (pageAnswer) {
        // changing the answer before sending: same form, new value
        pageAnswer.body.helpful = value === 'yes';
        pageAnswer.storeValue = value;
        pageAnswer.form.querySelector('label').textContent = value === 'yes' ? 'What helped? (optional)' : 'What was missing? (optional)';
        return;
      }
      var form = commentForm('Page feedback', value === 'yes' ? 'What helped? (optional)' : 'What was missing? (optional)', MAX_PAGE_COMMENT, 'page');
      pageBox.appendChild(form);
      pageAnswer = newAnswer('page', { helpful: value === 'yes' }, storePrefix, value, form, function (ok) {
        if (ok) {
          var hadFocus = form.contains(doc.activeElement);
          form.remove();
          pageDone(pageAnswer.storeValue);
          var pressed = pageBox.querySelector('[aria-pressed="true"]');
          if (hadFocus && pressed) pressed.focus();
        } else if (pageThanks) pageThanks.textContent = FAILED;
      });
      form.addEventListener('submit', function (e) {
        e.preventDefault();
        pageAnswer.send(false);
      });
      form.querySelector('textarea').focus();
    });
  });

  // ---------- sections ----------
  var UP = '<svg class="q-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M7 10v12"/><path d="M15 5.88 14 10h5.83a2 2 0 0 1 1.92 2.56l-2.33 8A2 2 0 0 1 17.5 22H4a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2h2.76a2 2 0 0 0 1.79-1.11L12 2a3.13 3.13 0 0 1 3 3.88Z"/></svg>';
  var DOWN = '<svg class="q-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M17 14V2"/><path d="M9 18.12 10 14H4.17a2 2 0 0 1-1.92-2.56l2.33-8A2 2 0 0 1 6.5 2H20a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-2.76a2 2 0 0 0-1.79 1.11L12 22a3.13 3.13 0 0 1-3-3.88Z"/></svg>';

  function headingText(h) {
    var copy = h.cloneNode(true);
    Array.prototype.forEach.call(copy.querySelectorAll('.q-heading-anchor, .q-section-vote'), function (x) { x.remove(); });
    return copy.textContent.replace(/\s+/g, ' ').trim();
  }

  var headings = Array.prototype.slice.call(doc.querySelectorAll('.q-prose > h2[id], .q-prose > h3[id]'));
  headings.forEach(function (h, index) {
    var sectionId = h.id;
    var title = headingText(h);
    if (!sectionId || !title) return;
    var key = storePrefix + '#' + sectionId;
    // heading and buttons side by side, so the buttons do not become part of the heading's name
    var head = el('div', { class: 'q-section-head q-section-head-' + h.tagName.toLowerCase() });
    h.parentNode.insertBefore(head, h);
    head.appendChild(h);
    var group = el('span', { class: 'q-section-vote', role: 'group', 'aria-label': 'Was this section helpful? ' + title });
    var up = el('button', { type: 'button', class: 'q-section-vote-btn', 'aria-label': 'Helpful: ' + title, 'aria-pressed': 'false', 'data-vote': 'up' });
    var down = el('button', { type: 'button', class: 'q-section-vote-btn', 'aria-label': 'Not helpful: ' + title, 'aria-pressed': 'false', 'data-vote': 'down' });
    up.innerHTML = UP;
    down.innerHTML = DOWN;
    var status = el('span', { class: 'q-section-vote-status', role: 'status' });
    group.appendChild(up);
    group.appendChild(down);
    group.appendChild(status);
    head.appendChild(group);
    // touch screens have no hover: a tap on the heading row shows its votes (feedback.css)
    head.addEventListener('click', function (event) {
      if (!group.contains(event.target)) head.classList.add('q-section-shown');
    });

    var answer = null;
    function press(vote) {
      up.setAttribute('aria-pressed', vote === 'up' ? 'true' : 'false');
      down.setAttribute('aria-pressed', vote === 'down' ? 'true' : 'false');
    }
    function done(vote) {
      press(vote);
      group.classList.add('q-section-voted');
      status.textContent = 'Thanks!';
    }
    var stored = getItem(key);
    if (stored === 'up' || stored === 'down') done(stored);
    [up, down].forEach(function (button) {
      button.addEventListener('click', function () {
        if (group.classList.contains('q-section-voted')) return;
        var vote = button.getAttribute('data-vote');
        press(vote);
        group.classList.add('q-section-pending');
        if (answer) {
          answer.body.vote = vote;
          answer.storeValue = vote;
          return;
        }
        var form = commentForm('Feedback on ' + title, 'Comment on \u201c' + title + '\u201d (optional)', MAX_SECTION_COMMENT, 'section-' + index);
        form.classList.add('q-section-comment');
        head.parentNode.insertBefore(form, head.nextSibling);
        answer = newAnswer('section', { sectionId: sectionId, vote: vote }, key, vote, form, function (ok) {
          if (ok) {
            var hadFocus = form.contains(doc.activeElement);
            form.remove();
            group.classList.remove('q-section-pending');
            done(answer.storeValue);
            if (hadFocus) (answer.storeValue === 'up' ? up : down).focus();
          } else status.textContent = FAILED;
        });
        form.addEventListener('submit', function (e) {
          e.preventDefault();
          answer.send(false);
        });
        form.querySelector('textarea').focus();
      });
    });
  });
})();
