/**
 * A project's linter configuration (decisions.md section 9: style rules and glossary feed one
 * linter): its settings, style rules (Vale shapes) and glossary terms, stored per project, and the
 * linter compiled from them (shared/src/lint). Every change is audited; a rule whose pattern RE2
 * refuses is refused with 400 naming the field.
 */
import { ApiError, invalidField } from '@quire/shared/errors';
import { newId } from '@quire/shared/ids';
import type { GlossaryTermDto, StyleRuleDto } from '@quire/shared/api/lint';
import { createLinter, type Linter, type LinterOptions } from '@quire/shared/lint/linter';
import { PatternError } from '@quire/shared/lint/safe-pattern';
import { glossaryCheck, styleRuleCheck } from '@quire/shared/lint/text-checks';
import {
  GlossaryTermSchema,
  LinterSettingsSchema,
  StyleRuleSchema,
  type GlossaryTerm,
  type LinterSettings,
  type StyleRule,
} from '@quire/shared/lint/types';
import type { AppContext } from '../context';
import type { Models } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import type { RequestAuth } from '../access/request-auth';
import { recordAudit } from './audit';
import { deployedLintFacts } from './deployed-site';
import { getProjectForCaller } from './projects';

type StyleRuleRow = Models.StyleRuleModel;
type GlossaryRow = Models.GlossaryTermModel;

/** A stored rule as its definition (the stored JSON was validated when written). */
function ruleOf(row: StyleRuleRow): StyleRule {
  return StyleRuleSchema.parse({ ...(JSON.parse(row.definition) as object), name: row.ruleId });
}

function termOf(row: GlossaryRow): GlossaryTerm {
  return GlossaryTermSchema.parse({ term: row.term, definition: row.definition, avoid: JSON.parse(row.avoid) as unknown, caseSensitive: row.caseSensitive });
}

