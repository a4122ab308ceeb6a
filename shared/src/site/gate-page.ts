/**
 * The pages site hosting shows instead of content a visitor may not read (decisions.md section 6):
 *
 * - the **gate form**, on any gated page (frontmatter `audience`) to a visitor without access: it
 *   says the page needs access, without its title or any of its content, and takes an access token
 *   (`POST /_quire/token`, fields `token` and `next`, the page's own path);
 * - the **preview access** pages of preview links (`/_quire/link/<token>`): a password form, or a
 *   clear message when the link expired, was revoked or is unknown, after too many wrong passwords,
 *   when the preview is private, or when a team member's pass (`/_quire/pass/<pass>`) is no longer valid.
 *
 * Two forms each: an `<article>` that site hosting puts into the site's own chrome (the not-found
 * page of the deployment, so the gate looks like the site), and a complete standalone document for
 * deployments without one and for private previews (whose navigation must not show). Markup only,
 * no script (site CSP); the look is a small inline `<style>` (the CSP allows inline styles), so it
 * also works with the CSS of deployments built before these pages existed.
 */
import { escapeHtml } from './escape';

/** Where the gate form posts (decisions.md section 6: the site's own endpoints live under `/_quire/`). */
export const GATE_FORM_ACTION = '/_quire/token';
/** Form field holding the pasted token. */
export const GATE_TOKEN_FIELD = 'token';
/** Form field holding the path to return to. */
export const GATE_NEXT_FIELD = 'next';
/** Form field of a preview link's password. */
export const PREVIEW_PASSWORD_FIELD = 'password';

/** Title of the gate page (the page's own title is never shown). */
export const GATE_TITLE = 'Restricted page';

/** Why the gate form shows again with a message. */
export type GateError = 'invalid_token' | 'no_access';

const GATE_ERRORS: Record<GateError, string> = {
  invalid_token: 'This access token is not valid: it may have expired or been revoked, or it belongs to another site. Ask for a new link.',
  no_access: 'Your access token does not open this page. Paste another token, or ask for access.',
};

const STYLE =
  '<style>.q-gate{max-width:32rem;margin:3rem auto;padding:0 1.25rem}.q-gate h1{font-size:1.6rem;margin:0 0 .75rem}' +
  '.q-gate p{line-height:1.6}.q-gate-form{display:flex;flex-direction:column;gap:.5rem;margin-top:1.25rem}' +
  '.q-gate-form label{font-weight:600}.q-gate-form input{font:inherit;padding:.55rem .7rem;border:1px solid var(--q-border-strong,#c9ced4);' +
  'border-radius:var(--q-radius-sm,8px);background:var(--q-bg,#fff);color:var(--q-fg,#1f2329)}' +
  '.q-gate-form button{font:inherit;font-weight:600;align-self:flex-start;margin-top:.5rem;padding:.55rem 1.1rem;border:0;' +
  'border-radius:var(--q-radius-sm,8px);background:var(--q-primary-fill,#0a7a60);color:var(--q-primary-fg,#fff);cursor:pointer}' +
  '.q-gate-error{padding:.6rem .8rem;border-radius:var(--q-radius-sm,8px);background:#fdecec;color:#8a1c1c}</style>';

const STANDALONE_STYLE =
  '<style>body{margin:0;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2329;background:#fff}' +
  '.q-gate-site{margin:0;padding:1rem 1.25rem;border-bottom:1px solid #e5e7ea;font-weight:600}' +
  '@media (prefers-color-scheme:dark){body{color:#e6e8eb;background:#111418}.q-gate-site{border-color:#2a2f36}' +
  '.q-gate-form input{background:#1a1e24;color:#e6e8eb;border-color:#3a414a}}</style>';

/** Options of the gate form. */
export interface GateFormOptions {
  /** the page's path as requested (`/guides/partners`), sent back as `next`; escaped here */
  next: string;
  error?: GateError;
}

/** The gate's `<article>`: heading, explanation, optional error, the token form. */
export function renderGateArticle(options: GateFormOptions): string {
  const error = options.error ? `<p class="q-gate-error" role="alert">${escapeHtml(GATE_ERRORS[options.error])}</p>` : '';
  return (
    `${STYLE}<article class="q-article q-gate" aria-labelledby="q-gate-title"><h1 class="q-title" id="q-gate-title">This page needs access</h1>` +
    '<p>This page is only available to readers with an access link or token. Open the link you were sent, or paste your access token below.</p>' +
    `${error}<form class="q-gate-form" method="post" action="${GATE_FORM_ACTION}">` +
    `<label for="q-gate-token">Access token</label>` +
    `<input id="q-gate-token" name="${GATE_TOKEN_FIELD}" type="text" autocomplete="off" autocapitalize="off" spellcheck="false" required>` +
    `<input type="hidden" name="${GATE_NEXT_FIELD}" value="${escapeHtml(options.next)}">` +
    '<button type="submit">Open page</button></form></article>'
  );
}

