/**
 * LaTeX math rendered at build time with KaTeX (MINTLIFY-FORMAT.md section 9; Mintlify's "LaTeX"
 * component and `$`/`$$` syntax, mintlify.com/docs/components/latex). The page needs KaTeX's stylesheet
 * and fonts, which the site serves from its own `_quire/assets/` (shared/src/node/site-assets.ts) on pages
 * that hold math ({@link MATH_MARKER}).
 *
 * Safety: KaTeX runs with `trust: false` (no `\href`, `\url`, `\includegraphics`, `\htmlClass`...: they
 * render as errors), bounded `maxSize`/`maxExpand`, and its output is sanitized again here against an
 * allow-list of exactly what KaTeX emits (spans with classes and length styles, MathML, the SVG of
 * stretchy symbols). The result is trusted HTML: the page sanitizer, which refuses MathML (mXSS), never
 * sees it (render-page.ts puts it in a trusted slot).
 */
import katex from 'katex';
import sanitize from 'sanitize-html';
import { escapeHtml } from './html';

/** Present in the HTML of every page that holds rendered math (the site loads KaTeX's CSS then). */
export const MATH_MARKER = 'class="katex';

const MATHML_TAGS = [
  'math', 'semantics', 'annotation', 'mrow', 'mi', 'mn', 'mo', 'ms', 'mtext', 'mspace', 'msup', 'msub', 'msubsup',
  'mfrac', 'msqrt', 'mroot', 'mover', 'munder', 'munderover', 'mtable', 'mtr', 'mtd', 'mstyle', 'mpadded',
  'mphantom', 'menclose', 'mglyph', 'mlabeledtr', 'merror',
];
const MATHML_ATTRS = [
  'xmlns', 'display', 'encoding', 'mathvariant', 'mathcolor', 'mathbackground', 'mathsize', 'stretchy', 'fence',
  'separator', 'lspace', 'rspace', 'minsize', 'maxsize', 'symmetric', 'largeop', 'movablelimits', 'accent',
  'accentunder', 'linethickness', 'columnalign', 'columnlines', 'columnspacing', 'rowalign', 'rowlines',
  'rowspacing', 'width', 'height', 'depth', 'voffset', 'scriptlevel', 'displaystyle', 'notation', 'align',
  'frame', 'framespacing', 'equalrows', 'equalcolumns', 'side',
];
const LENGTH = /^-?(\d+(\.\d*)?|\.\d+)(em|ex|pt|px|mu|%)?$/;
const COLOR = /^(#[0-9a-f]{3,8}|rgba?\([\d\s.,%]+\)|[a-z]{3,20})$/i;
const LENGTH_STYLES = [
  'height', 'width', 'min-width', 'max-width', 'vertical-align', 'top', 'bottom', 'left', 'right', 'margin-left',
  'margin-right', 'margin-top', 'margin-bottom', 'padding-left', 'padding-right', 'padding-top', 'padding-bottom',
  'border-bottom-width', 'border-top-width', 'border-right-width', 'border-left-width', 'border-width', 'font-size',
];

const MATH_SANITIZE: sanitize.IOptions = {
  allowedTags: ['span', 'svg', 'path', 'line', 'rect', 'g', ...MATHML_TAGS],
  allowedAttributes: {
    span: ['class', 'style', 'aria-hidden', 'title'],
    svg: ['xmlns', 'width', 'height', 'viewbox', 'viewBox', 'preserveaspectratio', 'preserveAspectRatio', 'style'],
    path: ['d'],
    line: ['x1', 'x2', 'y1', 'y2', 'stroke-width'],
    rect: ['x', 'y', 'width', 'height'],
    ...Object.fromEntries(MATHML_TAGS.map((t) => [t, MATHML_ATTRS])),
  },
  allowedStyles: {
    '*': {
      ...Object.fromEntries(LENGTH_STYLES.map((p) => [p, [LENGTH]])),
      color: [COLOR],
      'background-color': [COLOR],
      'border-color': [COLOR],
      'border-style': [/^(solid|dashed|dotted|none)$/],
      position: [/^relative$/],
    },
  },
  allowedSchemes: [],
  parser: { lowerCaseAttributeNames: false },
};

/**
 * Renders TeX to KaTeX HTML (with MathML for screen readers), sanitized (see the module doc). A TeX error
 * never throws: KaTeX shows the source in the error color with the message as its title.
 * @param display true: block math (`$$...$$`, ```` ```math ````), centered on its own line
 */
export function renderMath(tex: string, display: boolean): string {
  let html: string;
  try {
    html = katex.renderToString(tex, {
      displayMode: display,
      throwOnError: false,
      trust: false,
      strict: 'ignore',
      output: 'htmlAndMathml',
      maxSize: 50,
      maxExpand: 1000,
    });
  } catch {
    // a limit such as maxExpand is reported by throwing even with throwOnError false
    html = `<span class="katex-error">${escapeHtml(tex)}</span>`;
  }
  const safe = sanitize(html, MATH_SANITIZE);
  return display ? `<div class="q-math">${safe}</div>` : safe;
}
