/** The site's request path rule lives in shared/src/site/site-path.ts (site hosting and `quire-docs dev` share it). */
export { sitePathOf } from '@quire/shared/site/site-path';
