/**
 * Helpers of the audience profile and token tests: the REST calls (on any app of the installation)
 * and a search of every stored value for a secret.
 */
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../src/context';
import { bearer } from '../helpers/app';
import { placesHolding as placesHoldingIn } from '../helpers/stored-values';

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

/** `table.column` of every stored value that contains `needle` (helpers/stored-values.ts). */
export function placesHolding(ctx: AppContext, needle: string): Promise<string[]> {
  return placesHoldingIn(ctx, needle, ['AudienceToken', 'AuditEntry', 'Project']);
}
