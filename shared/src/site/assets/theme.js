// Quire site theme bootstrap (loaded blocking in <head>, before first paint, so dark mode never
// flashes): applies the saved choice ('quire-theme' in localStorage: 'light' | 'dark'), else the
// config default (html[data-default-theme]: 'system' | 'light' | 'dark'), 'system' following
// prefers-color-scheme. html[data-theme-strict] (appearance.strict) ignores saved choices.
(function () {
  var root = document.documentElement;
  var mode = root.getAttribute('data-default-theme') || 'system';
  if (!root.hasAttribute('data-theme-strict')) {
    try {
      var saved = localStorage.getItem('quire-theme');
      if (saved === 'light' || saved === 'dark') mode = saved;
    } catch {
      // storage unavailable (privacy mode): keep the default
    }
  }
  if (mode !== 'light' && mode !== 'dark') {
    mode = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  root.setAttribute('data-theme', mode);
})();
