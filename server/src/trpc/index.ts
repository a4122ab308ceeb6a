import fp from 'fastify-plugin';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import { appRouter, type AppRouter } from './routers/_app';
import { createContextFactory } from './context';
import { CHANGE_SET_BODY_LIMIT } from '@quire/shared/collab/change-set';

/** Largest tRPC request body, in bytes: a whole change set in JSON (the REST review routes' limit). */
export const TRPC_BODY_LIMIT = CHANGE_SET_BODY_LIMIT;

/** Options of the tRPC plugin. */
export interface TrpcPluginOptions {
  /** Mount path; default `/trpc`. */
  prefix?: string;
}

/**
 * Mounts the tRPC router (./routers/_app) with @trpc/server's Fastify adapter at `/trpc`
 * (`GET /trpc/auth.me`, `POST /trpc/auth.signIn`, batching with `?batch=1`).
 * Callers authenticate with `Authorization: Bearer <session token>` from `auth.signIn`; the API-key
 * auth plugin skips `/trpc`. Errors use tRPC's envelope (see ./trpc). The adapter's own JSON body
 * parser stays inside its encapsulated child context, so /v1 parsing is unaffected.
 * Unexpected errors are logged with the request id; clients see only a generic message.
 */
export default fp<TrpcPluginOptions>(
  async (app, opts) => {
    const options: FastifyTRPCPluginOptions<AppRouter> = {
      trpcOptions: {
        router: appRouter,
        createContext: createContextFactory(app.ctx),
        onError({ error, path, req }) {
          if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: error.cause ?? error, path }, 'tRPC procedure failed');
        },
      },
    };
    // Change sets travel through `reviews.create`/`reviews.update` (up to 10 MiB of content,
    // shared/src/collab/change-set.ts), so tRPC takes the review routes' body limit, not the API's 1 MiB.
    await app.register(async (scope) => {
      scope.addHook('onRoute', (route) => {
        route.bodyLimit = TRPC_BODY_LIMIT;
      });
      await scope.register(fastifyTRPCPlugin, { ...options, prefix: opts.prefix ?? '/trpc' });
    });
  },
  { name: 'trpc', fastify: '5.x' },
);
