/**
 * API fields (site-look.md: "name in monospace, type and required badges, description, nested Expandable
 * children"): `ParamField` (`query`|`path`|`body`|`header` = name; `type`, `required`, `default`,
 * `deprecated`, `placeholder`), `ResponseField` (`name`, `type`, `required`, `default`, `deprecated`,
 * `pre`, `post`). Markup: `<div class="q-field" id="…"><div class="q-field-head"><code class="q-field-name">`
 * then badges (`q-badge-type`, `q-badge-required`, `q-badge-default`, `q-badge-deprecated`), then the body.
 */
import { escapeHtml } from '../html';
import { bool, str, type Component, type Props } from './types';

const LOCATIONS = ['query', 'path', 'body', 'header', 'cookie'] as const;

function listProp(props: Props, key: string): string[] {
  const v = props[key];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  const s = str(props, key);
  return s ? [s] : [];
}

function field(id: string, kind: 'param' | 'response', name: string, location: string | undefined, props: Props, body: string): string {
  const badges: string[] = [];
  for (const p of listProp(props, 'pre')) badges.push(`<span class="q-badge">${escapeHtml(p)}</span>`);
  if (location) badges.push(`<span class="q-badge q-badge-location">${escapeHtml(location)}</span>`);
  const type = str(props, 'type');
  if (type) badges.push(`<span class="q-badge q-badge-type">${escapeHtml(type)}</span>`);
  if (bool(props, 'required')) badges.push(`<span class="q-badge q-badge-required">required</span>`);
  if (bool(props, 'deprecated')) badges.push(`<span class="q-badge q-badge-deprecated">deprecated</span>`);
  const def = props.default;
  if (def !== undefined && def !== null && typeof def !== 'object') {
    badges.push(`<span class="q-badge q-badge-default">default: ${escapeHtml(String(def))}</span>`);
  }
  for (const p of listProp(props, 'post')) badges.push(`<span class="q-badge">${escapeHtml(p)}</span>`);
  return (
    `<div class="q-field q-field-${kind}${bool(props, 'deprecated') ? ' q-field-deprecated' : ''}" id="${escapeHtml(id)}">` +
    `<div class="q-field-head"><code class="q-field-name">${escapeHtml(name)}</code>${badges.join('')}</div>` +
    `<div class="q-field-body">${body}</div></div>`
  );
}

/** The field components by name. */
export const fieldComponents: Record<string, Component> = {
  ParamField: (ctx) => {
    const location = LOCATIONS.find((l) => str(ctx.props, l) !== undefined);
    const name = location ? str(ctx.props, location)! : (str(ctx.props, 'name') ?? '');
    return field(ctx.headings.id(`param-${name}`), 'param', name, location, ctx.props, ctx.children());
  },
  ResponseField: (ctx) => {
    const name = str(ctx.props, 'name') ?? '';
    return field(ctx.headings.id(`response-${name}`), 'response', name, undefined, ctx.props, ctx.children());
  },
};
