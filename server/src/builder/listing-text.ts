/** Text helpers of the site's generated listings (llms.txt, sitemap.xml). */

/** A page path as a URL path: each segment percent-encoded (`guides/set up` → `guides/set%20up`). */
export const encodePagePath = (pagePath: string): string => pagePath.split('/').map(encodeURIComponent).join('/');

/** `text` on one line: runs of white space (newlines included) become one space, ends trimmed. */
export const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
