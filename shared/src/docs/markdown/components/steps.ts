/**
 * `Steps` / `Step` (site-look.md: "numbered circles on a vertical line, each step a title and body").
 * Markup: `<ol class="q-steps"><li class="q-step" id="…"><span class="q-step-number">1</span>
 * <div class="q-step-content"><div class="q-step-title">…</div><div class="q-step-body">…</div></div></li></ol>`.
 * `stepNumber` overrides the number; a titled step gets a deep-linkable id unless `noAnchor`.
 */
import { escapeHtml } from '../html';
import { isJsxElement, type UNode } from '../mdx-nodes';
import { inlineMarksText } from '../inline-marks';
import { bool, iconHtml, inlineHtml, propsOf, str, type Component, type ComponentContext, type Props } from './types';

function step(ctx: ComponentContext, props: Props, body: string, n: number): string {
  const title = inlineHtml(props, 'title');
  const raw = str(props, 'title');
  const titleText = raw === undefined ? undefined : inlineMarksText(raw);
  const id = str(props, 'id') ?? (titleText && !bool(props, 'noAnchor') ? ctx.headings.id(titleText) : undefined);
  const number = str(props, 'stepNumber') ?? String(n);
  const icon = iconHtml(props.icon, 'q-icon q-step-icon');
  return (
    `<li class="q-step"${id ? ` id="${escapeHtml(id)}"` : ''}>` +
    `<span class="q-step-number" aria-hidden="true">${icon || escapeHtml(number)}</span>` +
    `<div class="q-step-content">${title ? `<div class="q-step-title">${title}</div>` : ''}` +
    `<div class="q-step-body">${body}</div></div></li>`
  );
}

/** The step components by name. */
export const stepComponents: Record<string, Component> = {
  Steps: (ctx) => {
    let n = 0;
    const items = (ctx.node.children as UNode[]).map((c) => {
      if (isJsxElement(c) && c.name === 'Step') {
        n++;
        return step(ctx, propsOf(c), ctx.render(c.children), n);
      }
      return `<li class="q-step q-step-plain">${ctx.render([c])}</li>`;
    });
    return `<ol class="q-steps">${items.join('')}</ol>`;
  },
  Step: (ctx) => `<ol class="q-steps">${step(ctx, ctx.props, ctx.children(), 1)}</ol>`,
};