/** The REST form of a style rule. */
export function toStyleRuleDto(row: StyleRuleRow): StyleRuleDto {
  return { ...ruleOf(row), id: row.id, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/** The REST form of a glossary term. */
export function toGlossaryTermDto(row: GlossaryRow): GlossaryTermDto {
  return { ...termOf(row), id: row.id, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/** 400 naming the field whose pattern RE2 refuses (compiling the rule's check is the test). */
function checkPatterns(compile: () => unknown, field: string): void {
  try {
    compile();
  } catch (err) {
    if (err instanceof PatternError) throw invalidField(field, err.message);
    throw err;
  }
}

/** The stored settings of a project's linter; every rule at its default when never set. */
function settingsOf(row: { settings: string } | null): LinterSettings {
  return row ? LinterSettingsSchema.parse(JSON.parse(row.settings)) : { rules: {} };
}

const ruleNameTaken = (name: string) => new ApiError('conflict', `The project already has a style rule named "${name}".`, { field: 'name', issue: 'already exists' });

/** The linter settings of a project (every rule on at its default severity when never set). @throws ApiError not_found. */
export async function getLinterSettings(ctx: AppContext, auth: RequestAuth, projectId: string): Promise<LinterSettings> {
  await getProjectForCaller(ctx, auth, projectId);
  const row = await ctx.db.prisma.projectLinter.findUnique({ where: { projectId } });
  return settingsOf(row);
}

/** Replaces the linter settings of a project; audited as `linter.updated`. @throws ApiError not_found. */
export async function putLinterSettings(ctx: AppContext, auth: RequestAuth, projectId: string, settings: LinterSettings): Promise<LinterSettings> {
  await getProjectForCaller(ctx, auth, projectId);
  const json = JSON.stringify(settings);
  await ctx.db.prisma.$transaction(async (tx) => {
    await tx.projectLinter.upsert({ where: { projectId }, create: { projectId, settings: json }, update: { settings: json } });
    await recordAudit(tx, { orgId: auth.orgId, projectId, auth, action: 'linter.updated', resource: { type: 'linter', id: projectId }, metadata: { rules: Object.keys(settings.rules) } });
  });
  return settings;
}

/** The style rules of a project, oldest first. @throws ApiError not_found. */
export async function listStyleRules(ctx: AppContext, auth: RequestAuth, projectId: string): Promise<StyleRuleRow[]> {
  await getProjectForCaller(ctx, auth, projectId);
  return ctx.db.prisma.styleRule.findMany({ where: { projectId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** The stored form of a rule: its name in its own column, the rest as JSON. */
function storedDefinition(rule: StyleRule): string {
  const { name: _name, ...definition } = rule;
  return JSON.stringify(definition);
}

/**
 * Adds a style rule; audited as `style_rule.created`.
 * @throws ApiError not_found; invalid_request (a pattern RE2 refuses); conflict (the name is taken in the project).
 */
export async function createStyleRule(ctx: AppContext, auth: RequestAuth, projectId: string, rule: StyleRule): Promise<StyleRuleRow> {
  await getProjectForCaller(ctx, auth, projectId);
  checkPatterns(() => styleRuleCheck(rule), 'tokens');
  try {
    return await ctx.db.prisma.$transaction(async (tx) => {
      const row = await tx.styleRule.create({ data: { id: newId('styleRule'), projectId, ruleId: rule.name, definition: storedDefinition(rule) } });
      await recordAudit(tx, { orgId: auth.orgId, projectId, auth, action: 'style_rule.created', resource: { type: 'style_rule', id: row.id, name: rule.name } });
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw ruleNameTaken(rule.name);
    throw err;
  }
}

async function styleRuleOf(ctx: AppContext, auth: RequestAuth, projectId: string, id: string): Promise<StyleRuleRow> {
  await getProjectForCaller(ctx, auth, projectId);
  const row = await ctx.db.prisma.styleRule.findUnique({ where: { id } });
  if (!row || row.projectId !== projectId) throw new ApiError('not_found', `No style rule ${id} in this project.`);
  return row;
}

/**
 * Replaces a style rule's definition (its shape decides its fields, so a partial change cannot be
 * merged safely); audited as `style_rule.updated`.
 * @throws ApiError not_found; invalid_request; conflict (renamed onto another rule's name).
 */
export async function updateStyleRule(ctx: AppContext, auth: RequestAuth, projectId: string, id: string, rule: StyleRule): Promise<StyleRuleRow> {
  await styleRuleOf(ctx, auth, projectId, id);
  checkPatterns(() => styleRuleCheck(rule), 'tokens');
  try {
    return await ctx.db.prisma.$transaction(async (tx) => {
      const row = await tx.styleRule.update({ where: { id }, data: { ruleId: rule.name, definition: storedDefinition(rule) } });
      await recordAudit(tx, { orgId: auth.orgId, projectId, auth, action: 'style_rule.updated', resource: { type: 'style_rule', id, name: rule.name } });
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw ruleNameTaken(rule.name);
    throw err;
  }
}

/** Deletes a style rule; audited as `style_rule.deleted`. @throws ApiError not_found. */
export async function deleteStyleRule(ctx: AppContext, auth: RequestAuth, projectId: string, id: string): Promise<void> {
  const row = await styleRuleOf(ctx, auth, projectId, id);
  await ctx.db.prisma.$transaction(async (tx) => {
    await tx.styleRule.delete({ where: { id } });
    await recordAudit(tx, { orgId: auth.orgId, projectId, auth, action: 'style_rule.deleted', resource: { type: 'style_rule', id, name: row.ruleId } });
  });
}

/** The glossary of a project, by term. @throws ApiError not_found. */
export async function listGlossary(ctx: AppContext, auth: RequestAuth, projectId: string): Promise<GlossaryRow[]> {
  await getProjectForCaller(ctx, auth, projectId);
  return ctx.db.prisma.glossaryTerm.findMany({ where: { projectId }, orderBy: [{ termKey: 'asc' }] });
}

const termTaken = (term: string) => new ApiError('conflict', `The glossary already has the term "${term}".`, { field: 'term', issue: 'already exists' });

/** Adds a glossary term (one per term whatever its case); audited as `glossary_term.created`. @throws ApiError not_found, conflict. */
export async function createGlossaryTerm(ctx: AppContext, auth: RequestAuth, projectId: string, term: GlossaryTerm): Promise<GlossaryRow> {
  await getProjectForCaller(ctx, auth, projectId);
  checkPatterns(() => glossaryCheck(term), 'avoid');
  try {
    return await ctx.db.prisma.$transaction(async (tx) => {
      const row = await tx.glossaryTerm.create({
        data: { id: newId('glossaryTerm'), projectId, term: term.term, termKey: term.term.toLowerCase(), definition: term.definition, avoid: JSON.stringify(term.avoid), caseSensitive: term.caseSensitive },
      });
      await recordAudit(tx, { orgId: auth.orgId, projectId, auth, action: 'glossary_term.created', resource: { type: 'glossary_term', id: row.id, name: term.term } });
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw termTaken(term.term);
    throw err;
  }
}

async function glossaryRowOf(ctx: AppContext, auth: RequestAuth, projectId: string, id: string): Promise<GlossaryRow> {
  await getProjectForCaller(ctx, auth, projectId);
  const row = await ctx.db.prisma.glossaryTerm.findUnique({ where: { id } });
  if (!row || row.projectId !== projectId) throw new ApiError('not_found', `No glossary term ${id} in this project.`);
  return row;
}

/** Changes the given fields of a glossary term; audited as `glossary_term.updated`. @throws ApiError not_found, conflict. */
export async function updateGlossaryTerm(
  ctx: AppContext,
  auth: RequestAuth,
  projectId: string,
  id: string,
  patch: Partial<GlossaryTerm>,
): Promise<GlossaryRow> {
  const current = termOf(await glossaryRowOf(ctx, auth, projectId, id));
  const next = GlossaryTermSchema.parse({ ...current, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) });
  checkPatterns(() => glossaryCheck(next), 'avoid');
  try {
    return await ctx.db.prisma.$transaction(async (tx) => {
      const row = await tx.glossaryTerm.update({
        where: { id },
        data: {
          term: next.term,
          termKey: next.term.toLowerCase(),
          definition: next.definition,
          avoid: JSON.stringify(next.avoid),
          caseSensitive: next.caseSensitive,
        },
      });
      await recordAudit(tx, { orgId: auth.orgId, projectId, auth, action: 'glossary_term.updated', resource: { type: 'glossary_term', id, name: next.term }, metadata: { changes: Object.keys(patch) } });
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw termTaken(next.term);
    throw err;
  }
}

/** Deletes a glossary term; audited as `glossary_term.deleted`. @throws ApiError not_found. */
export async function deleteGlossaryTerm(ctx: AppContext, auth: RequestAuth, projectId: string, id: string): Promise<void> {
  const row = await glossaryRowOf(ctx, auth, projectId, id);
  await ctx.db.prisma.$transaction(async (tx) => {
    await tx.glossaryTerm.delete({ where: { id } });
    await recordAudit(tx, { orgId: auth.orgId, projectId, auth, action: 'glossary_term.deleted', resource: { type: 'glossary_term', id, name: row.term } });
  });
}

/**
 * What the linter of a project is made of (settings, style rules, glossary), as plain JSON a build
 * worker can take. No access check: for the build runner, which acts for the project itself.
 */
export async function lintOptionsOf(db: AppContext['db'], projectId: string): Promise<LinterOptions> {
  const [settingsRow, rules, terms] = await Promise.all([
    db.prisma.projectLinter.findUnique({ where: { projectId } }),
    db.prisma.styleRule.findMany({ where: { projectId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    db.prisma.glossaryTerm.findMany({ where: { projectId }, orderBy: [{ termKey: 'asc' }] }),
  ]);
  return {
    settings: settingsOf(settingsRow),
    styleRules: rules.map(ruleOf),
    glossary: terms.map(termOf),
  };
}

/**
 * The linter of a project: its settings, style rules and glossary compiled (patterns were checked
 * when stored). With `withInventory`, also the page inventory of the published site
 * (deployed-site.ts), so links, images and components are checked against it, and the site's
 * variables, so `{{name}}` is put in as its build did; without a production deployment those rules stay silent. @throws ApiError not_found.
 */
export async function projectLinter(ctx: AppContext, auth: RequestAuth, projectId: string, options: { withInventory?: boolean } = {}): Promise<Linter> {
  await getProjectForCaller(ctx, auth, projectId);
  const site = options.withInventory ? await deployedLintFacts(ctx, projectId) : undefined;
  return createLinter({ ...(await lintOptionsOf(ctx.db, projectId)), ...(site ? { inventory: site.inventory, variables: site.variables } : {}) });
}
