import { z } from 'zod';
import { AutoFixBodySchema, GlossaryTermBodySchema, GlossaryTermPatchSchema, LintBodySchema, LinterSettingsBodySchema, StyleRuleBodySchema, type GlossaryTermDto, type StyleRuleDto } from '@quire/shared/api/lint';
import type { LinterOptions } from '@quire/shared/lint/linter';
import type { LintEdit, LintFinding, LinterSettings } from '@quire/shared/lint/types';
import {
  createGlossaryTerm,
  createStyleRule,
  deleteGlossaryTerm,
  deleteStyleRule,
  getLinterSettings,
  lintOptionsOf,
  listGlossary,
  listStyleRules,
  projectLinter,
  putLinterSettings,
  toGlossaryTermDto,
  toStyleRuleDto,
  updateGlossaryTerm,
  updateStyleRule,
} from '../../services/style-rules';
import { getProjectForCaller } from '../../services/projects';
import { permittedProcedure, router } from '../trpc';

const ProjectInput = z.object({ projectId: z.string().max(64) });

const reader = permittedProcedure('projects:read');
const writer = permittedProcedure('projects:write');

/**
 * `lint`: the style linter of a project for the desktop app (the REST routes' twins, same services
 * and rules; decisions.md section 9). Every procedure takes `projectId`; an unknown or foreign
 * project is NOT_FOUND. Reads and linting need a role that reads (every role); changes need an
 * editor, admin or owner (FORBIDDEN otherwise).
 * - `options({projectId})` → the settings, style rules and glossary as `LinterOptions`, for
 *   `createLinter` in the desktop app (as-you-type linting runs locally, offline).
 * - `run({projectId, path, text})` → findings; `autoFix({projectId, path, text, rules?})` → `{text, edits}`.
 * - `settings.get/put`, `rules.list/create/update/delete`, `glossary.list/create/update/delete`.
 */
export const lintRouter = router({
  options: reader.input(ProjectInput).query(async ({ ctx, input }): Promise<LinterOptions> => {
    await getProjectForCaller(ctx.app, ctx.auth, input.projectId);
    return lintOptionsOf(ctx.app.db, input.projectId);
  }),
  run: reader.input(ProjectInput.extend(LintBodySchema.shape)).mutation(async ({ ctx, input }): Promise<LintFinding[]> => {
    const linter = await projectLinter(ctx.app, ctx.auth, input.projectId);
    return linter.lint(input.text, input.path);
  }),
  autoFix: reader.input(ProjectInput.extend(AutoFixBodySchema.shape)).mutation(async ({ ctx, input }): Promise<{ text: string; edits: LintEdit[] }> => {
    const linter = await projectLinter(ctx.app, ctx.auth, input.projectId);
    return linter.autoFix(input.text, input.path, input.rules);
  }),
  settings: router({
    get: reader.input(ProjectInput).query(({ ctx, input }): Promise<LinterSettings> => getLinterSettings(ctx.app, ctx.auth, input.projectId)),
    put: writer
      .input(ProjectInput.extend({ settings: LinterSettingsBodySchema }))
      .mutation(({ ctx, input }): Promise<LinterSettings> => putLinterSettings(ctx.app, ctx.auth, input.projectId, input.settings)),
  }),
  rules: router({
    list: reader
      .input(ProjectInput)
      .query(async ({ ctx, input }): Promise<StyleRuleDto[]> => (await listStyleRules(ctx.app, ctx.auth, input.projectId)).map(toStyleRuleDto)),
    create: writer
      .input(ProjectInput.extend({ rule: StyleRuleBodySchema }))
      .mutation(async ({ ctx, input }): Promise<StyleRuleDto> => toStyleRuleDto(await createStyleRule(ctx.app, ctx.auth, input.projectId, input.rule))),
    update: writer
      .input(ProjectInput.extend({ id: z.string().max(64), rule: StyleRuleBodySchema }))
      .mutation(
        async ({ ctx, input }): Promise<StyleRuleDto> => toStyleRuleDto(await updateStyleRule(ctx.app, ctx.auth, input.projectId, input.id, input.rule)),
      ),
    delete: writer
      .input(ProjectInput.extend({ id: z.string().max(64) }))
      .mutation(async ({ ctx, input }): Promise<void> => deleteStyleRule(ctx.app, ctx.auth, input.projectId, input.id)),
  }),
  glossary: router({
    list: reader
      .input(ProjectInput)
      .query(async ({ ctx, input }): Promise<GlossaryTermDto[]> => (await listGlossary(ctx.app, ctx.auth, input.projectId)).map(toGlossaryTermDto)),
    create: writer
      .input(ProjectInput.extend({ term: GlossaryTermBodySchema }))
      .mutation(
        async ({ ctx, input }): Promise<GlossaryTermDto> => toGlossaryTermDto(await createGlossaryTerm(ctx.app, ctx.auth, input.projectId, input.term)),
      ),
    update: writer
      .input(ProjectInput.extend({ id: z.string().max(64), patch: GlossaryTermPatchSchema }))
      .mutation(
        async ({ ctx, input }): Promise<GlossaryTermDto> =>
          toGlossaryTermDto(await updateGlossaryTerm(ctx.app, ctx.auth, input.projectId, input.id, input.patch)),
      ),
    delete: writer
      .input(ProjectInput.extend({ id: z.string().max(64) }))
      .mutation(async ({ ctx, input }): Promise<void> => deleteGlossaryTerm(ctx.app, ctx.auth, input.projectId, input.id)),
  }),
});
