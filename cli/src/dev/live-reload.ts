/**
 * Live reload of `quire-docs dev` (never part of a build): every HTML document the dev server sends
 * gets one external script, {@link RELOAD_SCRIPT_PATH} (the site's CSP lets only the site's own scripts
 * run, so it is not inline), which listens to the Server-Sent Events of {@link EVENTS_PATH} and reloads
 * the page on a `reload` event. The browser's EventSource reconnects by itself when the server restarts.
 */

/** The dev server's own URL space: no published file can live under `_quire/` (shared/src/site/published-files.ts). */
export const DEV_PREFIX = '/_quire/dev/';
/** URL of the reload script. */
export const RELOAD_SCRIPT_PATH = `${DEV_PREFIX}reload.js`;
/** URL of the event stream. */
export const EVENTS_PATH = `${DEV_PREFIX}events`;

/** The reload script's text. */
export const RELOAD_SCRIPT = `(() => {
  const events = new EventSource(${JSON.stringify(EVENTS_PATH)});
  events.addEventListener('reload', () => location.reload());
})();
`;

const TAG = `<script src="${RELOAD_SCRIPT_PATH}" defer></script>`;

/** An HTML document with the reload script put before `</body>` (at the end when it has none). */
export function withReloadScript(html: string): string {
  const at = html.lastIndexOf('</body>');
  return at === -1 ? html + TAG : html.slice(0, at) + TAG + html.slice(at);
}

/** An HTML document without the reload script {@link withReloadScript} put in: what a build writes. */
export function withoutReloadScript(html: string): string {
  return html.replace(TAG, '');
}

/** One Server-Sent Event (`event:` and one `data:` line of JSON). */
export function sseEvent(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}
