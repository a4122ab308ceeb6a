/**
 * Substring filters treat `%`, `_` and `\` as the characters they are (db/literal-contains.ts):
 * the audit log's `actor` filter on the embedded database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@quire/shared/ids';
import { createApiKey } from '../../src/services/api-keys';
import { literalContains } from '../../src/db/literal-contains';
import pg from 'pg';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import { requirePostgres } from '../helpers/services';

const postgres = await requirePostgres();

let t: TestApp;
let projectId: string;
const oddEmail = 'odd_100%\\x@example.com';
beforeAll(async () => {
  t = await createTestApp();
  projectId = (await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Filtered' } })).json().data.id;
  // A second actor whose email holds the LIKE metacharacters; both change the project.
  const user = await t.ctx.db.prisma.user.create({ data: { id: newId('user'), email: oddEmail, name: 'Odd', passwordHash: '' } });
  await t.ctx.db.prisma.membership.create({ data: { orgId: t.app.bootstrap.orgId!, userId: user.id, role: 'admin' } });
  const key = (await createApiKey(t.ctx.db, { orgId: t.app.bootstrap.orgId!, createdById: user.id, name: 'odd', permissions: ['admin'] })).key;
  await t.app.inject({ method: 'PATCH', url: `/v1/projects/${projectId}`, headers: bearer(key), payload: { name: 'Filtered 2' } });
});
afterAll(async () => t?.close());

async function actorsFor(actor: string): Promise<string[]> {
  const res = await t.app.inject({ url: `/v1/projects/${projectId}/audit-log?actor=${encodeURIComponent(actor)}`, headers: bearer(t.adminKey) });
  expect(res.statusCode).toBe(200);
  return res.json().data.map((e: { actor: { email: string } }) => e.actor.email);
}

describe('audit log actor filter: literal substrings', () => {
  it('matches % and _ only where the email holds them', async () => {
    expect(await actorsFor('%')).toEqual([oddEmail]);
    expect(await actorsFor('_')).toEqual([oddEmail]);
    expect(await actorsFor('100%')).toEqual([oddEmail]);
    expect(await actorsFor('admin%')).toEqual([]);
    expect(await actorsFor('a_min')).toEqual([]);
  });

  it('matches a backslash literally, case-insensitively', async () => {
    expect(await actorsFor('%\\X')).toEqual([oddEmail]);
    expect(await actorsFor('\\')).toEqual([oddEmail]);
    expect(await actorsFor('0\\')).toEqual([]);
  });

  it('still finds plain substrings of every actor', async () => {
    expect(await actorsFor('ADMIN@')).toEqual(['admin@quire.local']);
    expect(new Set(await actorsFor('.'))).toEqual(new Set(['admin@quire.local', oddEmail]));
  });

  it('widens in the database and narrows exactly in JavaScript', async () => {
    // Prisma's contains does not escape: '%' alone matches every email on SQLite.
    const raw = await t.ctx.db.prisma.user.count({ where: { email: { contains: '%' } } });
    expect(raw).toBe(await t.ctx.db.prisma.user.count());
    const like = literalContains('1\\_');
    expect(like.where.contains).toBe('1__');
    expect(like.matches('a1\\_b')).toBe(true);
    expect(like.matches('a1x_b')).toBe(false);
  });
});

describe.skipIf(!postgres)('literalContains on PostgreSQL (LIKE with its default backslash escape)', () => {
  it('widens to a superset in the database (as Prisma sends contains: LIKE with %term%), then narrows exactly', async () => {
    const client = new pg.Client({ connectionString: postgres!.url });
    await client.connect();
    try {
      const values = ['odd_100%\\x@example.com', 'odd_100%x@example.com', 'a\\b', 'ab', 'plain@example.com'];
      const matching = async (term: string) => {
        const like = literalContains(term);
        const { rows } = await client.query<{ v: string }>('SELECT v FROM unnest($1::text[]) AS t(v) WHERE v LIKE $2', [values, `%${like.where.contains}%`]);
        return rows.map((r) => r.v).filter(like.matches);
      };
      // Sent unchanged, a backslash escapes the next character on PostgreSQL: 'a\\b' would match 'ab' only.
      const { rows: raw } = await client.query<{ v: string }>('SELECT v FROM unnest($1::text[]) AS t(v) WHERE v LIKE $2', [values, '%a\\b%']);
      expect(raw.map((r) => r.v)).toEqual(['ab']);
      expect(await matching('a\\b')).toEqual(['a\\b']);
      expect(await matching('%\\x')).toEqual(['odd_100%\\x@example.com']);
      expect(await matching('%')).toEqual(['odd_100%\\x@example.com', 'odd_100%x@example.com']);
      expect(await matching('_1')).toEqual(['odd_100%\\x@example.com', 'odd_100%x@example.com']);
      expect(await matching('b_')).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
