/**
 * The markup by which the built chrome names pages, as site hosting reads it back
 * (server/src/sites/page-links.ts) to leave out, per reader, the pages the project's access rules
 * and IP allowlists refuse them (decisions.md sections 6 and 9). Those rules change without a
 * build, so the builder marks nothing for them: the chrome names a page only through a link whose
 * target is the page, and these few elements tell site hosting what else goes with such a link.
 *
 * - A list item holding nothing but the link (sidebar entries, anchors, switcher entries, footer
 *   links) goes as a whole.
 * - A link in a group's heading ({@link NAV_HEADING_CLASS} paragraph or `<summary>`) and the logo
 *   ({@link LOGO_CLASS}) show a group's title or the site's name, not the page's: only the link
 *   goes, its text stays.
 * - A sidebar section ({@link NAV_SECTION_CLASS}) or nested group ({@link NAV_GROUP_CLASS}) whose
 *   every link names a page goes when all of them go (its title would name what it holds).
 */

/** Class of a sidebar section: a top-level group, or a run of pages outside any group. */
export const NAV_SECTION_CLASS = 'q-nav-section';
/** Class of the `<li>` of a nested sidebar group. */
export const NAV_GROUP_CLASS = 'q-nav-group';
/** Class of a top-level group's heading paragraph (its title, or a link to its root page). */
export const NAV_HEADING_CLASS = 'q-nav-heading';
/** Class of the header's logo link. */
export const LOGO_CLASS = 'q-logo';
