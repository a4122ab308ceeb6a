import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@quire/shared/ids';
import type { AppContext } from '../../src/context';
import { openTempDb, seedMember, seedOrg, TEST_PASSWORD } from '../services/identity-fixtures';
import { appContextFor, callerFor, trpcErrorOf } from './trpc-fixtures';

describe('lint router (desktop app)', () => {
  let app: AppContext;
  let cleanup: () => Promise<void>;
  let projectId: string;
  let foreignProjectId: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    const tmp = await openTempDb();
    cleanup = tmp.cleanup;
    app = appContextFor(tmp.db, tmp.dir);
    const orgId = await seedOrg(tmp.db, 'Acme');
    const otherOrg = await seedOrg(tmp.db, 'Other');
    projectId = (await tmp.db.prisma.project.create({ data: { id: newId('project'), orgId, name: 'Docs', slug: 'docs', settings: '{}' } })).id;
    foreignProjectId = (await tmp.db.prisma.project.create({ data: { id: newId('project'), orgId: otherOrg, name: 'Theirs', slug: 'theirs', settings: '{}' } })).id;
    for (const role of ['editor', 'viewer'] as const) {
      await seedMember(tmp.db, orgId, `${role}@acme.test`, role);
      tokens[role] = (await (await callerFor(app)).auth.signIn({ email: `${role}@acme.test`, password: TEST_PASSWORD })).token;
    }
  });
  afterAll(async () => cleanup?.());

  it('lets an editor add a style rule and a glossary term that linting then applies, audited as the editor', async () => {
    const editor = await callerFor(app, tokens.editor);
    const rule = await editor.lint.rules.create({ projectId, rule: { name: 'plain-words', type: 'substitution', swap: { utilize: 'use' } } });
    expect(rule).toMatchObject({ id: expect.stringMatching(/^sty_/), name: 'plain-words' });
    await editor.lint.glossary.create({ projectId, term: { term: 'GitHub', caseSensitive: true } });
    const findings = await editor.lint.run({ projectId, path: 'a.mdx', text: 'Utilize Github.\n' });
    expect(findings.map((f) => f.ruleId)).toEqual(['style/plain-words', 'glossary/github']);
    expect((await editor.lint.autoFix({ projectId, path: 'a.mdx', text: 'Utilize Github.\n' })).text).toBe('Use GitHub.\n');
    const entry = await app.db.prisma.auditEntry.findFirst({ where: { projectId, action: 'style_rule.created' } });
    expect(entry).toMatchObject({ actorId: expect.stringMatching(/^usr_/), apiKeyId: null });
  });

  it('gives the desktop app the linter options to lint locally, offline', async () => {
    const options = await (await callerFor(app, tokens.viewer)).lint.options({ projectId });
    expect(options.styleRules?.map((r) => r.name)).toEqual(['plain-words']);
    expect(options.glossary?.map((g) => g.term)).toEqual(['GitHub']);
    expect(options.settings).toEqual({ rules: {} });
  });

  it('lets a viewer lint and read, and refuses it changing rules', async () => {
    const viewer = await callerFor(app, tokens.viewer);
    expect(await viewer.lint.rules.list({ projectId })).toHaveLength(1);
    const err = await trpcErrorOf(viewer.lint.rules.create({ projectId, rule: { name: 'nope', type: 'existence', tokens: ['x'] } }));
    expect(err.code).toBe('FORBIDDEN');
    expect((await trpcErrorOf(viewer.lint.settings.put({ projectId, settings: { rules: {} } }))).code).toBe('FORBIDDEN');
  });

  it('answers NOT_FOUND for another organization\'s project and UNAUTHORIZED without a session', async () => {
    const editor = await callerFor(app, tokens.editor);
    expect((await trpcErrorOf(editor.lint.run({ projectId: foreignProjectId, path: 'a.mdx', text: 'x' }))).code).toBe('NOT_FOUND');
    expect((await trpcErrorOf((await callerFor(app)).lint.options({ projectId }))).code).toBe('UNAUTHORIZED');
  });

  it('refuses a rule whose pattern RE2 cannot run as BAD_REQUEST naming the field', async () => {
    const err = await trpcErrorOf((await callerFor(app, tokens.editor)).lint.rules.create({ projectId, rule: { name: 'bad', type: 'existence', tokens: ['(a)\\1'] } }));
    expect(err.code).toBe('BAD_REQUEST');
    expect(err.message).toMatch(/tokens/);
  });
});
