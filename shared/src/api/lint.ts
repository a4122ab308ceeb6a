/**
 * REST shapes of the style linter, style rules and glossary (interface-spec.md "Collaboration":
 * `/linter`, `/style-rules`, `/lint`, `/lint/auto-fix`, `/glossary`; decisions.md section 9; the
 * payloads are Quire's own and are written into the OpenAPI document).
 */
import { z } from 'zod';
import { TimestampSchema } from './common';
import { GlossaryTermSchema, LinterSettingsSchema, LintSeveritySchema, StyleRuleSchema } from '../lint/types';

/** `GET/PUT /linter`: per-rule settings, by rule id (`markdown/…`, `prose/…`, `style/<name>`, `glossary/<term>`). */
export const LinterSettingsBodySchema = LinterSettingsSchema;

/** A style rule as returned: its definition plus `id` (`sty_…`) and timestamps. */
export const StyleRuleDtoSchema = z.intersection(StyleRuleSchema, z.object({ id: z.string().describe('sty_<id>'), createdAt: TimestampSchema, updatedAt: TimestampSchema }));
export type StyleRuleDto = z.infer<typeof StyleRuleDtoSchema>;

/** `POST /style-rules`: a rule definition (types.ts); `PATCH` takes a whole definition too (a rule's shape decides its fields). */
export const StyleRuleBodySchema = StyleRuleSchema;

/** Path parameters of one style rule. */
export const StyleRuleParamsSchema = z.object({ projectId: z.string(), ruleId: z.string().describe('sty_<id>') });

/** A glossary term as returned. */
export const GlossaryTermDtoSchema = GlossaryTermSchema.extend({ id: z.string().describe('gls_<id>'), createdAt: TimestampSchema, updatedAt: TimestampSchema });
export type GlossaryTermDto = z.infer<typeof GlossaryTermDtoSchema>;

/** `POST /glossary`. */
export const GlossaryTermBodySchema = GlossaryTermSchema;
/** `PATCH /glossary/{termId}`: only given fields change. */
export const GlossaryTermPatchSchema = z.object({
  term: GlossaryTermSchema.shape.term.optional(),
  definition: z.string().max(2_000).optional(),
  avoid: z.array(z.string().min(1).max(100)).max(50).optional(),
  caseSensitive: z.boolean().optional(),
});

/** Path parameters of one glossary term. */
export const GlossaryTermParamsSchema = z.object({ projectId: z.string(), termId: z.string().describe('gls_<id>') });

/** The path of the page being linted: `.md` is linted as Markdown, anything else as MDX. */
const PagePathSchema = z.string().min(1).max(1_024).describe('Repository path of the page, e.g. guides/setup.mdx');

/** `POST /lint`: one page's text. */
export const LintBodySchema = z.object({ path: PagePathSchema, text: z.string().max(1_000_000) });

/** A finding (shared/src/lint/types.ts `LintFinding`): 1-based line and column; `fix.range` in UTF-16 offsets of the text. */
export const LintFindingSchema = z.object({
  ruleId: z.string(),
  severity: LintSeveritySchema,
  message: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  endLine: z.number().int(),
  endColumn: z.number().int(),
  fix: z.object({ range: z.tuple([z.number().int(), z.number().int()]), text: z.string() }).optional(),
});

/** `POST /lint` answer. */
export const LintResultSchema = z.object({ path: z.string(), findings: z.array(LintFindingSchema) });

/** `POST /lint/auto-fix`: one page's text, and the rules to fix (default: every fixable finding). */
export const AutoFixBodySchema = LintBodySchema.extend({ rules: z.array(z.string().max(200)).max(500).optional() });

/** `POST /lint/auto-fix` answer: the fixed text and each applied edit (ranges in the text it was applied to, pass by pass). */
export const AutoFixResultSchema = z.object({
  path: z.string(),
  text: z.string(),
  edits: z.array(z.object({ ruleId: z.string(), range: z.tuple([z.number().int(), z.number().int()]), text: z.string() })),
});

/** `GET /lint-results` filters: one page (repository path) or one rule id. */
export const LintResultsQuerySchema = z.object({
  path: z.string().max(1_024).optional(),
  rule: z.string().max(200).optional(),
});
export type LintResultsQuery = z.infer<typeof LintResultsQuerySchema>;

/** `GET /lint-results`: the findings of the newest deployed production build, page by page (pages without findings left out). */
export const LintResultsSchema = z.object({
  buildId: z.string(),
  commitSha: z.string().nullable(),
  lintedAt: TimestampSchema,
  pageCount: z.number().int().describe('Pages the build linted'),
  counts: z.record(z.string(), z.number().int()).describe('Findings per rule id across the site'),
  pages: z.array(LintResultSchema),
});
export type LintResults = z.infer<typeof LintResultsSchema>;
