import tokensCss from '@quire/shared/assets/tokens.css?inline';
import componentsCss from '@quire/shared/assets/components.css?inline';
import codeCss from '@quire/shared/assets/code.css?inline';
import layoutCss from '@quire/shared/assets/layout.css?inline';

/** The class of the element the site's CSS is scoped to (the visual editing surface). */
export const SITE_SCOPE = 'visual-site';

/**
 * The published site's own CSS (shared/src/site/assets: tokens, components, code, and the article's
 * `.q-prose` typography from layout.css) scoped to `.visual-site`, so the visual mode draws blocks as the
 * site does without the site's page-level rules (`:root`, `html`, `body`) reaching the app. Dark mode:
 * `data-theme="dark"` on the scoped element, as the site sets it on `<html>`.
 */
export function scopedSiteCss(): string {
  const prose = (layoutCss.match(/^\.q-prose[^{]*\{[^}]*\}/gm) ?? []).join('\n');
  return [tokensCss, componentsCss, codeCss, prose]
    .join('\n')
    .replace(/:root\b/g, `.${SITE_SCOPE}`)
    .replace(/\bhtml(\[data-theme="dark"\]|:not\(\[data-theme="dark"\]\)|:has\([^)]*\))/g, `.${SITE_SCOPE}$1`)
    .replace(/\bhtml\.q-zoom-open/g, 'html.visual-never');
}

let injected = false;

/** Puts {@link scopedSiteCss} into the document once. */
export function useSiteCss(): void {
  if (injected || typeof document === 'undefined') return;
  injected = true;
  const style = document.createElement('style');
  style.dataset.quire = 'visual-site-css';
  style.textContent = scopedSiteCss();
  document.head.appendChild(style);
}
