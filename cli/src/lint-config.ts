/**
 * The project's lint rules for the CLI: `quire-lint.json` in the docs root (or the folder given),
 * holding what the server keeps per project (`PUT /linter`, `POST /style-rules`, `POST /glossary`):
 * `{ "settings": { "rules": {...} }, "styleRules": [...], "glossary": [...] }`, each validated with
 * the shared schemas (shared/src/lint/types.ts). Node-only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { GlossaryTermSchema, LinterSettingsSchema, StyleRuleSchema } from '@quire/shared/lint/types';
import type { LinterOptions } from '@quire/shared/lint/linter';
import { UsageError } from './usage-error';

/** The file name of a project's lint rules. */
export const LINT_CONFIG_FILE = 'quire-lint.json';

const LintConfigSchema = z.object({
  settings: LinterSettingsSchema.optional(),
  styleRules: z.array(StyleRuleSchema).max(500).optional(),
  glossary: z.array(GlossaryTermSchema).max(5_000).optional(),
});

/**
 * Reads the lint rules from the first of `folders` holding {@link LINT_CONFIG_FILE}; none: the built-in rules only.
 * @throws UsageError naming the file and the field when it is not valid
 */
export function readLintConfig(folders: readonly string[]): Pick<LinterOptions, 'settings' | 'styleRules' | 'glossary'> {
  for (const folder of folders) {
    const file = path.join(folder, LINT_CONFIG_FILE);
    if (!fs.existsSync(file)) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (err) {
      throw new UsageError(`${file}: not valid JSON (${(err as Error).message})`);
    }
    const parsed = LintConfigSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new UsageError(`${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
    const { settings, styleRules, glossary } = parsed.data;
    return { ...(settings ? { settings } : {}), ...(styleRules ? { styleRules } : {}), ...(glossary ? { glossary } : {}) };
  }
  return {};
}
