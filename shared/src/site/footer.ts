/** The site footer from the config's `footer` (socials as icon links, link columns) with "Built with Quire". */
import type { SiteContext } from './context';
import { escapeHtml, externalAttrs } from './escape';
import { socialIcon, socialLabel } from './icons';

/** Footer markup (static per site). */
export function renderFooter(ctx: SiteContext): string {
  const footer = ctx.site.footer ?? { socials: [], links: [] };
  const socials = (footer.socials ?? [])
    .map((s) => {
      const href = ctx.configHref(s.href);
      // an icon link named by the network (aria-label), with the name as a tooltip
      return href ? `<li><a class="q-social" href="${href}"${externalAttrs(s.href)} aria-label="${socialLabel(s.type)}" title="${socialLabel(s.type)}">${socialIcon(s.type)}</a></li>` : '';
    })
    .join('');
  const columns = (footer.links ?? [])
    .map((col) => {
      const items = col.items
        .map((i) => {
          const href = ctx.configHref(i.href);
          return href ? `<li><a href="${href}"${externalAttrs(i.href)}>${escapeHtml(i.label)}</a></li>` : '';
        })
        .join('');
      const heading = col.header ? `<p class="q-footer-heading">${escapeHtml(col.header)}</p>` : '';
      return items ? `<div class="q-footer-col">${heading}<ul>${items}</ul></div>` : '';
    })
    .join('');
  return (
    `<footer class="q-footer"><div class="q-footer-inner">` +
    `<div class="q-footer-brand"><span class="q-footer-name">${ctx.name}</span>${socials ? `<ul class="q-socials" aria-label="Social links">${socials}</ul>` : ''}</div>` +
    `${columns ? `<div class="q-footer-cols">${columns}</div>` : ''}` +
    `<p class="q-built">Built with Quire</p></div></footer>`
  );
}
