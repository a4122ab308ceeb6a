/**
 * Helpers of the audience profile and token tests: the REST calls (on any app of the installation)
 * and a search of every stored value for a secret.
 */
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../src/context';
import { bearer } from '../helpers/app';

/** The REST calls of the audience routes on `app`, as `key`. */
export function audienceApi(app: FastifyInstance, key: string) {
  const base = (projectId: string) => `/v1/projects/${projectId}/audiences`;
  return {
    create: (projectId: string, payload: unknown) => app.inject({ method: 'POST', url: base(projectId), headers: bearer(key), payload: payload as object }),
    list: (projectId: string) => app.inject({ url: base(projectId), headers: bearer(key) }),
    get: (projectId: string, profileId: string) => app.inject({ url: `${base(projectId)}/${profileId}`, headers: bearer(key) }),
    update: (projectId: string, profileId: string, payload: unknown) =>
      app.inject({ method: 'PATCH', url: `${base(projectId)}/${profileId}`, headers: bearer(key), payload: payload as object }),
    remove: (projectId: string, profileId: string) => app.inject({ method: 'DELETE', url: `${base(projectId)}/${profileId}`, headers: bearer(key) }),
    token: (projectId: string, profileId: string, payload?: unknown, headers: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url: `${base(projectId)}/${profileId}/token`,
        headers: { ...bearer(key), ...headers },
        ...(payload === undefined ? {} : { payload: payload as object }),
      }),
  };
}

/** Creates a project on `app` and returns its id. */
export async function createProject(app: FastifyInstance, key: string, slug: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(key), payload: { name: slug, slug } });
  expect(res.statusCode).toBe(201);
  return res.json().data.id as string;
}

/** Creates a profile through the API (tags default `['partners']`) and returns its id. */
export async function createProfile(app: FastifyInstance, key: string, projectId: string, slug: string, audiences = ['partners']): Promise<string> {
  const res = await audienceApi(app, key).create(projectId, { name: slug, slug, audiences });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

/** `table.column` of every stored value (any table, SQLite or PostgreSQL) that contains `needle`. */
export async function placesHolding(ctx: AppContext, needle: string): Promise<string[]> {
  const { prisma, provider } = ctx.db;
  const tables = await prisma.$queryRawUnsafe<{ name: string }[]>(
    provider === 'sqlite'
      ? "SELECT name FROM sqlite_master WHERE type = 'table'"
      : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
  );
  expect(tables.map((r) => r.name)).toEqual(expect.arrayContaining(['AudienceToken', 'AuditEntry', 'Project']));
  const found: string[] = [];
  for (const { name } of tables) {
    for (const row of await prisma.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "${name.replaceAll('"', '""')}"`)) {
      for (const [column, value] of Object.entries(row)) {
        const text = value instanceof Uint8Array ? Buffer.from(value).toString('latin1') : String(value);
        if (text.includes(needle)) found.push(`${name}.${column}`);
      }
    }
  }
  return found;
}
