/**
 * Per-route options read by the cross-cutting plugins (auth, rate limit, idempotency):
 * `config: { permission: 'builds:write' }`, `config: { public: true }`, `config: { oneTimeSecret: 'key' }`.
 */
import type { Permission } from '@quire/shared/api/api-keys';

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
  }
}

export {};
