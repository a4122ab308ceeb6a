/**
 * Each project's enabled access rules and IP allowlists, compiled for the serving path (globs to
 * matchers, ranges to {@link CidrSet}s) and kept in memory, so a site request is decided without a
 * database round trip. An entry is dropped on `access.changed` (services/access-rules.ts, from any
 * process through the event transport) and on `project.changed` for a deleted project; everything
 * on `reconnected` (events may have been missed). Entries also expire after {@link POLICY_TTL_MS}
 * as a fallback for an event that never arrived.
 */
import { LRUCache } from 'lru-cache';
import { compilePathGlobs } from '@quire/shared/collab/path-glob';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { EventBus } from '../events';
import { parseStringList } from '../db/json-columns';
import { CidrSet } from './cidr';

/** How long a compiled policy is trusted without an event, in ms. */
export const POLICY_TTL_MS = 60_000;
/** Projects whose policies are kept at most (least recently used dropped first). */
const MAX_PROJECTS = 10_000;

/** An enabled IP allowlist, compiled. */
export interface CompiledAllowlist {
  id: string;
  name: string;
  /** whether the allowlist guards a page path (always true when it names no globs) */
  guards: (path: string) => boolean;
  cidrs: CidrSet;
}

/** An enabled access rule, compiled. */
export interface CompiledRule {
  id: string;
  name: string;
  matches: (path: string) => boolean;
  audiences: ReadonlySet<string>;
  cidrs: CidrSet;
}

/** A project's compiled policy; both lists oldest first. */
export interface CompiledPolicy {
  allowlists: CompiledAllowlist[];
  rules: CompiledRule[];
}

/** The policy of a project without rules or allowlists (nothing restricted). */
export const OPEN_POLICY: CompiledPolicy = { allowlists: [], rules: [] };

const everything = () => true;
const nothing = () => false;

/** Compiles globs; a stored glob that no longer compiles (a bug) matches every path, so it restricts rather than opens. */
function globMatcher(globs: string[], log: FastifyBaseLogger, owner: string): (path: string) => boolean {
  try {
    return compilePathGlobs(globs);
  } catch (err) {
    log.error({ err, owner }, 'a stored access glob does not compile; it is applied to every path');
    return everything;
  }
}

/** Loads and compiles a project's enabled rules and allowlists (oldest first). */
async function loadPolicy(db: Db, log: FastifyBaseLogger, projectId: string): Promise<CompiledPolicy> {
  const order = [{ createdAt: 'asc' as const }, { id: 'asc' as const }];
  const [allowlists, rules] = await Promise.all([
    db.prisma.ipAllowlist.findMany({ where: { projectId, enabled: true }, orderBy: order }),
    db.prisma.accessRule.findMany({ where: { projectId, enabled: true }, orderBy: order }),
  ]);
  if (allowlists.length === 0 && rules.length === 0) return OPEN_POLICY;
  return {
    allowlists: allowlists.map((row) => {
      const paths = parseStringList(row.paths) ?? [];
      return {
        id: row.id,
        name: row.name,
        guards: paths.length === 0 ? everything : globMatcher(paths, log, row.id),
        cidrs: new CidrSet(parseStringList(row.cidrs) ?? []),
      };
    }),
    rules: rules.map((row) => ({
      id: row.id,
      name: row.name,
      matches: row.pathPattern ? globMatcher([row.pathPattern], log, row.id) : nothing,
      audiences: new Set(parseStringList(row.audiences) ?? []),
      cidrs: new CidrSet(parseStringList(row.cidrs) ?? []),
    })),
  };
}

/** Compiled access policies by project id; one per app (`ctx` through access/access-state.ts). */
export class AccessPolicyCache {
  private readonly byProject = new LRUCache<string, CompiledPolicy | Promise<CompiledPolicy>>({ max: MAX_PROJECTS, ttl: POLICY_TTL_MS });

  constructor(private readonly deps: { db: Db; events: EventBus; log: FastifyBaseLogger }) {
    deps.events.on('access.changed', ({ projectId }) => this.byProject.delete(projectId));
    deps.events.on('project.changed', ({ projectId, deleted }) => {
      if (deleted) this.byProject.delete(projectId);
    });
    deps.events.on('reconnected', () => this.byProject.clear());
  }

  /**
   * The compiled policy of `projectId`: at once when cached, else after one read (concurrent first
   * requests share it). A read started before an invalidation is not kept after it.
   * @throws (through the promise) the database error of a failed read; nothing is cached then.
   */
  get(projectId: string): CompiledPolicy | Promise<CompiledPolicy> {
    const hit = this.byProject.get(projectId);
    if (hit) return hit;
    const loading: Promise<CompiledPolicy> = loadPolicy(this.deps.db, this.deps.log, projectId).then(
      (policy) => {
        if (this.byProject.get(projectId) === loading) this.byProject.set(projectId, policy);
        return policy;
      },
      (err: unknown) => {
        if (this.byProject.get(projectId) === loading) this.byProject.delete(projectId);
        throw err;
      },
    );
    this.byProject.set(projectId, loading);
    return loading;
  }
}
