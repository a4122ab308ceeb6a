/**
 * Editing one JSX attribute of a component in place (MDX: attribute values are quoted strings without
 * escapes, or `{expressions}`; a bare name means `true`). The attribute keeps its quote character; a value
 * holding that quote is written as a JavaScript string expression instead.
 */
import type { TextEdit } from '../markdown/text-edits';
import type { VisualProp } from './types';

/** `name=value` as JSX, quoted with `quote` when the value allows it. */
function attribute(name: string, value: string | boolean, quote: string): string {
  if (value === true) return name;
  if (value === false) return `${name}={false}`;
  if (!value.includes(quote)) return `${name}=${quote}${value}${quote}`;
  const other = quote === '"' ? "'" : '"';
  return value.includes(other) ? `${name}={${JSON.stringify(value)}}` : `${name}=${other}${value}${other}`;
}

/**
 * The edit giving a component's attribute `value`: in place for an existing prop (its `[from, to)`), else
 * added after the component's last attribute (or its name) — `componentFrom` is the offset of its `<`.
 * @param quote the quote for a new attribute (SourceStyle.quote), default `"`
 * @throws Error when no JSX tag starts at `componentFrom`
 */
export function setComponentProp(
  source: string,
  prop: VisualProp | { componentFrom: number; name: string },
  value: string | boolean,
  quote: '"' | "'" = '"',
): TextEdit {
  if ('from' in prop) {
    const q = /=\s*(["'])/.exec(source.slice(prop.from, prop.to))?.[1] ?? quote;
    return { from: prop.from, to: prop.to, text: attribute(prop.name, value, q) };
  }
  const tag = /^<([A-Za-z][\w.:-]*)/.exec(source.slice(prop.componentFrom));
  if (!tag) throw new Error(`no JSX tag at offset ${prop.componentFrom}`);
  // the end of the attribute list: the `>` or `/>` closing the opening tag, outside quotes and braces
  let i = prop.componentFrom + tag[0].length;
  let depth = 0;
  let inQuote: string | undefined;
  for (; i < source.length; i++) {
    const c = source[i]!;
    if (inQuote) {
      if (c === inQuote) inQuote = undefined;
    } else if (c === '"' || c === "'") inQuote = c;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (depth === 0 && (c === '>' || (c === '/' && source[i + 1] === '>'))) break;
  }
  let at = i;
  while (at > prop.componentFrom + tag[0].length && /\s/.test(source[at - 1]!)) at--;
  return { from: at, to: at, text: ` ${attribute(prop.name, value, quote)}` };
}
