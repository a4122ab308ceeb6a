/**
 * The style linter (decisions.md section 9): one engine for the desktop app as you type, builds and
 * `POST /lint`. `createLinter` compiles a project's style rules and glossary once; `lint` gives the
 * findings of a page, `autoFix` applies the fixes.
 */
import { TextlintKernel } from '@textlint/kernel';
import { indexInventory, type PageInventory } from '../docs/page-inventory';
import { isSiteConfigFile, runDocsJsonChecks } from './docs-json';
import { runNavigationChecks, type CheckedTargets } from './navigation';
import { opaqueRanges, parsePage } from './page-tree';
import { runProseChecks } from './prose';
import { runStructureChecks } from './structure';
import { glossaryCheck, passiveVoice, repeatedWords, styleRuleCheck, type TextCheck } from './text-checks';
import type { GlossaryTerm, LinterSettings, LintEdit, LintFinding, StyleRule } from './types';

/** What a linter is made of: the project's style rules, glossary and per-rule settings. */
export interface LinterOptions {
  styleRules?: readonly StyleRule[];
  glossary?: readonly GlossaryTerm[];
  settings?: LinterSettings;
  /**
   * The site's pages, published files and redirects (shared/src/docs/page-inventory.ts). With it,
   * the navigation rules run (`links/broken`, `images/missing`, `components/unknown`, navigation.ts;
   * `navigation/missing-page` on docs.json, docs-json.ts); without it they stay silent: a page linted alone cannot say which pages and files exist.
   */
  inventory?: PageInventory;
  /**
   * The site's `variables` (SiteConfig.variables): `{{name}}` is replaced before an MDX page is
   * parsed, as the renderer does; without them such a reference stays as written (an expression).
   */
  variables?: Record<string, string>;
}

/** A compiled linter for one project's rules. */
export interface Linter {
  /**
   * The findings of a page (`path` decides Markdown or MDX: `.md` is Markdown), ordered by
   * position. Never throws for bad page content: a page the renderer refuses (MDX that does not
   * parse, front matter that is not YAML) is one `mdx/syntax` finding (page-tree.ts).
   * The configuration file (`path` docs.json or mint.json, relative to the docs root) gets the
   * configuration rules only (docs-json.ts; with an inventory).
   */
  lint(text: string, path: string): Promise<LintFinding[]>;
  /**
   * {@link Linter.lint}'s findings, with the targets the navigation rules judged against the inventory
   * (navigation.ts `CheckedTargets`; empty without an inventory, for a page that does not parse, and
   * for the configuration file, whose findings depend on the whole inventory): a caller that keeps the
   * findings holds as long as the page's text, these options but the inventory, and the verdicts of
   * these targets stay the same (the build's lint cache, server lint-pages.ts).
   */
  lintWithTargets(text: string, path: string): Promise<{ findings: LintFinding[]; targets: CheckedTargets }>;
  /**
   * Applies the fixes of the findings of `ruleIds` (default: every fixable finding). Fixes whose
   * ranges overlap an earlier one wait for the next pass (at most 5 passes).
   * @returns the fixed text and every applied edit (ranges in the text it was applied to, pass by pass).
   */
  autoFix(text: string, path: string, ruleIds?: readonly string[]): Promise<{ text: string; edits: LintEdit[] }>;
}

const MAX_FIX_PASSES = 5;

/**
 * Compiles a linter.
 * @throws PatternError (safe-pattern.ts) when a style rule's or glossary entry's pattern is not valid RE2.
 */
export function createLinter(options: LinterOptions = {}): Linter {
  const settings = options.settings?.rules ?? {};
  const enabled = (ruleId: string) => settings[ruleId]?.enabled !== false;
  const severityOf = (f: LintFinding): LintFinding => {
    const severity = settings[f.ruleId]?.severity;
    return severity ? { ...f, severity } : f;
  };
  const checks: TextCheck[] = [
    repeatedWords(),
    passiveVoice(),
    ...(options.styleRules ?? []).map(styleRuleCheck),
    ...(options.glossary ?? []).map(glossaryCheck),
  ].filter((c) => enabled(c.ruleId));
  const kernel = new TextlintKernel();
  const inventory = options.inventory ? indexInventory(options.inventory) : undefined;

  async function lint(text: string, path: string, targets?: CheckedTargets): Promise<LintFinding[]> {
    // the site's configuration is JSON, not prose: only its own rules (docs-json.ts) apply
    if (isSiteConfigFile(path)) return inventory ? runDocsJsonChecks(text, inventory, enabled).map(severityOf) : [];
    // One parse, the renderer's: a page it refuses has only its `mdx/syntax` finding.
    const page = parsePage(text, path, options.variables);
    if (page.syntax) return [severityOf(page.syntax)];
    const prose = await runProseChecks(kernel, text, path, checks, page.tree);
    const structure = runStructureChecks(text, enabled, opaqueRanges(page.tree));
    const navigation = inventory ? runNavigationChecks(text, path, inventory, enabled, page.tree, targets) : [];
    return [...structure, ...navigation, ...prose].map(severityOf).sort((a, b) => a.line - b.line || a.column - b.column || a.ruleId.localeCompare(b.ruleId));
  }

  return {
    lint: (text, path) => lint(text, path),
    async lintWithTargets(text, path) {
      const targets: CheckedTargets = { links: [], images: [] };
      return { findings: await lint(text, path, targets), targets };
    },
    async autoFix(text, path, ruleIds) {
      const wanted = ruleIds ? new Set(ruleIds) : null;
      const edits: LintEdit[] = [];
      let current = text;
      for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
        const fixes = (await lint(current, path))
          .filter((f) => f.fix && (!wanted || wanted.has(f.ruleId)))
          .map((f) => ({ ruleId: f.ruleId, range: f.fix!.range, text: f.fix!.text }))
          .sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1]);
        const applied: LintEdit[] = [];
        let end = -1;
        for (const fix of fixes) {
          if (fix.range[0] < end || (fix.range[0] === end && fix.range[0] === fix.range[1])) continue;
          applied.push(fix);
          end = fix.range[1];
        }
        if (applied.length === 0) break;
        for (const fix of [...applied].reverse()) current = current.slice(0, fix.range[0]) + fix.text + current.slice(fix.range[1]);
        edits.push(...applied);
      }
      return { text: current, edits };
    },
  };
}
