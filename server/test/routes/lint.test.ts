/**
 * The style linter over the API: settings, style rules, glossary, `POST /lint` and
 * `POST /lint/auto-fix` (interface-spec.md "Collaboration"; decisions.md section 9).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let projectId: string;
const page = (body: string) => `---\ntitle: Guide\n---\n\n${body}\n`;

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Docs' } });
  projectId = res.json().data.id;
});
afterAll(async () => t?.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object, key = t.adminKey) =>
  t.app.inject({ method, url: `/v1/projects/${projectId}${url}`, headers: bearer(key), ...(payload ? { payload } : {}) });
const lint = async (text: string, path = 'guide.mdx') => {
  const res = await call('POST', '/lint', { path, text });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.findings as { ruleId: string; message: string; line: number; column: number; fix?: unknown }[];
};

describe('POST /lint', () => {
  it('answers the findings of the built-in rules with their places', async () => {
    const text = page('Open the the file.');
    const at = text.indexOf('the the') + 'the'.length;
    const findings = await lint(text);
    expect(findings).toEqual([expect.objectContaining({ ruleId: 'prose/repeated-words', line: 5, column: 9, fix: { range: [at, at + ' the'.length], text: '' } })]);
  });

  it('reports a page that does not parse as one mdx/syntax finding with its place', async () => {
    const findings = await lint(page('<Note>never closed'));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ ruleId: 'mdx/syntax' });
    expect(findings[0]!.line).toBeGreaterThanOrEqual(5);
  });

  it('refuses text holding a NUL character with 400, and a missing path', async () => {
    expect((await call('POST', '/lint', { path: 'a.mdx', text: 'a\u0000b' })).statusCode).toBe(400);
    expect((await call('POST', '/lint', { text: 'hello' })).json().error.code).toBe('invalid_request');
  });
});

describe('style rules', () => {
  let ruleId: string;

  it('adds a substitution rule that the linter applies and auto-fix fixes, audited', async () => {
    const made = await call('POST', '/style-rules', { name: 'plain-words', type: 'substitution', swap: { utilize: 'use' } });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data).toMatchObject({ id: expect.stringMatching(/^sty_/), name: 'plain-words', type: 'substitution', severity: 'warning', ignoreCase: true });
    ruleId = made.json().data.id;
    expect((await lint(page('Utilize the CLI.'))).map((f) => f.ruleId)).toEqual(['style/plain-words']);
    const fixed = await call('POST', '/lint/auto-fix', { path: 'guide.mdx', text: page('Utilize the CLI.') });
    expect(fixed.json().data).toMatchObject({ text: page('Use the CLI.'), edits: [{ ruleId: 'style/plain-words', text: 'Use' }] });
    const audit = await t.app.inject({ url: `/v1/projects/${projectId}/audit-log`, headers: bearer(t.adminKey) });
    expect(audit.json().data.map((e: { action: string }) => e.action)).toContain('style_rule.created');
  });

  it('lists, replaces and deletes a rule', async () => {
    expect((await call('GET', '/style-rules')).json().data.map((r: { id: string }) => r.id)).toEqual([ruleId]);
    const replaced = await call('PATCH', `/style-rules/${ruleId}`, { name: 'plain-words', type: 'existence', tokens: ['simply'], severity: 'error' });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().data).toMatchObject({ id: ruleId, type: 'existence', tokens: ['simply'], severity: 'error' });
    expect((await lint(page('Simply utilize it.'))).map((f) => [f.ruleId, f.message])).toEqual([['style/plain-words', 'Avoid "Simply".']]);
    expect((await call('DELETE', `/style-rules/${ruleId}`)).statusCode).toBe(204);
    expect(await lint(page('Simply utilize it.'))).toEqual([]);
    expect((await call('DELETE', `/style-rules/${ruleId}`)).statusCode).toBe(404);
  });

  it('refuses a pattern RE2 cannot run with 400 naming the field, and a taken name with 409, storing nothing', async () => {
    const bad = await call('POST', '/style-rules', { name: 'bad', type: 'existence', tokens: ['(a)\\1'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'invalid_request', details: { field: 'tokens' } });
    expect((await call('POST', '/style-rules', { name: 'twice', type: 'existence', tokens: ['x'] })).statusCode).toBe(201);
    const again = await call('POST', '/style-rules', { name: 'twice', type: 'existence', tokens: ['y'] });
    expect(again.statusCode).toBe(409);
    expect((await call('GET', '/style-rules')).json().data.map((r: { name: string }) => r.name)).toEqual(['twice']);
  });

  it('answers 404 for a rule of another project and for another organization\'s project', async () => {
    const other = await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Other' } });
    const otherId = other.json().data.id as string;
    const rule = await t.app.inject({ method: 'POST', url: `/v1/projects/${otherId}/style-rules`, headers: bearer(t.adminKey), payload: { name: 'mine', type: 'existence', tokens: ['x'] } });
    expect((await call('DELETE', `/style-rules/${rule.json().data.id}`)).statusCode).toBe(404);
    const stranger = await createOrgWithKey(t);
    expect((await call('GET', '/style-rules', undefined, stranger.key)).statusCode).toBe(404);
    expect((await call('POST', '/lint', { path: 'a.mdx', text: 'x' }, stranger.key)).statusCode).toBe(404);
  });
});

describe('linter settings', () => {
  it('turns a rule off and sets another\'s severity, and GET shows them', async () => {
    const put = await call('PUT', '/linter', { rules: { 'prose/passive-voice': { enabled: false }, 'prose/repeated-words': { enabled: true, severity: 'error' } } });
    expect(put.statusCode, put.body).toBe(200);
    expect((await call('GET', '/linter')).json().data.rules['prose/passive-voice']).toEqual({ enabled: false });
    const findings = await lint(page('It was written by the the team.'));
    expect(findings.map((f) => [f.ruleId, (f as { severity?: string }).severity])).toEqual([['prose/repeated-words', 'error']]);
    expect((await call('PUT', '/linter', { rules: {} })).statusCode).toBe(200);
  });
});

describe('glossary', () => {
  it('adds terms the linter enforces, one per term whatever its case, and updates and deletes them', async () => {
    const made = await call('POST', '/glossary', { term: 'GitHub', definition: 'Where the code lives.', caseSensitive: true, avoid: ['Git Hub'] });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data.id as string;
    expect(made.json().data).toMatchObject({ id: expect.stringMatching(/^gls_/), term: 'GitHub', definition: 'Where the code lives.', avoid: ['Git Hub'], caseSensitive: true });
    expect((await call('POST', '/glossary', { term: 'github' })).statusCode).toBe(409);
    expect((await lint(page('Push to Github.'))).map((f) => f.ruleId)).toEqual(['glossary/github']);
    const patched = await call('PATCH', `/glossary/${id}`, { caseSensitive: false });
    expect(patched.json().data).toMatchObject({ term: 'GitHub', caseSensitive: false, definition: 'Where the code lives.' });
    expect(await lint(page('Push to Github.'))).toEqual([]);
    expect((await call('GET', '/glossary')).json().data.map((g: { term: string }) => g.term)).toEqual(['GitHub']);
    expect((await call('DELETE', `/glossary/${id}`)).statusCode).toBe(204);
    expect((await call('GET', '/glossary')).json().data).toEqual([]);
  });
});

describe('permissions', () => {
  it('lets a read-only key lint, and refuses it changing rules', async () => {
    const reader = await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(t.adminKey), payload: { name: 'reader', permissions: ['projects:read'] } });
    const key = reader.json().data.key as string;
    expect((await call('POST', '/lint', { path: 'a.mdx', text: 'Hello.' }, key)).statusCode).toBe(200);
    expect((await call('POST', '/style-rules', { name: 'nope', type: 'existence', tokens: ['x'] }, key)).statusCode).toBe(403);
    expect((await call('PUT', '/linter', { rules: {} }, key)).statusCode).toBe(403);
  });
});
