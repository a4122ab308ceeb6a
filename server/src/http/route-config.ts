/**
 * Per-route options read by the cross-cutting plugins (auth, resource gate, rate limit, idempotency):
 * `config: { permission: 'builds:write' }`, `config: { public: true }`, `config: { oneTimeSecret: 'key' }`,
 * `config: { resource: { param: 'id', kind: 'webhookMessage', find: findWebhookEventForCaller } }`.
 */
import type { Permission } from '@quire/shared/api/api-keys';
import type { IdKind } from '@quire/shared/ids';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';

/**
 * An organization-owned resource named by a path parameter of a route outside `/projects/:projectId`
 * (those are the project's: plugins/resource-gate.ts resolves the project itself). The gate looks
 * it up for the caller before the body is read, so one the caller may not see answers 404 whatever
 * the request's input (decisions.md section 10).
 */
export interface RouteResource {
  /** the path parameter holding the id (`id`, `keyId`) */
  param: string;
  /** the id's kind (shared/src/ids.ts): only a well-formed id is looked up; anything else names no resource */
  kind: IdKind;
  /**
   * The service's own lookup for the caller (the one its handler uses).
   * @throws ApiError not_found for an unknown id, another organization's resource, or one outside a project-scoped key's project.
   */
  find(ctx: AppContext, auth: RequestAuth, id: string): Promise<unknown>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission a key needs for this route (decisions.md section 2); `admin` implies all. */
    permission?: Permission;
    /** No API key needed (feedback, chat history, OpenAPI, webhook receivers with their own signature). */
    public?: boolean;
    /**
     * The member of the response's `data` object that holds a secret shown only once (e.g. `key`).
     * Idempotency records store the response with it replaced by a notice, and replays send that
     * (the spec's "never retrievable again"; decisions.md section 2 stores keys as hashes only).
     */
    oneTimeSecret?: string;
    /** The resource the route's path names when it is not under `/projects/:projectId` (see {@link RouteResource}). */
    resource?: RouteResource;
  }
}
