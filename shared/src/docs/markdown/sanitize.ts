/**
 * The one HTML sanitizer for both engines (decisions.md section 10: sites of many tenants share
 * one host, so a page must not run script of its own). Allowlist based (sanitize-html):
 * - tags: prose, tables, media, details/summary, our component markup, a small SVG subset for icons;
 *   never script/style/object/embed/form/base/meta/link/template/noscript/math/foreignObject/use/animate;
 * - attributes: class, id, title, role, lang, dir, hidden, tabindex, aria-*, data-*, plus per-tag
 *   ones (href, src, alt, width, height, open, colspan...); no `on*` handler, no `srcdoc`, no `formaction`;
 * - URLs: http, https, mailto and relative only (javascript:, data:, vbscript: removed);
 * - `style`: only on span/pre, only shiki's colors and color custom properties, font style/weight,
 *   text decoration, and background-color (color swatches);
 * - iframes: https `src` only (else removed), a forced `sandbox` without `allow-same-origin`, and an
 *   `allow=` list cut down to harmless features (iframe-policy.ts);
 * - author-supplied `id`/`name` values (and `for`, `headers`, `aria-labelledby`... pointing at them) get
 *   the `user-content-` prefix, except the ids the engine generated (user-ids.ts: DOM clobbering);
 * - `target="_blank"` links get `rel="noopener noreferrer"`; buttons are forced to `type="button"`;
 *   inputs only as disabled checkboxes (GFM task lists).
 */
import sanitize from 'sanitize-html';
import { filterIframeAllow, IFRAME_SANDBOX } from './iframe-policy';
import { prefixUserIds, type OwnIds } from './user-ids';

export { IFRAME_SANDBOX } from './iframe-policy';
export { USER_ID_PREFIX, type OwnIds } from './user-ids';

