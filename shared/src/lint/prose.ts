/**
 * Runs the prose checks (text-checks.ts) over a page with `@textlint/kernel`. An MDX page's tree is
 * the renderer's own (page-tree.ts), handed to textlint as its TxtAST (txt-ast.ts) by a plugin made
 * for the page; a `.md` page is parsed by textlint's Markdown plugin. Checks see only prose: text runs
 * (`Str`), heading text and paragraphs, never code, math, front matter or JSX attributes.
 */
import type { TextlintKernel } from '@textlint/kernel';
import type { TextlintRuleModule, TextlintRuleContext } from '@textlint/types';
import type { TextlintPluginCreator } from '@textlint/types';
import * as markdownModule from '@textlint/textlint-plugin-markdown';
import type { UNode } from '../docs/markdown/mdx-nodes';
import type { TextCheck } from './text-checks';
import { toTxtAst, type TxtDocument } from './txt-ast';
import type { LintFinding } from './types';

/**
 * The plugin object of a CommonJS plugin module, however the loader wrapped it (`{ Processor }`,
 * or that under one or two `default`s: Node's ESM loader and bundlers differ).
 */
function pluginOf(mod: unknown): TextlintPluginCreator {
  let m = mod as { Processor?: unknown; default?: unknown };
  for (let i = 0; i < 3 && !m.Processor && m.default; i++) m = m.default as typeof m;
  if (!m.Processor) throw new Error('a textlint plugin without a Processor');
  return m as TextlintPluginCreator;
}
const markdownPlugin = pluginOf(markdownModule);

/** A textlint plugin for `.mdx` that gives textlint an already parsed page (its TxtAST). */
function treePlugin(ast: TxtDocument): TextlintPluginCreator {
  return {
    Processor: class {
      availableExtensions() {
        return ['.mdx'];
      }
      processor() {
        return {
          preProcess: () => ast,
          postProcess: (messages: unknown[], filePath?: string) => ({ messages, filePath: filePath ?? '<mdx>' }),
        };
      }
    } as unknown as TextlintPluginCreator['Processor'],
  };
}

type Node = Parameters<TextlintRuleContext['getSource']>[0] & { type: string; children?: Node[] };

/** A textlint rule that runs `check` where its scope says. */
function ruleOf(check: TextCheck, state: Map<string, number>): TextlintRuleModule {
  return (context) => {
    const { Syntax, RuleError, fixer, locator, report, getSource } = context;
    const emit = (node: Node, offset: number, text: string) => {
      for (const hit of check.run(text, state)) {
        const range = [offset + hit.start, offset + hit.end] as const;
        report(
          node,
          new RuleError(hit.message, { padding: locator.range(range), ...(hit.fix === undefined ? {} : { fix: fixer.replaceTextRange(range, hit.fix) }) }),
        );
      }
    };
    const handlers: Record<string, (node: Node) => void> = {};
    if (check.scope === 'text') handlers[Syntax.Str] = (node) => emit(node, 0, getSource(node));
    else if (check.scope === 'paragraph') handlers[Syntax.Paragraph] = (node) => emit(node, 0, getSource(node));
    else return {
      [Syntax.Header]: (node: Node) => {
        // Only headings of plain text: code, links or components inside cannot be recased safely.
        if (!node.children?.every((c) => c.type === Syntax.Str)) return;
        const source = getSource(node);
        const lead = /^#{1,6}[ \t]+/.exec(source)?.[0].length ?? 0;
        const body = source.slice(lead).replace(/[ \t]+#*[ \t]*$/, '');
        emit(node, lead, body);
      },
    };
    return handlers;
  };
}

/**
 * The findings of `checks` on `text`, a page at `path`: `.md` is parsed as Markdown; any other page
 * is MDX and `tree` is its tree (page-tree.ts `parsePage`, positions in `text`). Each finding carries
 * its check's rule id and severity.
 */
export async function runProseChecks(
  kernel: TextlintKernel,
  text: string,
  path: string,
  checks: readonly TextCheck[],
  tree: UNode | undefined,
): Promise<LintFinding[]> {
  if (checks.length === 0) return [];
  const markdown = path.endsWith('.md');
  if (!markdown && !tree) throw new Error(`runProseChecks: the MDX page ${path} comes without its tree`);
  const state = new Map<string, number>();
  const byId = new Map(checks.map((c) => [c.ruleId, c]));
  const plugin = markdown ? markdownPlugin : treePlugin(toTxtAst(tree!, text, text.charCodeAt(0) === 0xfeff ? 1 : 0));
  const result = await kernel.lintText(text, {
    ext: markdown ? '.md' : '.mdx',
    filePath: path,
    plugins: [{ pluginId: markdown ? 'markdown' : 'mdx', plugin }],
    rules: checks.map((c) => ({ ruleId: c.ruleId, rule: ruleOf(c, state) })),
  });
  return result.messages.map((m) => ({
    ruleId: m.ruleId,
    severity: byId.get(m.ruleId)?.severity ?? 'warning',
    message: m.message,
    line: m.loc.start.line,
    column: m.loc.start.column,
    endLine: m.loc.end.line,
    endColumn: m.loc.end.column,
    ...(m.fix ? { fix: { range: [m.fix.range[0], m.fix.range[1]] as [number, number], text: m.fix.text } } : {}),
  }));
}
