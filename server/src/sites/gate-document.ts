import { GATE_TITLE, renderStandaloneGateDocument } from '@quire/shared/site/gate-page';

/**
 * The gate page in the site's own look, without rendering a page at request time: the deployment's
 * not-found page (built with the site's header, navigation and footer; as a visitor without tags
 * sees it, so no gated entry shows) with its `<main>` content replaced by the gate's article
 * (shared/src/site/gate-page.ts) and its title by "Restricted page". Nothing of the gated page
 * itself is used.
 */

/** The not-found page cut around its `<main>` content: what comes before it and after it. */
export interface GateChrome {
  head: Buffer;
  tail: Buffer;
}

const MAIN_OPEN = '<main class="q-main"';
const MAIN_CLOSE = '</main>';

/**
 * Cuts a built not-found page (its bytes, UTF-8) around its `<main class="q-main">` content and
 * retitles it ("Restricted page - <site name>" in `<title>` and `og:title`).
 * @returns null when the page has no such `<main>` (a deployment not built by Quire's theme)
 */
export function gateChromeOf(notFound: Buffer): GateChrome | null {
  const text = notFound.toString('utf8');
  const open = text.indexOf(MAIN_OPEN);
  const close = text.lastIndexOf(MAIN_CLOSE);
  if (open === -1 || close < open) return null;
  const openEnd = text.indexOf('>', open) + 1;
  if (openEnd === 0 || openEnd > close) return null;
  // the site name as the theme wrote it (already escaped)
  const siteName = /<meta property="og:site_name" content="([^"]*)">/.exec(text)?.[1];
  const title = `${GATE_TITLE}${siteName ? ` - ${siteName}` : ''}`;
  const headEnd = text.indexOf('</head>');
  let head = text.slice(0, openEnd);
  if (headEnd !== -1 && headEnd < open) {
    const retitled = text
      .slice(0, headEnd)
      .replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`)
      .replace(/(<meta property="og:title" content=")[^"]*(">)/, `$1${title}$2`)
      .replace(/<meta name="description" content="[^"]*">|<meta property="og:description" content="[^"]*">/g, '');
    head = retitled + text.slice(headEnd, openEnd);
  }
  return { head: Buffer.from(head, 'utf8'), tail: Buffer.from(text.slice(close), 'utf8') };
}

/**
 * A complete document around a gate article (shared/src/site/gate-page.ts): inside the site's
 * chrome when there is one, else the standalone document.
 */
export function gateDocument(chrome: GateChrome | null, article: string, title = GATE_TITLE): Buffer {
  if (!chrome) return Buffer.from(renderStandaloneGateDocument(article, { title }), 'utf8');
  return Buffer.concat([chrome.head, Buffer.from(article, 'utf8'), chrome.tail]);
}
