/**
 * Editing the YAML frontmatter from a form: only the lines of keys whose value changed are rewritten
 * (with `yaml`, the parser frontmatter.ts uses), removed keys lose their lines, new keys are appended;
 * comments and the order and layout of other keys stay. A page without frontmatter gets one.
 */
import { isMap, isScalar, parseDocument, stringify } from 'yaml';
import type { TextEdit } from '../markdown/text-edits';
import { frontmatterRange } from './parse-source';
import { applyTextEdits, eolOf, minimalEdit } from './splice';

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** `key: value` as YAML lines (no trailing line end), in `eol`. */
function pairText(key: string, value: unknown, eol: string): string {
  return stringify({ [key]: value }, { lineWidth: 0 }).replace(/\n$/, '').split('\n').join(eol);
}

/**
 * The edit making the page's frontmatter hold exactly `data` (top-level keys). Unchanged keys keep their
 * bytes; when the YAML cannot be parsed as a mapping, the whole block is rewritten.
 */
export function setFrontmatter(source: string, data: Record<string, unknown>): TextEdit {
  const eol = eolOf(source);
  const range = frontmatterRange(source);
  if (!range) {
    if (Object.keys(data).length === 0) return { from: 0, to: 0, text: '' };
    const at = source.startsWith('\uFEFF') ? 1 : 0;
    const yaml = Object.entries(data).map(([k, v]) => pairText(k, v, eol)).join(eol);
    return { from: at, to: at, text: `---${eol}${yaml}${eol}---${eol}${source.length > at ? eol : ''}` };
  }
  const yamlStart = source.indexOf('\n') + 1;
  const yamlText = range.yaml;
  const doc = parseDocument(yamlText, { uniqueKeys: false });
  const rewriteAll = (): TextEdit => {
    const yaml = Object.entries(data).map(([k, v]) => pairText(k, v, eol)).join(eol);
    return { from: yamlStart, to: yamlStart + yamlText.length, text: yaml ? yaml + eol : '' };
  };
  if (doc.errors.length > 0 || !(isMap(doc.contents) || doc.contents === null)) return rewriteAll();
  const edits: TextEdit[] = [];
  const seen = new Set<string>();
  const lineStart = (o: number) => yamlText.lastIndexOf('\n', o - 1) + 1;
  const lineEnd = (o: number) => {
    const n = yamlText.indexOf('\n', o);
    return n < 0 ? yamlText.length : n + 1;
  };
  for (const item of isMap(doc.contents) ? doc.contents.items : []) {
    if (!isScalar(item.key) || !item.key.range) return rewriteAll();
    const key = String(item.key.value);
    seen.add(key);
    const old: unknown = (item.value as { toJSON?: () => unknown } | null)?.toJSON?.() ?? (isScalar(item.value) ? item.value.value : null);
    if (Object.hasOwn(data, key) && same(old, data[key])) continue;
    const end = (item.value as { range?: [number, number, number] } | null)?.range?.[1] ?? item.key.range[1];
    const from = lineStart(item.key.range[0]);
    const to = lineEnd(Math.max(from, end - 1));
    const text = Object.hasOwn(data, key) ? pairText(key, data[key], eol) + eol : '';
    edits.push({ from, to, text });
  }
  const added = Object.keys(data).filter((k) => !seen.has(k));
  if (added.length > 0) {
    const text = added.map((k) => pairText(k, data[k], eol) + eol).join('');
    const tail = yamlText.length > 0 && !yamlText.endsWith('\n') ? eol : '';
    edits.push({ from: yamlText.length, to: yamlText.length, text: tail + text });
  }
  return minimalEdit(source, yamlStart, yamlStart + yamlText.length, applyTextEdits(yamlText, edits));
}