const COLOR = /^(#[0-9a-f]{3,8}|rgba?\([\d\s.,%]+\)|hsla?\([\d\s.,%deg]+\)|[a-z]{3,20}|inherit|transparent)$/i;
const FONT_STYLE = /^(italic|normal|oblique)$/;
const FONT_WEIGHT = /^(bold|normal|bolder|lighter|\d{3})$/;
const TEXT_DECORATION = /^(underline|line-through|none|overline)( (underline|line-through|overline))*$/;

const SHIKI_STYLES: Record<string, RegExp[]> = {
  color: [COLOR],
  'background-color': [COLOR],
  'font-style': [FONT_STYLE],
  'font-weight': [FONT_WEIGHT],
  'text-decoration': [TEXT_DECORATION],
};
for (const theme of ['light', 'dark']) {
  SHIKI_STYLES[`--shiki-${theme}`] = [COLOR];
  SHIKI_STYLES[`--shiki-${theme}-bg`] = [COLOR];
  SHIKI_STYLES[`--shiki-${theme}-font-style`] = [FONT_STYLE];
  SHIKI_STYLES[`--shiki-${theme}-font-weight`] = [FONT_WEIGHT];
  SHIKI_STYLES[`--shiki-${theme}-text-decoration`] = [TEXT_DECORATION];
}

const SVG_TAGS = ['svg', 'g', 'path', 'circle', 'ellipse', 'rect', 'line', 'polyline', 'polygon', 'title', 'defs', 'lineargradient', 'radialgradient', 'stop', 'clippath'];
const SVG_ATTRS = [
  'xmlns', 'viewbox', 'viewBox', 'fill', 'fill-opacity', 'fill-rule', 'clip-rule', 'stroke', 'stroke-width', 'stroke-linecap',
  'stroke-linejoin', 'stroke-opacity', 'stroke-dasharray', 'opacity', 'd', 'cx', 'cy', 'r', 'rx', 'ry', 'x', 'y', 'x1', 'x2',
  'y1', 'y2', 'points', 'transform', 'width', 'height', 'offset', 'stop-color', 'stop-opacity', 'gradientunits',
  'gradientUnits', 'gradienttransform', 'gradientTransform', 'clip-path', 'preserveaspectratio', 'preserveAspectRatio',
  'version', 'focusable',
];

// `allowedEmptyAttributes` is a sanitize-html option its type definitions do not list yet.
const OPTIONS: sanitize.IOptions & { allowedEmptyAttributes: string[] } = {
  allowedTags: [
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'a', 'strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'strike',
    'sub', 'sup', 'mark', 'small', 'big', 'kbd', 'code', 'pre', 'samp', 'var', 'blockquote', 'q', 'cite', 'abbr', 'dfn',
    'time', 'wbr', 'center', 'font', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th',
    'td', 'caption', 'colgroup', 'col', 'img', 'picture', 'figure', 'figcaption', 'video', 'audio', 'source', 'track',
    'iframe', 'details', 'summary', 'div', 'span', 'section', 'article', 'aside', 'header', 'footer', 'nav', 'main',
    'button', 'input', 'label', 'address', 'ruby', 'rt', 'rp', 'bdi', 'bdo', ...SVG_TAGS,
  ],
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'title', 'xmp', 'noembed', 'noframes', 'plaintext', 'select', 'object', 'embed', 'applet', 'frameset'],
  disallowedTagsMode: 'discard',
  allowedAttributes: {
    '*': ['class', 'id', 'title', 'role', 'lang', 'dir', 'hidden', 'tabindex', 'aria-*', 'data-*'],
    a: ['href', 'name', 'target', 'rel', 'hreflang', 'download'],
    img: ['src', 'srcset', 'sizes', 'alt', 'width', 'height', 'loading', 'decoding', 'align'],
    source: ['src', 'srcset', 'sizes', 'type', 'media'],
    video: ['src', 'poster', 'controls', 'autoplay', 'muted', 'loop', 'playsinline', 'preload', 'width', 'height'],
    audio: ['src', 'controls', 'autoplay', 'muted', 'loop', 'preload'],
    track: ['src', 'kind', 'srclang', 'label', 'default'],
    iframe: ['src', 'width', 'height', 'allow', 'allowfullscreen', 'loading', 'referrerpolicy', 'frameborder', 'sandbox', 'name'],
    details: ['open', 'name'],
    td: ['colspan', 'rowspan', 'align', 'valign', 'headers'],
    th: ['colspan', 'rowspan', 'align', 'valign', 'scope', 'headers'],
    col: ['span', 'width'],
    colgroup: ['span'],
    ol: ['start', 'reversed', 'type'],
    ul: ['type'],
    li: ['value'],
    time: ['datetime'],
    q: ['cite'],
    blockquote: ['cite'],
    del: ['cite', 'datetime'],
    ins: ['cite', 'datetime'],
    abbr: [],
    button: ['type', 'disabled', 'value'],
    input: ['type', 'checked', 'disabled'],
    label: ['for'],
    font: ['color', 'size'],
    table: ['align', 'width'],
    span: ['style'],
    pre: ['style'],
    div: ['align'],
    p: ['align'],
    ...Object.fromEntries(SVG_TAGS.map((t) => [t, SVG_ATTRS])),
  },
  // sanitize-html drops an empty `hidden` (it is in its nonBooleanAttributes list); other boolean
  // attributes such as open and controls already pass through bare.
  allowedEmptyAttributes: ['alt', 'hidden'],
  allowedStyles: { span: SHIKI_STYLES, pre: SHIKI_STYLES },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { iframe: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite', 'poster', 'action', 'longdesc', 'xlink:href'],
  allowProtocolRelative: false,
  allowedIframeHostnames: undefined,
  enforceHtmlBoundary: false,
  transformTags: {
    a: (tagName, attribs) => {
      if (attribs.target === '_blank') attribs.rel = 'noopener noreferrer';
      else if (attribs.target) delete attribs.target;
      return { tagName, attribs };
    },
    button: (tagName, attribs) => ({ tagName, attribs: { ...attribs, type: 'button' } }),
    input: (tagName, attribs) => ({ tagName, attribs: { ...attribs, type: 'checkbox', disabled: '' } }),
    iframe: (tagName, attribs) => {
      const allow = attribs.allow === undefined ? undefined : filterIframeAllow(attribs.allow);
      const { allow: _dropped, ...rest } = attribs;
      return { tagName, attribs: { ...rest, ...(allow ? { allow } : {}), sandbox: IFRAME_SANDBOX } };
    },
  },
  exclusiveFilter: (frame) => frame.tag === 'iframe' && !/^https:\/\//i.test(frame.attribs.src ?? ''),
};

/** Options of {@link sanitizeHtml}. */
export interface SanitizeOptions {
  /**
   * The ids the engine generated in this fragment (renderPage: the page's HeadingCollector.ids), kept
   * unprefixed; 'all' only for HTML that holds no author HTML (an OpenAPI operation). Default: none,
   * every id is treated as the author's and prefixed.
   */
  ownIds?: OwnIds;
}

const NO_IDS: OwnIds = new Set<string>();
const ALLOWED_TAGS = new Set(OPTIONS.allowedTags || []);

/**
 * Sanitizes an HTML fragment (the whole rendered page body) against Quire's allowlist; see the module doc.
 * Pure and synchronous; never throws on malformed HTML (the parser is forgiving).
 */
export function sanitizeHtml(html: string, options: SanitizeOptions = {}): string {
  const own = options.ownIds ?? NO_IDS;
  const seen = new Set<string>();
  return sanitize(html, {
    ...OPTIONS,
    transformTags: {
      ...OPTIONS.transformTags,
      '*': (tagName, attribs) => {
        // a tag about to be discarded must not take an engine id's one unprefixed use
        if (ALLOWED_TAGS.has(tagName)) prefixUserIds(tagName, attribs, own, seen);
        return { tagName, attribs };
      },
    },
  });
}
