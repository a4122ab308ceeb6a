/**
 * Per-route options read by the cross-cutting plugins (auth, rate limit):
 * `config: { permission: 'builds:write' }` or `config: { public: true }`.
 */
import type { Permission } from '@quire/shared/api/api-keys';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The permission a key needs for this route (decisions.md section 2); `admin` implies all. */
    permission?: Permission;
    /** No API key needed (feedback, chat history, OpenAPI, webhook receivers with their own signature). */
    public?: boolean;
  }
}

export {};
