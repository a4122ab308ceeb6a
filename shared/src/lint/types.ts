/**
 * What the style linter takes and gives (decisions.md section 9: one linter in `shared/lint` for the
 * desktop app as you type, builds and `POST /lint`). Rules are named `<family>/<name>`:
 * `markdown/*` (structure, markdownlint), `prose/*` (built-in prose checks), `style/<id>` (the
 * project's style rules, in Vale's rule shapes), `glossary/<term>`, and the navigation rules
 * `links/broken`, `images/missing`, `components/unknown` (navigation.ts; only with a page inventory), and
 * on docs.json `navigation/missing-page` (docs-json.ts; only with a page inventory).
 */
import { z } from 'zod';

/** How much a finding matters; `error` fails nothing by itself (builds only count them). */
export const LintSeveritySchema = z.enum(['error', 'warning', 'suggestion']);
export type LintSeverity = z.infer<typeof LintSeveritySchema>;

/**
 * A replacement that fixes a finding: the text in `range` (0-based UTF-16 offsets into the linted
 * text, end exclusive) becomes `text`.
 */
export interface LintFix {
  range: [number, number];
  text: string;
}

/** One problem found in a page. Lines and columns are 1-based; `end*` point just past the problem. */
export interface LintFinding {
  ruleId: string;
  severity: LintSeverity;
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  fix?: LintFix;
}

/** An applied fix of {@link autoFixPage}: `range` is in the text before any fix was applied. */
export interface LintEdit extends LintFix {
  ruleId: string;
}

/** A user-written pattern: a literal word or phrase, or an RE2 regular expression (linear time). */
const PatternSchema = z.string().min(1).max(200);

const RuleBase = {
  name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lower-case letters, digits and hyphens, starting with a letter or digit').describe('The rule\'s name; its findings are `style/<name>`'),
  message: z.string().min(1).max(300).optional().describe('Shown for each finding; `%s` is replaced by the matched text'),
  severity: LintSeveritySchema.default('warning'),
  ignoreCase: z.boolean().default(true),
};

/**
 * A project's style rule, in the shapes Vale users know (vale.sh, "styles"):
 * - `existence`: any of `tokens` is a finding;
 * - `substitution`: each key of `swap` found is a finding whose fix is its value;
 * - `occurrence`: more than `max` matches of `token` in a page;
 * - `capitalization`: headings in `$sentence` or `$title` case;
 * - `repetition`: one of `tokens` twice in a row ("the the");
 * - `sentence-length`: sentences longer than `max` words.
 * Tokens are regular expressions in RE2 syntax (no backreferences or lookaround), matched on whole words.
 */
export const StyleRuleSchema = z.discriminatedUnion('type', [
  z.object({ ...RuleBase, type: z.literal('existence'), tokens: z.array(PatternSchema).min(1).max(500) }),
  z.object({ ...RuleBase, type: z.literal('substitution'), swap: z.record(PatternSchema, z.string().max(200)).refine((s) => Object.keys(s).length > 0 && Object.keys(s).length <= 500, 'one to 500 entries') }),
  z.object({ ...RuleBase, type: z.literal('occurrence'), token: PatternSchema, max: z.number().int().min(0).max(10_000) }),
  z.object({ ...RuleBase, type: z.literal('capitalization'), match: z.enum(['$sentence', '$title']), exceptions: z.array(z.string().max(100)).max(500).default([]) }),
  z.object({ ...RuleBase, type: z.literal('repetition'), tokens: z.array(PatternSchema).min(1).max(500) }),
  z.object({ ...RuleBase, type: z.literal('sentence-length'), max: z.number().int().min(1).max(1_000) }),
]);
export type StyleRule = z.infer<typeof StyleRuleSchema>;
export type StyleRuleInput = z.input<typeof StyleRuleSchema>;

/** A glossary term: its preferred spelling, synonyms writers should not use, and whether its case matters. */
export const GlossaryTermSchema = z.object({
  term: z.string().min(1).max(100),
  definition: z.string().max(2_000).default(''),
  avoid: z.array(z.string().min(1).max(100)).max(50).default([]),
  caseSensitive: z.boolean().default(false),
});
export type GlossaryTerm = z.infer<typeof GlossaryTermSchema>;
export type GlossaryTermInput = z.input<typeof GlossaryTermSchema>;

/** Per-rule settings of a project's linter: a rule left out keeps its default (on, its own severity). */
export const LinterSettingsSchema = z.object({
  rules: z.record(z.string(), z.object({ enabled: z.boolean().default(true), severity: LintSeveritySchema.optional() })).default({}),
});
export type LinterSettings = z.infer<typeof LinterSettingsSchema>;
