/**
 * Disclosures on native `<details>`/`<summary>` (work without JavaScript): `Accordion` (`title`,
 * `description`, `defaultOpen`, `icon`, `id`; deep-linkable: components.js opens the accordion named by the
 * URL hash), `AccordionGroup` (bordered as one list), `Expandable` (`title`, `defaultOpen`; nested fields).
 */
import { escapeHtml } from '../html';
import { namedIcon } from '../icons';
import { bool, html, iconHtml, inlineHtml, str, type Component } from './types';

const CHEVRON = namedIcon('chevron-right', 'q-icon q-chevron');

/** The disclosure components by name. */
export const accordionComponents: Record<string, Component> = {
  Accordion: (ctx) => {
    const { props } = ctx;
    const titleText = str(props, 'title') ?? 'Details';
    const id = str(props, 'id') ?? ctx.headings.id(titleText);
    const description = html(props, 'description');
    return (
      `<details class="q-accordion" id="${escapeHtml(id)}"${bool(props, 'defaultOpen') ? ' open' : ''}>` +
      `<summary class="q-accordion-summary">${CHEVRON}${iconHtml(props.icon, 'q-icon q-accordion-icon')}` +
      `<span class="q-accordion-heading"><span class="q-accordion-title">${inlineHtml(props, 'title') || escapeHtml(titleText)}</span>` +
      (description ? `<span class="q-accordion-description">${description}</span>` : '') +
      `</span></summary><div class="q-accordion-body">${ctx.children()}</div></details>`
    );
  },
  AccordionGroup: (ctx) => `<div class="q-accordion-group">${ctx.children()}</div>`,
  Expandable: (ctx) => {
    const title = str(ctx.props, 'title');
    const label = title ? `Show ${title}` : 'Show properties';
    return (
      `<details class="q-expandable"${bool(ctx.props, 'defaultOpen') ? ' open' : ''}>` +
      `<summary class="q-expandable-summary">${CHEVRON}<span>${escapeHtml(label)}</span></summary>` +
      `<div class="q-expandable-body">${ctx.children()}</div></details>`
    );
  },
};
