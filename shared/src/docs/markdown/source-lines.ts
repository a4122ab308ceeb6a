/**
 * Source lines in preview renders (render-page.ts `sourceLines`, off for published builds): the
 * desktop app's preview follows the editor's scroll by mapping the editor's top line to the
 * rendered block with the nearest `data-line` at or above it. Top-level blocks and code blocks
 * carry `data-line="<1-based line of the page file>"` (the frontmatter is blanked line for line, so
 * lines are the file's). Blocks that come from snippets carry none.
 */
import type { Handler } from 'mdast-util-to-hast';

/** Puts `data-line` on the first tag of trusted HTML (a highlighted code block), when a line is given. */
export function withSourceLine(html: string, line: number | undefined): string {
  if (!line) return html;
  return html.replace(/^(\s*<[a-zA-Z][\w-]*)/, `$1 data-line="${line}"`);
}

type HandlerResult = ReturnType<Handler>;

function mark(result: HandlerResult, line: number): void {
  const first = Array.isArray(result) ? result.find((r) => r.type === 'element' || r.type === ('raw' as string)) : result;
  if (!first) return;
  if (first.type === 'element') first.properties = { ...first.properties, dataLine: line };
  else if ((first.type as string) === 'raw') {
    const raw = first as unknown as { value: string };
    raw.value = withSourceLine(raw.value, line);
  }
}

/**
 * Wraps every mdast-to-hast handler so that the result for a node of `topLines` (the page's own
 * top-level nodes, and their position objects, with their start lines) is marked with `data-line`.
 */
export function lineMarkingHandlers(all: Record<string, Handler>, topLines: Map<unknown, number | undefined>): Record<string, Handler> {
  const out: Record<string, Handler> = {};
  for (const [type, handler] of Object.entries(all)) {
    out[type] = (state, node, parent) => {
      const result = handler(state, node, parent);
      // a node the snippet resolver rebuilt keeps its position object
      const line = topLines.get(node) ?? (parent?.type === 'root' && node.position ? topLines.get(node.position) : undefined);
      if (line && result) mark(result, line);
      return result;
    };
  }
  return out;
}
