/**
 * Access rules, IP allowlists and the access log through HTTP (interface-spec.md "Collaboration",
 * Access control; decisions.md sections 2 and 9): create, list, change and delete with validation
 * of globs and CIDR ranges, the `admin` permission, audit entries, and the denials the site records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordDenial } from '../../src/access/policy';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let projectId: string;
let otherProjectId: string;

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, key = t.adminKey, project = projectId) =>
  t.app.inject({ method, url: `/v1/projects/${project}${url}`, headers: bearer(key), ...(payload ? { payload } : {}) });

const auditActions = async () =>
  ((await t.app.inject({ url: `/v1/projects/${projectId}/audit-log?limit=100`, headers: bearer(t.adminKey) })).json().data as { action: string; resource: { type: string; id: string } }[]);

beforeAll(async () => {
  t = await createTestApp();
  const create = (name: string) => t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name } });
  projectId = (await create('Guarded')).json().data.id;
  otherProjectId = (await create('Elsewhere')).json().data.id;
});

afterAll(async () => {
  await t?.close();
});

describe('access rules', () => {
  it('creates a rule with canonical, de-duplicated ranges and defaults, lists, gets, changes and deletes it, auditing each step', async () => {
    const created = await api('POST', '/access-rules', {
      name: 'Staff only',
      pathPattern: '/internal/**',
      audiences: ['staff', 'staff', 'contractors'],
      cidrs: ['10.1.2.3/8', '10.0.0.0/8', '2001:DB8::1', '::ffff:192.0.2.0/120'],
    });
    expect(created.statusCode).toBe(201);
    const rule = created.json().data;
    expect(rule).toEqual({
      id: expect.stringMatching(/^acr_/),
      name: 'Staff only',
      pathPattern: '/internal/**',
      audiences: ['staff', 'contractors'],
      cidrs: ['10.0.0.0/8', '2001:db8::1/128', '192.0.2.0/24'],
      enabled: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    const listed = await api('GET', '/access-rules');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toEqual([rule]);
    expect((await api('GET', `/access-rules/${rule.id}`)).json().data).toEqual(rule);

    const patched = await api('PATCH', `/access-rules/${rule.id}`, { enabled: false, cidrs: [] });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({ id: rule.id, enabled: false, cidrs: [], audiences: ['staff', 'contractors'], pathPattern: '/internal/**' });

    expect((await api('DELETE', `/access-rules/${rule.id}`)).statusCode).toBe(204);
    expect((await api('GET', `/access-rules/${rule.id}`)).statusCode).toBe(404);
    expect((await api('DELETE', `/access-rules/${rule.id}`)).statusCode).toBe(404);
    expect((await api('GET', '/access-rules')).json().data).toEqual([]);

    const audit = (await auditActions()).filter((e) => e.resource.id === rule.id).map((e) => e.action);
    expect(audit).toEqual(['access_rule.deleted', 'access_rule.updated', 'access_rule.created']);
  });

  it.each([
    ['neither audiences nor ranges', { name: 'Empty', pathPattern: 'a/**' }, 'audiences'],
    ['empty lists', { name: 'Empty', pathPattern: 'a/**', audiences: [], cidrs: [] }, 'audiences'],
    ['a range that is not one', { name: 'Bad', pathPattern: 'a/**', cidrs: ['10.0.0.0/8', '10.0.0.0/33'] }, 'cidrs.1'],
    ['a host name as a range', { name: 'Bad', pathPattern: 'a/**', cidrs: ['office.example.com'] }, 'cidrs.0'],
    ['a short IPv4 form', { name: 'Bad', pathPattern: 'a/**', cidrs: ['10/8'] }, 'cidrs.0'],
    ['a glob leaving the site', { name: 'Bad', pathPattern: '../secrets/**', audiences: ['staff'] }, 'pathPattern'],
    ['a negated glob', { name: 'Bad', pathPattern: '!public/**', audiences: ['staff'] }, 'pathPattern'],
    ['an empty glob', { name: 'Bad', pathPattern: '  ', audiences: ['staff'] }, 'pathPattern'],
    ['an empty name', { name: ' ', pathPattern: 'a/**', audiences: ['staff'] }, 'name'],
    ['an empty audience tag', { name: 'Bad', pathPattern: 'a/**', audiences: [''] }, 'audiences.0'],
    ['an unknown member', { name: 'Bad', pathPattern: 'a/**', audiences: ['staff'], public: true }, ''],
  ])('refuses %s with 400 naming the field, creating nothing', async (_name, body, field) => {
    const res = await api('POST', '/access-rules', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_request');
    if (field) expect(res.json().error.details.field).toBe(field);
    expect((await api('GET', '/access-rules')).json().data).toEqual([]);
  });

  it('refuses a change that would leave a rule open to nobody, and an empty change', async () => {
    const rule = (await api('POST', '/access-rules', { name: 'Partners', pathPattern: 'partners/**', audiences: ['partner'] })).json().data;
    const emptied = await api('PATCH', `/access-rules/${rule.id}`, { audiences: [] });
    expect(emptied.statusCode).toBe(400);
    expect(emptied.json().error.details.field).toBe('audiences');
    expect((await api('PATCH', `/access-rules/${rule.id}`, {})).statusCode).toBe(400);
    expect((await api('PATCH', `/access-rules/${rule.id}`, { cidrs: ['not-a-range'] })).json().error.details.field).toBe('cidrs.0');
    // Moving the condition from audiences to ranges in one change is fine.
    const moved = await api('PATCH', `/access-rules/${rule.id}`, { audiences: [], cidrs: ['198.51.100.0/24'] });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data).toMatchObject({ audiences: [], cidrs: ['198.51.100.0/24'] });
    expect((await api('GET', `/access-rules/${rule.id}`)).json().data.cidrs).toEqual(['198.51.100.0/24']);
    await api('DELETE', `/access-rules/${rule.id}`);
  });

  it('needs admin, and answers 404 for another project or organization', async () => {
    const rule = (await api('POST', '/access-rules', { name: 'Ops', pathPattern: 'ops/**', cidrs: ['10.0.0.0/8'] })).json().data;
    const writer = await createKey(t, ['projects:read', 'projects:write']);
    for (const [method, url, body] of [
      ['GET', '/access-rules', undefined],
      ['POST', '/access-rules', { name: 'X', pathPattern: 'x', cidrs: ['10.0.0.1'] }],
      ['PATCH', `/access-rules/${rule.id}`, { enabled: false }],
      ['DELETE', `/access-rules/${rule.id}`, undefined],
    ] as const) {
      const res = await api(method, url, body, writer.key);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
    }
    expect((await api('GET', `/access-rules/${rule.id}`, undefined, t.adminKey, otherProjectId)).statusCode).toBe(404);
    expect((await api('PATCH', `/access-rules/${rule.id}`, { enabled: false }, t.adminKey, otherProjectId)).statusCode).toBe(404);
    expect((await api('DELETE', `/access-rules/${rule.id}`, undefined, t.adminKey, otherProjectId)).statusCode).toBe(404);
    const stranger = await createOrgWithKey(t);
    expect((await api('GET', '/access-rules', undefined, stranger.key)).statusCode).toBe(404);
    expect((await api('POST', '/access-rules', { name: 'X', pathPattern: 'x', cidrs: ['10.0.0.1'] }, stranger.key)).statusCode).toBe(404);
    expect((await api('GET', `/access-rules/${rule.id}`)).json().data.enabled).toBe(true);
    await api('DELETE', `/access-rules/${rule.id}`);
  });
});

describe('IP allowlists', () => {
  it('creates, lists, changes and deletes an allowlist, auditing each step', async () => {
    const created = await api('POST', '/ip-allowlists', { name: 'Office', cidrs: ['203.0.113.0/24', '2001:db8:1::/48'] });
    expect(created.statusCode).toBe(201);
    const list = created.json().data;
    expect(list).toEqual({
      id: expect.stringMatching(/^ipl_/),
      name: 'Office',
      cidrs: ['203.0.113.0/24', '2001:db8:1::/48'],
      paths: [],
      enabled: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await api('GET', '/ip-allowlists')).json().data).toEqual([list]);
    const patched = await api('PATCH', `/ip-allowlists/${list.id}`, { paths: ['admin/**', '/billing/*'], name: 'Office admin' });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({ name: 'Office admin', paths: ['admin/**', '/billing/*'], cidrs: ['203.0.113.0/24', '2001:db8:1::/48'] });
    expect((await api('GET', `/ip-allowlists/${list.id}`)).json().data.paths).toEqual(['admin/**', '/billing/*']);
    expect((await api('DELETE', `/ip-allowlists/${list.id}`)).statusCode).toBe(204);
    expect((await api('PATCH', `/ip-allowlists/${list.id}`, { enabled: false })).statusCode).toBe(404);
    const audit = (await auditActions()).filter((e) => e.resource.id === list.id);
    expect(audit.map((e) => e.action)).toEqual(['ip_allowlist.deleted', 'ip_allowlist.updated', 'ip_allowlist.created']);
    expect(audit[0]!.resource.type).toBe('ip_allowlist');
  });

  it.each([
    ['no ranges', { name: 'Empty', cidrs: [] }, 'cidrs'],
    ['a missing range list', { name: 'Empty' }, 'cidrs'],
    ['a bad range', { name: 'Bad', cidrs: ['2001:db8::/129'] }, 'cidrs.0'],
    ['a bad glob', { name: 'Bad', cidrs: ['10.0.0.0/8'], paths: ['docs/**', 'a\\b'] }, 'paths.1'],
  ])('refuses %s with 400 naming the field', async (_name, body, field) => {
    const res = await api('POST', '/ip-allowlists', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.field).toBe(field);
    expect((await api('GET', '/ip-allowlists')).json().data).toEqual([]);
  });

  it('refuses emptying the ranges, needs admin and hides other organizations', async () => {
    const list = (await api('POST', '/ip-allowlists', { name: 'VPN', cidrs: ['10.8.0.0/16'] })).json().data;
    const emptied = await api('PATCH', `/ip-allowlists/${list.id}`, { cidrs: [] });
    expect(emptied.statusCode).toBe(400);
    expect(emptied.json().error.details.field).toBe('cidrs');
    const reader = await createKey(t, ['projects:read']);
    expect((await api('GET', '/ip-allowlists', undefined, reader.key)).statusCode).toBe(403);
    expect((await api('POST', '/ip-allowlists', { name: 'X', cidrs: ['10.0.0.1'] }, reader.key)).statusCode).toBe(403);
    const stranger = await createOrgWithKey(t);
    expect((await api('GET', '/ip-allowlists', undefined, stranger.key)).statusCode).toBe(404);
    expect((await api('DELETE', `/ip-allowlists/${list.id}`, undefined, t.adminKey, otherProjectId)).statusCode).toBe(404);
    expect((await api('GET', `/ip-allowlists/${list.id}`)).json().data.cidrs).toEqual(['10.8.0.0/16']);
    await api('DELETE', `/ip-allowlists/${list.id}`);
  });
});

describe('access logs', () => {
  it('lists denials newest first with the rule that refused, filtered by reason and time, paginated', async () => {
    const rule = (await api('POST', '/access-rules', { name: 'Internal', pathPattern: 'internal/**', audiences: ['staff'] })).json().data;
    const list = (await api('POST', '/ip-allowlists', { name: 'Office', cidrs: ['203.0.113.0/24'] })).json().data;
    const host = 'guarded-docs.localhost:4000';
    recordDenial(t.ctx, { projectId, host, path: 'internal/plan', ip: '198.51.100.1', reason: 'access_rule', ruleId: rule.id });
    recordDenial(t.ctx, { projectId, host, path: 'guides/setup', ip: '198.51.100.2', reason: 'ip_allowlist', ruleId: list.id });
    recordDenial(t.ctx, { projectId, host, path: 'secret', ip: '2001:db8::5', reason: 'gated_page' });
    recordDenial(t.ctx, { projectId: otherProjectId, host: 'elsewhere-docs.localhost', path: 'x', ip: '198.51.100.3', reason: 'gated_page' });

    const res = await api('GET', '/access-logs');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.pagination).toEqual({ page: 1, pageSize: 20, total: 3, totalPages: 1 });
    expect(body.data).toEqual([
      { id: expect.stringMatching(/^alg_/), host, path: 'secret', ip: '2001:db8::5', reason: 'gated_page', rule: null, createdAt: expect.any(String) },
      { id: expect.any(String), host, path: 'guides/setup', ip: '198.51.100.2', reason: 'ip_allowlist', rule: { id: list.id, type: 'ip_allowlist', name: 'Office' }, createdAt: expect.any(String) },
      { id: expect.any(String), host, path: 'internal/plan', ip: '198.51.100.1', reason: 'access_rule', rule: { id: rule.id, type: 'access_rule', name: 'Internal' }, createdAt: expect.any(String) },
    ]);

    const byReason = (await api('GET', '/access-logs?reason=access_rule')).json();
    expect(byReason.data.map((e: { path: string }) => e.path)).toEqual(['internal/plan']);
    expect(byReason.pagination.total).toBe(1);

    const paged = (await api('GET', '/access-logs?pageSize=2&page=2')).json();
    expect(paged.data.map((e: { path: string }) => e.path)).toEqual(['internal/plan']);
    expect(paged.pagination).toEqual({ page: 2, pageSize: 2, total: 3, totalPages: 2 });

    const middle = body.data[1].createdAt as string;
    const from = (await api('GET', `/access-logs?from=${encodeURIComponent(middle)}`)).json();
    expect(from.data.map((e: { path: string }) => e.path)).toEqual(['secret', 'guides/setup']);
    const to = (await api('GET', `/access-logs?to=${encodeURIComponent(middle)}`)).json();
    expect(to.data.map((e: { path: string }) => e.path)).toEqual(['guides/setup', 'internal/plan']);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await api('GET', `/access-logs?from=${tomorrow}`)).json().data).toEqual([]);

    // A deleted rule keeps its denials; they name it without a name.
    await api('DELETE', `/access-rules/${rule.id}`);
    await api('DELETE', `/ip-allowlists/${list.id}`);
    const after = (await api('GET', '/access-logs?reason=access_rule')).json().data[0];
    expect(after.rule).toEqual({ id: rule.id, type: 'access_rule', name: null });
  });

  it('refuses bad filters with 400 naming them, and needs admin', async () => {
    const backwards = await api('GET', '/access-logs?from=2025-02-01&to=2025-01-01');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error.details.field).toBe('to');
    expect((await api('GET', '/access-logs?reason=curiosity')).json().error.details.field).toBe('reason');
    expect((await api('GET', '/access-logs?from=yesterday')).json().error.details.field).toBe('from');
    expect((await api('GET', '/access-logs?page=0')).json().error.details.field).toBe('page');
    const writer = await createKey(t, ['projects:read', 'projects:write']);
    expect((await api('GET', '/access-logs', undefined, writer.key)).statusCode).toBe(403);
    const stranger = await createOrgWithKey(t);
    expect((await api('GET', '/access-logs', undefined, stranger.key)).statusCode).toBe(404);
  });

  it('stores request text a database would refuse without failing', async () => {
    recordDenial(t.ctx, { projectId: otherProjectId, host: 'elsewhere-docs.localhost', path: 'bad\u0000path\ud800', ip: '198.51.100.9', reason: 'gated_page' });
    const res = await api('GET', '/access-logs', undefined, t.adminKey, otherProjectId);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((e: { path: string }) => e.path)).toContain('bad\ufffdpath\ufffd');
  });
});
