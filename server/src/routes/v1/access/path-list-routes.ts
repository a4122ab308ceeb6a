/**
 * The CRUD routes of a project's path-scoped access lists, one implementation for both kinds
 * (interface-spec.md "Collaboration", Access control): `/access-rules` (paths readable only by
 * given audiences or address ranges) and `/ip-allowlists` (address ranges outside which paths
 * cannot be read). Every route needs `admin` (decisions.md section 2); the services audit changes
 * and apply them to the sites at once.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataEnvelope, errorResponses } from '@quire/shared/api/common';
import { ProjectParamsSchema } from '@quire/shared/api/projects';
import type { RequestAuth } from '../../../access/request-auth';
import type { AppContext } from '../../../context';

/** What one kind of list needs: its path, schemas, texts for the OpenAPI document, and services. */
export interface PathListRoutes<Item, Body, Patch> {
  /** `access-rules` or `ip-allowlists` */
  segment: string;
  /** the id parameter's name (`ruleId`, `allowlistId`) */
  idParam: string;
  /** singular and plural names for summaries (`access rule`, `access rules`) */
  noun: string;
  nouns: string;
  schemas: { item: z.ZodType<Item>; body: z.ZodType<Body>; patch: z.ZodType<Patch>; params: z.ZodTypeAny };
  descriptions: { create: string; update: string; get: string; remove: string };
  services: {
    list(ctx: AppContext, auth: RequestAuth, projectId: string): Promise<Item[]>;
    create(ctx: AppContext, auth: RequestAuth, projectId: string, body: Body): Promise<Item>;
    get(ctx: AppContext, auth: RequestAuth, projectId: string, id: string): Promise<Item>;
    update(ctx: AppContext, auth: RequestAuth, projectId: string, id: string, patch: Patch): Promise<Item>;
    remove(ctx: AppContext, auth: RequestAuth, projectId: string, id: string): Promise<void>;
  };
}

const article = (s: string) => (/^[aeiou]/i.test(s) ? 'an' : 'a');

/** The Fastify plugin serving one kind of path-scoped access list (see {@link PathListRoutes}). */
export function pathListRoutes<Item, Body, Patch>(def: PathListRoutes<Item, Body, Patch>): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['Access control'];
    const prefix = `/projects/:projectId/${def.segment}`;
    const one = `${prefix}/:${def.idParam}`;
    const a = `${article(def.noun)} ${def.noun}`;
    type Params = { projectId: string } & Record<string, string>;
    const idOf = (params: unknown) => (params as Params)[def.idParam]!;

    app.get(prefix, {
      config: { permission: 'admin' },
      schema: { tags, summary: `List ${def.nouns}`, description: 'Oldest first; not paginated.', params: ProjectParamsSchema, response: { 200: z.object({ data: z.array(def.schemas.item) }), ...errorResponses(401, 403, 404, 429) } },
    }, async (req) => ({ data: await def.services.list(app.ctx, req.auth, req.params.projectId) }));

    app.post(prefix, {
      config: { permission: 'admin' },
      schema: { tags, summary: `Add ${a}`, description: def.descriptions.create, params: ProjectParamsSchema, body: def.schemas.body, response: { 201: dataEnvelope(def.schemas.item), ...errorResponses(400, 401, 403, 404, 409, 429) } },
    }, async (req, reply) => reply.code(201).send({ data: await def.services.create(app.ctx, req.auth, req.params.projectId, req.body as Body) }));

    app.get(one, {
      config: { permission: 'admin' },
      schema: { tags, summary: `Get ${a}`, description: def.descriptions.get, params: def.schemas.params, response: { 200: dataEnvelope(def.schemas.item), ...errorResponses(401, 403, 404, 429) } },
    }, async (req) => ({ data: await def.services.get(app.ctx, req.auth, (req.params as Params).projectId, idOf(req.params)) }));

    app.patch(one, {
      config: { permission: 'admin' },
      schema: { tags, summary: `Change ${a}`, description: def.descriptions.update, params: def.schemas.params, body: def.schemas.patch, response: { 200: dataEnvelope(def.schemas.item), ...errorResponses(400, 401, 403, 404, 429) } },
    }, async (req) => ({ data: await def.services.update(app.ctx, req.auth, (req.params as Params).projectId, idOf(req.params), req.body as Patch) }));

    app.delete(one, {
      config: { permission: 'admin' },
      schema: { tags, summary: `Delete ${a}`, description: def.descriptions.remove, params: def.schemas.params, response: { 204: z.null().describe('Deleted'), ...errorResponses(401, 403, 404, 429) } },
    }, async (req, reply) => {
      await def.services.remove(app.ctx, req.auth, (req.params as Params).projectId, idOf(req.params));
      return reply.code(204).send(null);
    });
  };
}
