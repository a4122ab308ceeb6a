/**
 * Runs the prose checks (text-checks.ts) over a page with `@textlint/kernel`: the MDX plugin
 * (textlint-plugin-mdx) or the Markdown plugin parses the page into textlint's tree, so checks see
 * only prose: text runs (`Str`), heading text and paragraphs, never code, front matter or JSX
 * attributes. A page that does not parse gives one `mdx/syntax` finding.
 */
import type { TextlintKernel } from '@textlint/kernel';
import type { TextlintRuleModule, TextlintRuleContext } from '@textlint/types';
import type { TextlintPluginCreator } from '@textlint/types';
import * as markdownModule from '@textlint/textlint-plugin-markdown';
import * as mdxModule from 'textlint-plugin-mdx';
import { parseMdx } from '../docs/markdown/mdx';
import { DocsError } from '../docs/types';
import type { TextCheck } from './text-checks';
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
const mdxPlugin = pluginOf(mdxModule);

type Node = Parameters<TextlintRuleContext['getSource']>[0] & { type: string; children?: Node[] };

/** A textlint rule that runs `check` where its scope says. */
function ruleOf(check: TextCheck, state: Map<string, number>): TextlintRuleModule {
  return (context) => {
    const { Syntax, RuleError, fixer, locator, report, getSource } = context;
    const emit = (node: Node, offset: number, text: string) => {
      for (const hit of check.run(text, state)) {
        const range = [offset + hit.start, offset + hit.end] as const;
        report(node, new RuleError(hit.message, { padding: locator.range(range), ...(hit.fix === undefined ? {} : { fix: fixer.replaceTextRange(range, hit.fix) }) }));
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
 * The findings of `checks` on `text` (a page at `path`; `.md` is parsed as Markdown, anything else
 * as MDX). Each finding carries its check's rule id and severity.
 */
export async function runProseChecks(kernel: TextlintKernel, text: string, path: string, checks: readonly TextCheck[]): Promise<LintFinding[]> {
  if (checks.length === 0) return [];
  const markdown = path.endsWith('.md');
  const state = new Map<string, number>();
  const byId = new Map(checks.map((c) => [c.ruleId, c]));
  let result;
  try {
    result = await kernel.lintText(text, {
      ext: markdown ? '.md' : '.mdx',
      filePath: path,
      plugins: [markdown ? { pluginId: 'markdown', plugin: markdownPlugin } : { pluginId: 'mdx', plugin: mdxPlugin }],
      rules: checks.map((c) => ({ ruleId: c.ruleId, rule: ruleOf(c, state) })),
    });
  } catch (err) {
    return [syntaxFinding(text, path, err)];
  }
  // The MDX plugin reports a page it cannot parse as a `plugin-error` message without a place.
  if (result.messages.some((m) => m.ruleId === 'plugin-error')) return [syntaxFinding(text, path, null)];
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

/**
 * The finding of a page the parser refused: the docs engine's MDX parser (the one builds use) names
 * the place and the reason; `err` is what the kernel threw, if it threw.
 */
function syntaxFinding(text: string, path: string, err: unknown): LintFinding {
  let message = err instanceof Error ? err.message : 'the MDX parser refused the page';
  let line = 1;
  let column = 1;
  try {
    // Front matter is blanked, not removed, so lines and columns stay those of the page.
    parseMdx(text.replace(/^---\r?\n[\s\S]*?\r?\n---[ \t]*(?=\r?\n|$)/, (fm) => fm.replace(/[^\r\n]/g, ' ')), path);
  } catch (parseError) {
    if (parseError instanceof DocsError) {
      message = parseError.message.replace(/^.*?cannot parse MDX: /, '');
      line = parseError.line ?? 1;
      column = parseError.column ?? 1;
    }
  }
  return { ruleId: 'mdx/syntax', severity: 'error', message: `The page does not parse: ${message}`, line, column, endLine: line, endColumn: column + 1 };
}
