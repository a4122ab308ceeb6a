/**
 * The markup of the site's assistant, "Ask AI" (site-look.md "Feel": the assistant is one of the few
 * scripts a site runs): the button in the top bar next to the search box, and the panel, a modal
 * side sheet (`<dialog>` opened with showModal: the page behind is inert, so focus stays in it;
 * focus returns to the button on close; the whole screen under 640 px). Behaviour lives in
 * assets/ask-ai.js (no inline script: the site CSP allows only 'self' scripts), the look in
 * assets/ask-ai.css.
 *
 * The panel is not in the page: ask-ai.js makes it (a child of <body> right after the top bar) when
 * it starts, so the ~3.6 KB of a panel most readers never open are not sent with every page, and
 * are cached once with the site's script instead. Its regions: the head (title, "Conversations",
 * "New conversation", "Close"); the conversation list (`hidden` until asked for); the thread
 * (`role="log"`, `aria-live="polite"`, `aria-busy` while an answer streams); the form (the question
 * box labelled "Your question": Enter sends, Shift-Enter starts a new line; "Send"; "Stop" while an
 * answer streams).
 *
 * The button is rendered invisible (`data-q-ask-pending`, its space kept so nothing moves) and is
 * shown by ask-ai.js once `GET /_quire/chat` answers `{data: {enabled: true}}`; any other answer
 * removes it (`hidden`): the project's `aiEnabled` setting can change without a rebuild.
 *
 * Wire protocol (shared/src/api/chat.ts; decisions.md section 7): `POST /_quire/chat` with
 * `{question, visitorId, sessionId?, version?}` and `Accept: text/event-stream` streams the events of
 * `ChatStreamEvent`; `GET /_quire/chat/sessions?visitorId=` lists the visitor's conversations and
 * `GET /_quire/chat/sessions/<id>?visitorId=` gives one's messages. The visitor id is a random UUID
 * kept in localStorage (`quire.visitorId`); no cookie is set.
 */
import { icon } from './icons';

/** The site's assistant endpoint (decisions.md section 6: the site's own endpoints live under `/_quire/`). */
export const SITE_CHAT_PATH = '/_quire/chat';

/** The id of the Ask AI panel (made by assets/ask-ai.js), the target of every `data-q-ask-open` button. */
export const ASK_DIALOG_ID = 'q-ask';

/**
 * The top bar's "Ask AI" button (accessible name "Ask AI"; an icon only on phones), invisible until
 * ask-ai.js learns the assistant is on. Ctrl/Cmd-I opens the panel too (Ctrl/Cmd-K is search's).
 */
export function renderAskButton(): string {
  return (
    `<button class="q-ask-btn" type="button" data-q-ask-open data-q-ask-pending aria-haspopup="dialog" aria-controls="${ASK_DIALOG_ID}" aria-label="Ask AI" aria-keyshortcuts="Control+I Meta+I">` +
    `${icon('sparkles')}<span class="q-ask-label">Ask AI</span></button>`
  );
}
