/**
 * `POST /access-check` through HTTP against a built and deployed site with a gated page: the
 * decision the site makes (access/decide.ts `decideSiteAccess`) for a visitor's address and
 * audience token, with the rule or allowlist that decided, and rule changes taking effect at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@quire/shared/ids';
import { issueAudienceToken } from '../../src/services/audience-tokens';
import { decideSiteAccess } from '../../src/access/decide';
import { bearer, createKey, createOrgWithKey, createTestApp, type TestApp } from '../helpers/app';
import { createFixtureRepo, type FixtureRepo } from '../helpers/git-repo';
import { createProject, trigger, waitForStatus } from './builds/build-fixture';

let t: TestApp;
let repo: FixtureRepo;
let project: { id: string; slug: string };
let staffToken: string;
let partnerToken: string;
let expiredToken: string;

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, key = t.adminKey) =>
  t.app.inject({ method, url: `/v1/projects/${project.id}${url}`, headers: bearer(key), ...(payload ? { payload } : {}) });

const check = async (path: string, ip: string, token?: string) => {
  const res = await api('POST', '/access-check', { path, ip, ...(token !== undefined ? { token } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    allowed: boolean;
    reason: string | null;
    rule: { id: string; name: string; type: string } | null;
    audiences: string[];
    tokenRefusal: string | null;
    page: { path: string; audience: string[] } | null;
  };
};

/** An audience profile with `tags` and a token for it (expired when `expiresAt` is past). */
async function tokenFor(tags: string[], expiresAt: Date | null = null): Promise<string> {
  const profile = await t.ctx.db.prisma.audienceProfile.create({
    data: { id: newId('audience'), projectId: project.id, name: tags.join('+'), slug: `p-${tags.join('-')}-${expiresAt ? 'old' : 'new'}`, audiences: JSON.stringify(tags) },
  });
  return (
    await issueAudienceToken(t.ctx, {
      orgId: t.app.bootstrap.orgId!,
      projectId: project.id,
      profileId: profile.id,
      expiresAt,
      label: null,
      auth: null,
    })
  ).token;
}

beforeAll(async () => {
  t = await createTestApp({ runJobs: true });
  const page = (title: string, extra = '') => `---\ntitle: ${title}\n${extra}---\n\n${title} text.\n`;
  repo = createFixtureRepo(undefined, {
    extraFiles: {
      'docs.json': JSON.stringify({ name: 'Acme', navigation: { groups: [{ group: 'All', pages: ['index', 'guides/setup', 'internal/handbook', 'internal/roadmap', 'admin/panel'] }] } }),
      'index.mdx': page('Home'),
      'guides/setup.mdx': page('Setup'),
      'internal/handbook.mdx': page('Handbook', 'audience: staff\n'),
      'internal/roadmap.mdx': page('Roadmap'),
      'admin/panel.mdx': page('Panel'),
    },
  });
  project = await createProject(t, repo, 'gatedocs');
  const build = (await trigger(t, project.id)).json().data;
  expect((await waitForStatus(t, project.id, build.id, ['deployed', 'failed'])).status).toBe('deployed');
  staffToken = await tokenFor(['staff']);
  partnerToken = await tokenFor(['partner']);
  expiredToken = await tokenFor(['staff'], new Date(Date.now() - 60_000));
}, 60_000);

afterAll(async () => {
  await t?.close();
  repo?.cleanup();
});

describe('the page gate', () => {
  it('opens an ungated page to anyone and names the page in every path form', async () => {
    for (const path of ['/guides/setup', 'guides/setup', '/guides/setup.md', '/guides/setup/']) {
      expect(await check(path, '198.51.100.7')).toEqual({ allowed: true, reason: null, rule: null, audiences: [], tokenRefusal: null, page: { path: 'guides/setup', audience: [] } });
    }
    expect((await check('/', '198.51.100.7')).page).toEqual({ path: 'index', audience: [] });
    expect((await check('/no/such/page', '198.51.100.7'))).toMatchObject({ allowed: true, page: null });
  });

  it('refuses a gated page without a token, or with a token of other tags, and opens it with the right one', async () => {
    expect(await check('/internal/handbook', '198.51.100.7')).toMatchObject({ allowed: false, reason: 'gated_page', rule: null, audiences: [], page: { path: 'internal/handbook', audience: ['staff'] } });
    expect(await check('/internal/handbook', '198.51.100.7', partnerToken)).toMatchObject({ allowed: false, reason: 'gated_page', audiences: ['partner'], tokenRefusal: null });
    expect(await check('/internal/handbook', '198.51.100.7', staffToken)).toMatchObject({ allowed: true, reason: null, audiences: ['staff'], tokenRefusal: null });
  });

  it('says invalid_token for a gated page with a token that opens nothing, and why', async () => {
    expect(await check('/internal/handbook', '198.51.100.7', expiredToken)).toMatchObject({ allowed: false, reason: 'invalid_token', audiences: [], tokenRefusal: 'expired' });
    expect(await check('/internal/handbook', '198.51.100.7', 'not-a-token')).toMatchObject({ allowed: false, reason: 'invalid_token', tokenRefusal: 'malformed' });
    const forged = `${staffToken.split('.')[0]}.${'A'.repeat(43)}`;
    expect(await check('/internal/handbook', '198.51.100.7', forged)).toMatchObject({ allowed: false, reason: 'invalid_token', tokenRefusal: 'bad_signature' });
    // An ungated page stays readable: a bad token alone refuses nothing.
    expect(await check('/guides/setup', '198.51.100.7', expiredToken)).toMatchObject({ allowed: true, reason: null, tokenRefusal: 'expired' });
  });
});

