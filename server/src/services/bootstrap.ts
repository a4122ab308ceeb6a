/**
 * First start (decisions.md sections 1-3): the default organization on `QUIRE_DEFAULT_PLAN`, its
 * owner (`QUIRE_ADMIN_EMAIL`, no usable password until `pnpm quire user password` sets one) and
 * an `admin` key: `QUIRE_ADMIN_KEY` when set, else a generated key printed once by the server and
 * written to `<data dir>/admin-key` (mode 0600). Runs only when the database holds no API key.
 */
import fs from 'node:fs';
import { newId } from '@quire/shared/ids';
import type { AppContext } from '../context';
import { dataPaths } from '../data-paths';
import { createApiKey, describeKey } from './api-keys';

/** What {@link bootstrap} did. */
export interface BootstrapResult {
  /** True when this start created the default organization's admin key. */
  created: boolean;
  /** The default (oldest) organization. */
  orgId: string | null;
  /** The full admin key, only when created now (to print once). */
  adminKey: string | null;
  /** Where a generated key was written (null when QUIRE_ADMIN_KEY was used or nothing was created now). */
  keyFile: string | null;
  /** True when the key came from QUIRE_ADMIN_KEY. */
  fromEnv: boolean;
}

/**
 * Creates the default organization, owner and admin key if the database has no API key yet.
 * Idempotent: later starts change nothing. The key file is written right after the commit; a crash
 * in between leaves a key whose secret was never shown (create another with `pnpm quire org create`).
 */
export async function bootstrap(ctx: AppContext): Promise<BootstrapResult> {
  const { prisma } = ctx.db;
  const { config } = ctx;
  const oldest = await prisma.organization.findFirst({ orderBy: { createdAt: 'asc' }, select: { id: true } });
  if ((await prisma.apiKey.count()) > 0) {
    return { created: false, orgId: oldest?.id ?? null, adminKey: null, keyFile: null, fromEnv: false };
  }
  const email = config.adminEmail.toLowerCase();
  const { orgId, key } = await prisma.$transaction(async (tx) => {
    const org = oldest ?? (await tx.organization.create({ data: { id: newId('organization'), name: 'Default organization', plan: config.defaultPlan } }));
    const user =
      (await tx.user.findUnique({ where: { email } })) ??
      (await tx.user.create({ data: { id: newId('user'), email, name: 'Administrator', passwordHash: '' } }));
    await tx.membership.upsert({
      where: { orgId_userId: { orgId: org.id, userId: user.id } },
      create: { orgId: org.id, userId: user.id, role: 'owner' },
      update: {},
    });
    const created = await createApiKey({ prisma: tx }, {
      orgId: org.id,
      createdById: user.id,
      name: 'Bootstrap admin key',
      permissions: ['admin'],
      mode: config.adminKey ? describeKey(config.adminKey).mode : 'live',
      ...(config.adminKey ? { key: config.adminKey } : {}),
    });
    return { orgId: org.id, key: created.key };
  });
  if (config.adminKey) return { created: true, orgId, adminKey: key, keyFile: null, fromEnv: true };
  const keyFile = dataPaths(config.dataDir).adminKey;
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  fs.chmodSync(keyFile, 0o600);
  return { created: true, orgId, adminKey: key, keyFile, fromEnv: false };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What the first-start bootstrap did on this start (for the startup banner and tests). */
    bootstrap: BootstrapResult;
  }
}
