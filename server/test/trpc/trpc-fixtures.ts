import { TRPCError } from '@trpc/server';
import { expect } from 'vitest';
import { createAppContext, type AppContext } from '../../src/context';
import type { Db } from '../../src/db/client';
import { loadConfig } from '../../src/env';
import { createTrpcContext } from '../../src/trpc/context';
import { createCaller } from '../../src/trpc/routers/_app';

/** An AppContext around a test database (no Fastify app needed for `createCaller`). */
export function appContextFor(db: Db, dataDir: string): AppContext {
  const config = loadConfig({ QUIRE_DATA_DIR: dataDir, QUIRE_LOG_LEVEL: 'silent' });
  const log = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => log, level: 'silent', silent() {} };
  return createAppContext({ config, db, log: log as unknown as AppContext['log'] });
}

/** A tRPC caller as a client sending `Authorization: Bearer <token>` (or nothing) from `ip`. */
export async function callerFor(app: AppContext, token?: string, ip = '203.0.113.7') {
  return createCaller(await createTrpcContext(app, { authorization: token ? `Bearer ${token}` : undefined, ip }));
}

/** The TRPCError a call fails with (fails the test when it succeeds). */
export async function trpcErrorOf(promise: Promise<unknown>): Promise<TRPCError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TRPCError);
  return err as TRPCError;
}
