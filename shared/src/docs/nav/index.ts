/** Navigation utilities over the normalized tree ({@link NavNode}) that the config loader produces. */
export { walkNav, walkPages, childrenOf, isHiddenVisit, type NavVisit } from './walk';
export { flattenPages } from './flatten-pages';
export { findTrail } from './find-trail';
export { prevNext, type PrevNext } from './prev-next';
export { checkNavigation, pagePathOf, PAGE_EXTENSIONS } from './check-navigation';
export { fillTitles, type PageLabel } from './fill-titles';
export { isSitePathLocation, matchRedirect, type RedirectTarget } from './match-redirect';
export { languageTag, languageName, languageFolder, pageLanguages, languageResolver, languageDivisions, counterpartPaths, defaultFirst } from './languages';
