/** `{user.<field>}` in MDX pages: placeholders for allowlisted fields, fallbacks, nothing evaluated. */
import { describe, expect, it } from 'vitest';
import { parseReaderClaims, readStoredClaims, userFieldsOf } from '../../../src/site/personalisation';
import { kinds, render } from './render-helpers';

describe('user references in MDX', () => {
  it('renders a placeholder holding the fallback for name and plan', async () => {
    const page = await render('Hello {user.name ?? "there"}, on the {user?.plan} plan.\n');
    expect(page.html).toContain('Hello <span data-quire-user="name">there</span>, on the <span data-quire-user="plan"></span> plan.');
    expect(page.warnings).toEqual([]);
    expect(page.text).toContain('Hello there');
  });

  it('accepts || and a template literal as the fallback, and a computed field name', async () => {
    const page = await render("Hi {user['name'] || `friend`}!\n");
    expect(page.html).toContain('Hi <span data-quire-user="name">friend</span>!');
  });

  it('escapes the fallback text', async () => {
    const page = await render('Hi {user.name ?? "<b>&you</b>"}\n');
    expect(page.html).toContain('<span data-quire-user="name">&lt;b&gt;&amp;you&lt;/b&gt;</span>');
    expect(page.html).not.toContain('<b>');
  });

  it('a field not declared is not personalised: a warning and the fallback as plain text', async () => {
    const page = await render('Your key: {user.apiKey ?? "none"}. Team {user.company}.\n');
    expect(page.html).not.toContain('data-quire-user');
    expect(page.html).toContain('Your key: none. Team .');
    expect(kinds(page)).toEqual(['personalization', 'personalization']);
    expect(page.warnings[0]!.message).toContain('user.apiKey is not a declared field');
  });

  it('a field declared in docs.json personalization.fields is personalised', async () => {
    const page = await render('Team {user.company ?? "your team"}.\n', { userFields: userFieldsOf({ personalization: { fields: ['company'] } }) });
    expect(page.html).toContain('Team <span data-quire-user="company">your team</span>.');
  });

  it('other expressions on user are never evaluated', async () => {
    const page = await render('{user.plan === "pro" ? "Pro" : "Free"} and {user.org?.plan} and {user.name.toUpperCase()}\n');
    expect(page.html).not.toContain('data-quire-user');
    expect(page.html).not.toContain('Pro');
    // a condition or a call is an unevaluated expression; a nested member a reference Quire does not read
    expect(kinds(page)).toEqual(['expression', 'personalization', 'expression']);
  });

  it('a page binding user itself keeps the static value', async () => {
    const page = await render('export const user = { name: "Static" }\n\nHi {user.name}\n');
    expect(page.html).toContain('Hi Static');
    expect(page.html).not.toContain('data-quire-user');
  });
});

describe('reader claims', () => {
  it('declared fields: name and plan always, docs.json fields when well formed', () => {
    expect(userFieldsOf(undefined)).toEqual(['name', 'plan']);
    expect(userFieldsOf({ personalization: { fields: ['company', 'bad-name', 7, 'apiPlaygroundInputs', 'plan'] } })).toEqual(['name', 'plan', 'company']);
  });

  it('parses string fields and playground inputs', () => {
    expect(parseReaderClaims({ name: 'Ada', plan: 'pro', apiPlaygroundInputs: { header: { 'X-API-Key': 'sk_1' } } })).toEqual({
      fields: { name: 'Ada', plan: 'pro' },
      apiPlaygroundInputs: { header: { 'X-API-Key': 'sk_1' } },
    });
  });

  it('refuses bad claims with a message naming the key', () => {
    const error = (v: unknown) => {
      const r = parseReaderClaims(v);
      return 'error' in r ? r.error : 'accepted';
    };
    expect(error([])).toMatch(/must be an object/);
    expect(error({ 'bad-key': 'x' })).toMatch(/claims\.bad-key/);
    expect(error({ name: 3 })).toMatch(/claims\.name: must be a string/);
    expect(error({ name: 'x'.repeat(201) })).toMatch(/at most 200/);
    expect(error({ name: 'a\u0000b' })).toMatch(/claims\.name/);
    expect(error({ name: '\uD800' })).toMatch(/claims\.name/);
    expect(error({ apiPlaygroundInputs: { cookie: { a: 'b' } } })).toMatch(/one of header, query, path, server/);
    expect(error(Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`f${i}`, 'v'])))).toMatch(/at most 16 fields/);
    expect(error(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}`, 'v'.repeat(150)])))).toMatch(/at most 1024 bytes/);
  });

  it('reads stored claims back, refusing malformed ones', () => {
    expect(readStoredClaims({ fields: { name: 'Ada' } })).toEqual({ fields: { name: 'Ada' } });
    expect(readStoredClaims({ fields: { name: 5 } })).toBeUndefined();
    expect(readStoredClaims('x')).toBeUndefined();
  });
});
