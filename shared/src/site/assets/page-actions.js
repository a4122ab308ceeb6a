/* global location, btoa, fetch */
// Page actions beside the title (page-actions.ts): fills the links that need the page's absolute
// URL, reveals the control, copies the page's Markdown (its .md) with a "Copied" status, and runs
// the actions menu as a WAI-ARIA menu button (Enter/Space/ArrowDown open on the first item,
// ArrowUp on the last; arrows, Home and End move; Escape closes and returns focus; Tab and a click
// elsewhere close).
(function () {
  var box = document.querySelector('[data-q-page-actions]');
  if (!box) return;
  var toggle = box.querySelector('.q-pa-toggle');
  var menu = box.querySelector('.q-pa-menu');
  var status = box.querySelector('[data-q-pa-status]');
  var pageUrl = location.origin + location.pathname;
  // a site on this computer (*.localhost): the editors' Node.js side may not resolve its name, so
  // they get the same MCP server by path on 127.0.0.1 (server/src/sites/site-by-path.ts)
  var mcpUrl = /\.localhost$/.test(location.hostname)
    ? location.protocol + '//127.0.0.1' + (location.port ? ':' + location.port : '') + '/sites/' + location.hostname + '/mcp'
    : location.origin + '/mcp';
  var name = box.getAttribute('data-q-site-name') || location.hostname;
  var prompt = encodeURIComponent('Read ' + pageUrl + ' so I can ask questions about it.');
  var hrefs = {
    chatgpt: 'https://chatgpt.com/?hints=search&q=' + prompt,
    claude: 'https://claude.ai/new?q=' + prompt,
    perplexity: 'https://www.perplexity.ai/search?q=' + prompt,
    cursor: 'cursor://anysphere.cursor-deeplink/mcp/install?name=' + encodeURIComponent(name) +
      '&config=' + encodeURIComponent(btoa(JSON.stringify({ url: mcpUrl }))),
    vscode: 'vscode:mcp/install?' + encodeURIComponent(JSON.stringify({ name: name, type: 'http', url: mcpUrl })),
  };
  Array.prototype.forEach.call(box.querySelectorAll('[data-q-pa-link]'), function (a) {
    var href = hrefs[a.getAttribute('data-q-pa')];
    if (href) a.setAttribute('href', href);
  });
  box.classList.add('q-pa-ready');

  /* ---------- copy the page's Markdown ---------- */
  var markdown = null;
  function loadMarkdown() {
    if (!markdown) {
      markdown = fetch(box.getAttribute('data-q-md'), { credentials: 'same-origin' }).then(function (res) {
        if (!res.ok) throw new Error('status ' + res.status);
        return res.text();
      });
      markdown.catch(function () { markdown = null; });
    }
    return markdown;
  }
  function writeText(text) {
    if (navigator.clipboard && navigator.clipboard.writeText) return navigator.clipboard.writeText(text);
    return Promise.reject(new Error('no clipboard'));
  }
  function say(text) {
    if (!status) return;
    status.textContent = '';
    setTimeout(function () { status.textContent = text; }, 30);
  }
  var resetTimer = 0;
  function copyPage(button) {
    loadMarkdown().then(writeText).then(function () {
      var label = button.querySelector('.q-pa-label');
      if (button.classList.contains('q-pa-primary') && label) {
        label.textContent = 'Copied';
        button.classList.add('q-copied');
        clearTimeout(resetTimer);
        resetTimer = setTimeout(function () {
          label.textContent = 'Copy page';
          button.classList.remove('q-copied');
        }, 2000);
      }
      say('Copied');
    }, function () { say('The page could not be copied'); });
  }
  // fetch ahead when the reader comes near, so the copy happens within their click
  box.addEventListener('pointerenter', function () { loadMarkdown().catch(function () {}); });
  box.addEventListener('focusin', function () { loadMarkdown().catch(function () {}); });

  /* ---------- the menu ---------- */
  function items() { return Array.prototype.slice.call(menu.querySelectorAll('[role="menuitem"]')); }
  function open(focusLast) {
    menu.hidden = false;
    toggle.setAttribute('aria-expanded', 'true');
    var list = items();
    var target = focusLast ? list[list.length - 1] : list[0];
    if (target) target.focus();
  }
  function close(refocus) {
    if (menu.hidden) return;
    menu.hidden = true;
    toggle.setAttribute('aria-expanded', 'false');
    if (refocus) toggle.focus();
  }
  toggle.addEventListener('click', function () {
    if (menu.hidden) open(false); else close(false);
  });
  toggle.addEventListener('keydown', function (event) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      open(event.key === 'ArrowUp');
    }
  });
  menu.addEventListener('keydown', function (event) {
    var list = items();
    var at = list.indexOf(document.activeElement);
    var next = -1;
    if (event.key === 'ArrowDown') next = (at + 1) % list.length;
    else if (event.key === 'ArrowUp') next = (at - 1 + list.length) % list.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = list.length - 1;
    else if (event.key === 'Escape') {
      event.preventDefault();
      close(true);
      return;
    } else if (event.key === 'Tab') {
      close(false);
      return;
    } else if ((event.key === ' ' || event.key === 'Enter') && document.activeElement && document.activeElement.tagName === 'A') {
      // a link item: Space follows it like Enter does
      if (event.key === ' ') {
        event.preventDefault();
        document.activeElement.click();
      }
      return;
    }
    if (next >= 0) {
      event.preventDefault();
      list[next].focus();
    }
  });
  document.addEventListener('click', function (event) {
    if (!box.contains(event.target)) close(false);
  });
  box.addEventListener('click', function (event) {
    var action = event.target.closest && event.target.closest('[data-q-pa]');
    if (!action) return;
    if (action.getAttribute('data-q-pa') === 'copy') {
      event.preventDefault();
      copyPage(action.classList.contains('q-pa-item') ? box.querySelector('.q-pa-primary[data-q-pa="copy"]') || action : action);
    }
    if (action.classList.contains('q-pa-item')) close(action.getAttribute('data-q-pa') === 'copy');
  });
})();
