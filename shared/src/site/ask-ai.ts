/**
 * The markup of the site's assistant, "Ask AI" (site-look.md "Feel": the assistant is one of the few
 * scripts a site runs): the button in the top bar next to the search box, and the panel, a modal
 * side sheet (`<dialog>` opened with showModal: the page behind is inert, so focus stays in it;
 * focus returns to the button on close; the whole screen under 640 px). Behaviour lives in
 * assets/ask-ai.js (no inline script: the site CSP allows only 'self' scripts), the look in
 * assets/ask-ai.css.
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

/** The id of the Ask AI panel, the target of every `data-q-ask-open` button. */
export const ASK_DIALOG_ID = 'q-ask';

/** The id of the panel's question box (its label: "Your question"). */
export const ASK_INPUT_ID = 'q-ask-input';

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

/**
 * The Ask AI panel, once per document (a child of <body>). Regions:
 * - the head: title, "Conversations" (shows the previous conversations), "New conversation", "Close";
 * - the conversation list (`hidden` until asked for): one button per previous conversation;
 * - the thread (`role="log"`, `aria-live="polite"`, `aria-busy` while an answer streams, so screen
 *   readers read the answer once, whole): questions and answers, citations `[n]` as links to the
 *   sections and a numbered source list under each answer;
 * - the form: the question box (Enter sends, Shift-Enter starts a new line), "Send", and "Stop"
 *   while an answer streams.
 */
export const ASK_DIALOG_HTML =
  `<dialog class="q-ask-dialog" id="${ASK_DIALOG_ID}" aria-label="Ask AI" aria-modal="true" data-q-ask-endpoint="${SITE_CHAT_PATH}">` +
  '<div class="q-ask-head">' +
  `<h2 class="q-ask-title">${icon('sparkles')}<span>Ask AI</span></h2>` +
  '<div class="q-ask-actions">' +
  `<button class="q-icon-btn" type="button" data-q-ask-history aria-expanded="false" aria-controls="q-ask-history" aria-label="Conversations" title="Conversations">${icon('clock')}</button>` +
  `<button class="q-icon-btn" type="button" data-q-ask-new aria-label="New conversation" title="New conversation">${icon('pencil')}</button>` +
  `<button class="q-icon-btn" type="button" data-q-ask-close aria-label="Close" title="Close (Esc)">${icon('close')}</button>` +
  '</div></div>' +
  '<section class="q-ask-history" id="q-ask-history" aria-labelledby="q-ask-history-title" hidden>' +
  '<h3 class="q-ask-history-title" id="q-ask-history-title">Previous conversations</h3>' +
  '<p class="q-ask-history-status" role="status"></p>' +
  '<ul class="q-ask-history-list"></ul>' +
  '</section>' +
  '<div class="q-ask-body">' +
  '<div class="q-ask-intro">' +
  `<span class="q-ask-intro-icon">${icon('sparkles')}</span>` +
  '<p>Ask a question about this documentation. Answers are written from its pages and link to the sections they come from.</p>' +
  '</div>' +
  '<div class="q-ask-thread" role="log" aria-live="polite" aria-label="Conversation"></div>' +
  '</div>' +
  '<form class="q-ask-form" novalidate>' +
  `<label class="q-visually-hidden" for="${ASK_INPUT_ID}">Your question</label>` +
  `<textarea class="q-ask-input" id="${ASK_INPUT_ID}" name="question" rows="1" maxlength="2000" placeholder="Ask a question..." enterkeyhint="send" autocomplete="off"></textarea>` +
  `<button class="q-ask-stop" type="button" data-q-ask-stop hidden>${icon('stop')}<span>Stop</span></button>` +
  `<button class="q-ask-send" type="submit" aria-label="Send" title="Send (Enter)">${icon('arrow-right')}</button>` +
  '</form>' +
  '<p class="q-ask-note">Answers come only from this documentation and can be wrong: check the cited pages.</p>' +
  '</dialog>';
