/**
 * The theme's static files under shared/src/site/assets (resolvable as
 * `import.meta.resolve('@quire/shared/assets/<name>')`), in the order the builder concatenates them
 * into the hashed site.css / site.js. components.* and code.* belong to the Markdown renderer, openapi.css to
 * the OpenAPI pages, search.* to the search dialog (search-ui.ts), feedback.* to the feedback widgets (article.ts), ask-ai.* to the Ask AI panel
 * (ask-ai.ts), page-actions.* to the page actions (page-actions.ts); they use the tokens defined in
 * tokens.css, so tokens come first.
 */

/** CSS files, concatenated in this order into `site.<hash>.css`. */
export const SITE_CSS_FILES: string[] = ['tokens.css', 'layout.css', 'components.css', 'code.css', 'openapi.css', 'search.css', 'feedback.css', 'ask-ai.css', 'page-actions.css'];

/** Deferred scripts, concatenated in this order into `site.<hash>.js`. */
export const SITE_JS_FILES: string[] = ['site.js', 'components.js', 'code.js', 'media.js', 'playground.js', 'search.js', 'feedback.js', 'ask-ai.js', 'page-actions.js'];

/**
 * The tiny blocking script loaded in <head> (`theme.<hash>.js`): applies the saved or system
 * color scheme before first paint so dark mode never flashes.
 */
export const THEME_JS_FILE = 'theme.js';

/** Folder of the hashed theme assets inside a deployment (and of a site's URL space: `/_quire/assets/...`). */
export const ASSET_DIR = '_quire/assets';
