import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { resolveSession, type ResolvedSession } from '../services/sessions';

/**
 * What every tRPC procedure receives: the app's shared context, the caller's session (if the
 * request carried a valid `Authorization: Bearer <session token>`) and the caller's address.
 */
export interface TrpcContext {
  app: AppContext;
  /** The bearer token as sent, or null; `auth.signOut` revokes it. */
  token: string | null;
  /** The signed-in identity, or null when there is no token or it is unknown/expired/revoked. */
  session: ResolvedSession | null;
  /** Client IP (Fastify's `request.ip`); keys the sign-in throttle. */
  ip: string;
}

/**
 * The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or null.
 * Other schemes and malformed values give null, so the caller is simply not signed in.
 */
export function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer[ ]+(\S+)[ ]*$/i);
  return match ? match[1]! : null;
}

/**
 * Builds the context of one call. Used by the HTTP adapter (see {@link createContextFactory})
 * and directly by tests with `appRouter.createCaller(await createTrpcContext(app, {...}))`.
 */
export async function createTrpcContext(
  app: AppContext,
  input: { authorization?: string | undefined; ip?: string | undefined } = {},
): Promise<TrpcContext> {
  const token = bearerToken(input.authorization);
  const session = token ? await resolveSession(app.db, token) : null;
  return { app, token, session, ip: input.ip ?? 'local' };
}

/** The adapter's `createContext`: reads the Authorization header and IP of the Fastify request, and holds a subscription's connection in `liveStreams`. */
export function createContextFactory(app: AppContext) {
  return ({ req, res, info }: { req: FastifyRequest; res: FastifyReply; info: { type: string } }): Promise<TrpcContext> => {
    // A subscription's stream lasts until its subject ends: a stopping server cuts it (http/live-streams.ts).
    if (info.type === 'subscription') app.liveStreams.hold(res.raw);
    return createTrpcContext(app, { authorization: req.headers.authorization, ip: req.ip });
  };
}
