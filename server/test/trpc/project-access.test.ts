/**
 * tRPC procedures check the project their input names before parsing the input (trpc/trpc.ts
 * `permittedProcedure`; decisions.md section 10): another organization's project answers NOT_FOUND
 * whatever the rest of the input, never BAD_REQUEST with the input's rules. The procedures come
 * from the app's router, so a procedure added later is covered as soon as it is mounted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRPCError } from '@trpc/server';
import { bearer, createTestApp, type TestApp } from '../helpers/app';
import { createOrganization } from '../../src/services/organizations';
import { appRouter } from '../../src/trpc/routers/_app';
import { seedMember, TEST_PASSWORD } from '../services/identity-fixtures';
import { callerFor, trpcErrorOf } from './trpc-fixtures';

type ZodNode = { _zod?: { def: { type: string; shape?: Record<string, unknown>; left?: ZodNode; right?: ZodNode; innerType?: ZodNode } } };
type Procedure = { _def: { type: string; inputs: ZodNode[] } };

let t: TestApp;
let projectId: string;
const tokens = { own: '', foreign: '' };

beforeAll(async () => {
  t = await createTestApp();
  projectId = (await t.app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(t.adminKey), payload: { name: 'Desktop' } })).json().data.id;
  const other = await createOrganization(t.ctx.db, { name: 'Other', plan: 'pro' });
  await seedMember(t.ctx.db, t.app.bootstrap.orgId!, 'owner@own.test', 'owner');
  await seedMember(t.ctx.db, other.id, 'owner@other.test', 'owner');
  const signIn = async (email: string) => (await (await callerFor(t.ctx)).auth.signIn({ email, password: TEST_PASSWORD })).token;
  tokens.own = await signIn('owner@own.test');
  tokens.foreign = await signIn('owner@other.test');
});
afterAll(async () => t?.close());

/** The member names of an input schema (objects, intersections of them, and wrappers such as `.default()`). */
function inputKeys(node: ZodNode | undefined): string[] {
  const def = node?._zod?.def;
  if (!def) return [];
  if (def.type === 'object') return Object.keys(def.shape ?? {});
  if (def.type === 'intersection') return [...inputKeys(def.left), ...inputKeys(def.right)];
  return inputKeys(def.innerType);
}

/** Every procedure whose input names a project (`projectId`), with the other members of its input. */
function projectProcedures(): { path: string; others: string[] }[] {
  const procedures = (appRouter as unknown as { _def: { procedures: Record<string, Procedure> } })._def.procedures;
  return Object.entries(procedures).flatMap(([path, p]) => {
    const keys = inputKeys(p._def.inputs[0]);
    return keys.includes('projectId') ? [{ path, others: keys.filter((k) => k !== 'projectId') }] : [];
  });
}

/** Calls the procedure at `path` (`builds.trigger`) as the holder of `token`. */
async function call(path: string, token: string, input: unknown): Promise<unknown> {
  const caller = (await callerFor(t.ctx, token)) as unknown as Record<string, unknown>;
  const fn = path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (input: unknown) => Promise<unknown>;
  return fn(input);
}

/** The input with every member but `projectId` set to a value no member's schema accepts. */
const badInput = (others: string[]) => ({ projectId, ...Object.fromEntries(others.map((k) => [k, -1.5])) });

describe('project access before input over tRPC', () => {
  it('finds the procedures naming a project (the router lists them)', () => {
    const paths = projectProcedures().map((p) => p.path);
    for (const p of ['projects.get', 'builds.trigger', 'reviews.update', 'schedules.create', 'lint.rules.update']) expect(paths).toContain(p);
  });

  it('answers NOT_FOUND for another organization\'s project, with bad input too, never BAD_REQUEST', async () => {
    for (const { path, others } of projectProcedures()) {
      for (const input of [{ projectId }, badInput(others)]) {
        const err: TRPCError = await trpcErrorOf(call(path, tokens.foreign, input));
        expect(err.code, `${path} ${JSON.stringify(input)}`).toBe('NOT_FOUND');
      }
    }
  });

  it('refuses that bad input from the project\'s own organization with BAD_REQUEST (so it is really bad)', async () => {
    const withOthers = projectProcedures().filter((p) => p.others.length > 0);
    expect(withOthers.length).toBeGreaterThan(20);
    for (const { path, others } of withOthers) {
      const err = await trpcErrorOf(call(path, tokens.own, badInput(others)));
      expect(err.code, path).toBe('BAD_REQUEST');
    }
  });
});