describe('access rules and IP allowlists', () => {
  it('lets a rule through by audience or by range, names the rule that decided, and applies changes at once', async () => {
    const rule = (await api('POST', '/access-rules', { name: 'Internal', pathPattern: '/internal/**', audiences: ['staff'], cidrs: ['10.0.0.0/8', '2001:db8::/32'] })).json().data;
    const denied = await check('/internal/roadmap', '198.51.100.7');
    expect(denied).toMatchObject({ allowed: false, reason: 'access_rule', rule: { id: rule.id, name: 'Internal', type: 'access_rule' }, page: { path: 'internal/roadmap', audience: [] } });
    expect(await check('/internal/roadmap', '10.20.30.40')).toMatchObject({ allowed: true, reason: null, rule: { id: rule.id, type: 'access_rule' } });
    expect(await check('/internal/roadmap', '::ffff:10.20.30.40')).toMatchObject({ allowed: true, rule: { id: rule.id } });
    expect(await check('/internal/roadmap', '2001:db8:5::1')).toMatchObject({ allowed: true });
    expect(await check('/internal/roadmap', '2001:db9::1')).toMatchObject({ allowed: false, reason: 'access_rule' });
    expect(await check('/internal/roadmap', '198.51.100.7', staffToken)).toMatchObject({ allowed: true, audiences: ['staff'], rule: { id: rule.id } });
    expect(await check('/internal/roadmap', '198.51.100.7', partnerToken)).toMatchObject({ allowed: false, reason: 'access_rule' });
    // Outside the glob nothing changes.
    expect(await check('/guides/setup', '198.51.100.7')).toMatchObject({ allowed: true, rule: null });
    // A rule's range does not open a page gated by its frontmatter.
    expect(await check('/internal/handbook', '10.20.30.40')).toMatchObject({ allowed: false, reason: 'gated_page', rule: null });

    // Disabling, then deleting, opens the pages at once.
    await api('PATCH', `/access-rules/${rule.id}`, { enabled: false });
    expect(await check('/internal/roadmap', '198.51.100.7')).toMatchObject({ allowed: true, rule: null });
    await api('PATCH', `/access-rules/${rule.id}`, { enabled: true });
    expect(await check('/internal/roadmap', '198.51.100.7')).toMatchObject({ allowed: false, reason: 'access_rule' });
    await api('DELETE', `/access-rules/${rule.id}`);
    expect(await check('/internal/roadmap', '198.51.100.7')).toMatchObject({ allowed: true, rule: null });
  });

  it('applies every matching rule on its own: the narrower one refuses what the broader allows', async () => {
    const broad = (await api('POST', '/access-rules', { name: 'Employees', pathPattern: 'internal/**', audiences: ['staff', 'partner'] })).json().data;
    const narrow = (await api('POST', '/access-rules', { name: 'Staff roadmap', pathPattern: 'internal/roadmap', audiences: ['staff'] })).json().data;
    expect(await check('internal/roadmap', '198.51.100.7', partnerToken)).toMatchObject({ allowed: false, reason: 'access_rule', rule: { id: narrow.id, name: 'Staff roadmap' } });
    expect(await check('internal/roadmap', '198.51.100.7', staffToken)).toMatchObject({ allowed: true, rule: { id: narrow.id } });
    expect(await check('internal/roadmap', '198.51.100.7')).toMatchObject({ allowed: false, rule: { id: broad.id } });
    await api('DELETE', `/access-rules/${broad.id}`);
    await api('DELETE', `/access-rules/${narrow.id}`);
  });

  it('refuses addresses outside an allowlist on the paths it guards, before any rule', async () => {
    const whole = (await api('POST', '/ip-allowlists', { name: 'Office', cidrs: ['203.0.113.0/24', '2001:db8::/32'] })).json().data;
    expect(await check('/guides/setup', '198.51.100.7')).toMatchObject({ allowed: false, reason: 'ip_allowlist', rule: { id: whole.id, name: 'Office', type: 'ip_allowlist' } });
    expect(await check('/guides/setup', '203.0.113.50')).toMatchObject({ allowed: true, rule: { id: whole.id, type: 'ip_allowlist' } });
    expect(await check('/guides/setup', '::ffff:203.0.113.50')).toMatchObject({ allowed: true });
    expect(await check('/internal/handbook', '198.51.100.7', staffToken)).toMatchObject({ allowed: false, reason: 'ip_allowlist' });

    await api('PATCH', `/ip-allowlists/${whole.id}`, { paths: ['/admin/**'] });
    expect(await check('/guides/setup', '198.51.100.7')).toMatchObject({ allowed: true, rule: null });
    expect(await check('/admin/panel', '198.51.100.7')).toMatchObject({ allowed: false, reason: 'ip_allowlist', rule: { id: whole.id } });
    expect(await check('/admin/panel', '2001:db8::42')).toMatchObject({ allowed: true });

    // With a rule on the same path, the allowlist decides first; the rule names itself when both pass.
    const rule = (await api('POST', '/access-rules', { name: 'Admins', pathPattern: 'admin/*', audiences: ['staff'] })).json().data;
    expect(await check('/admin/panel', '198.51.100.7', staffToken)).toMatchObject({ allowed: false, reason: 'ip_allowlist' });
    expect(await check('/admin/panel', '203.0.113.9')).toMatchObject({ allowed: false, reason: 'access_rule', rule: { id: rule.id } });
    expect(await check('/admin/panel', '203.0.113.9', staffToken)).toMatchObject({ allowed: true, rule: { id: rule.id, type: 'access_rule' } });

    await api('PATCH', `/ip-allowlists/${whole.id}`, { enabled: false });
    expect(await check('/admin/panel', '198.51.100.7', staffToken)).toMatchObject({ allowed: true });
    await api('DELETE', `/ip-allowlists/${whole.id}`);
    await api('DELETE', `/access-rules/${rule.id}`);
  });

  it('is the very decision the site makes (decideSiteAccess), synchronous for a cached policy without a token', async () => {
    const rule = (await api('POST', '/access-rules', { name: 'Internal', pathPattern: 'internal/**', cidrs: ['10.0.0.0/8'] })).json().data;
    await check('/internal/roadmap', '10.0.0.1'); // loads the policy
    const decision = decideSiteAccess(t.ctx, { projectId: project.id, path: 'internal/roadmap', ip: '198.51.100.7', pageAudience: [] });
    expect(decision).not.toBeInstanceOf(Promise);
    expect(decision).toEqual({ allowed: false, reason: 'access_rule', ruleId: rule.id, ruleName: 'Internal', ruleType: 'access_rule', tags: [] });
    const withToken = await decideSiteAccess(t.ctx, { projectId: project.id, path: 'internal/handbook', ip: '10.0.0.1', token: staffToken, pageAudience: ['staff'] });
    expect(withToken).toMatchObject({ allowed: true, reason: null, ruleId: rule.id, tags: ['staff'], grant: { tags: ['staff'] } });
    await api('DELETE', `/access-rules/${rule.id}`);
  });
});

describe('request checks', () => {
  it.each([
    ['an address that is not one', { path: '/', ip: '300.1.2.3' }, 'ip'],
    ['a short IPv4 form', { path: '/', ip: '127.1' }, 'ip'],
    ['an empty path', { path: '', ip: '10.0.0.1' }, 'path'],
    ['an empty token', { path: '/', ip: '10.0.0.1', token: '' }, 'token'],
  ])('refuses %s with 400 naming the field', async (_name, body, field) => {
    const res = await api('POST', '/access-check', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.field).toBe(field);
  });

  it('needs admin and hides other organizations', async () => {
    const writer = await createKey(t, ['projects:read', 'projects:write']);
    expect((await api('POST', '/access-check', { path: '/', ip: '10.0.0.1' }, writer.key)).statusCode).toBe(403);
    const stranger = await createOrgWithKey(t);
    expect((await api('POST', '/access-check', { path: '/', ip: '10.0.0.1' }, stranger.key)).statusCode).toBe(404);
  });
});