/** What a preview link page says. */
export type PreviewAccessState = 'password' | 'expired' | 'revoked' | 'unknown' | 'private' | 'throttled' | 'pass';

/** Options of a preview link page. */
export interface PreviewAccessOptions {
  /** `password`: where the form posts (the link's own URL); escaped here */
  action?: string;
  /** `password`: say the last password was wrong */
  wrongPassword?: boolean;
  /** `throttled`: seconds until passwords are checked again (the response's `Retry-After`) */
  retryAfter?: number;
}

const PREVIEW_TEXT: Record<Exclude<PreviewAccessState, 'password' | 'throttled'>, { heading: string; text: string }> = {
  expired: { heading: 'This preview link has expired', text: 'Ask whoever shared it for a new link.' },
  revoked: { heading: 'This preview link was revoked', text: 'It no longer opens the preview. Ask whoever shared it for a new link.' },
  unknown: { heading: 'This preview link is not valid', text: 'Check that you copied the whole link, or ask whoever shared it for a new one.' },
  pass: { heading: 'This member link is no longer valid', text: 'Member links open a preview for a few minutes only. Open the preview again from Quire Desktop.' },
  private: { heading: 'This preview is private', text: 'Open it with the preview link you were sent; team members open it from Quire Desktop.' },
};

/**
 * The `<article>` of a preview link page: for `password`, a form posting the password to `action`
 * (the link's own URL), with an error after a wrong one; for `throttled`, how many minutes to wait
 * (after too many wrong passwords); otherwise the message of the state.
 */
export function renderPreviewAccessArticle(state: PreviewAccessState, options: PreviewAccessOptions = {}): string {
  if (state === 'throttled') {
    const minutes = Math.max(1, Math.ceil((options.retryAfter ?? 60) / 60));
    return renderNoticeArticle(
      'Too many wrong passwords',
      `This preview link was given too many wrong passwords. Wait ${minutes} minute${minutes === 1 ? '' : 's'}, then open the link again.`,
    );
  }
  if (state !== 'password') {
    const { heading, text } = PREVIEW_TEXT[state];
    return `${STYLE}<article class="q-article q-gate" aria-labelledby="q-gate-title"><h1 class="q-title" id="q-gate-title">${heading}</h1><p>${text}</p></article>`;
  }
  const error = options.wrongPassword ? '<p class="q-gate-error" role="alert">That password is not correct. Try again.</p>' : '';
  return (
    `${STYLE}<article class="q-article q-gate" aria-labelledby="q-gate-title"><h1 class="q-title" id="q-gate-title">This preview is protected</h1>` +
    '<p>Enter the password you were given with this link to open the preview.</p>' +
    `${error}<form class="q-gate-form" method="post" action="${escapeHtml(options.action ?? '')}">` +
    `<label for="q-gate-password">Password</label>` +
    `<input id="q-gate-password" name="${PREVIEW_PASSWORD_FIELD}" type="password" autocomplete="current-password" required>` +
    '<button type="submit">Open preview</button></form></article>'
  );
}

/** A short notice `<article>`: a heading and a sentence (refusals without a way in, such as an address outside an IP allowlist). */
export function renderNoticeArticle(heading: string, text: string): string {
  return `${STYLE}<article class="q-article q-gate" aria-labelledby="q-gate-title"><h1 class="q-title" id="q-gate-title">${escapeHtml(heading)}</h1><p>${escapeHtml(text)}</p></article>`;
}

/**
 * A complete standalone document around `article`: site name (escaped here) as a plain heading,
 * `noindex`, no script, no stylesheet besides the inline ones.
 */
export function renderStandaloneGateDocument(article: string, options: { title: string; siteName?: string }): string {
  const site = options.siteName ? escapeHtml(options.siteName) : '';
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(options.title)}${site ? ` - ${site}` : ''}</title><meta name="robots" content="noindex">${STANDALONE_STYLE}</head>` +
    `<body>${site ? `<p class="q-gate-site">${site}</p>` : ''}<main id="content">${article}</main></body></html>`
  );
}
