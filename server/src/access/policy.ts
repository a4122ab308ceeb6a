/**
 * Access rules and IP allowlists on the serving path (decisions.md section 9: "Access rules and IP
 * allowlists restrict who may read which paths of a site"), the denial log, the visitor's address
 * behind proxies, and preview links as the site sees them. The site gate (server/src/sites/) calls
 * these on every surface; services/access-rules.ts manages the rules.
 *
 * How a request is judged ({@link evaluatePolicy}): every enabled IP allowlist guarding the page
 * path (all of the site when it names no globs) refuses an address outside its ranges; then every
 * enabled access rule whose glob matches the path refuses a visitor who has neither a token opening
 * one of its audiences nor an address in one of its ranges. Each applies on its own, so none
 * widens what another restricts; the first refusing one (allowlists, then rules, oldest first) is
 * the one reported.
 */
import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../context';
import { accessState } from './access-state';
import { resolveClientIp } from './client-ip';
import type { Denial } from './denial-log';
import type { CompiledPolicy } from './policy-cache';

export { findPreviewLink, checkPreviewLinkPassword } from './preview-links';

/** A site request as the access decision sees it. */
export interface AccessRequest {
  projectId: string;
  /** page path without leading slash, e.g. `guides/setup` (`index` for home) */
  path: string;
  /** client IP (already resolved through trusted proxies; canonical, {@link clientIp}) */
  ip: string;
  /** tags the visitor's valid token opens ([] without one) */
  tags: string[];
}

/** What the rules and allowlists say about a request. */
export interface AccessVerdict {
  allowed: boolean;
  /** 'ip_allowlist' | 'access_rule' when denied */
  reason?: 'ip_allowlist' | 'access_rule';
  /**
   * The rule or allowlist that decided: the one refusing; when allowed, the last one the visitor
   * passed (an access rule before an allowlist: the narrowest check); absent when none applies, or
   * when the policy could not be read (then the request is refused).
   */
  ruleId?: string;
  ruleName?: string;
  ruleType?: 'ip_allowlist' | 'access_rule';
}

const ALLOWED: AccessVerdict = { allowed: true };
/** The verdict while a project's rules cannot be read: refused (restricted pages must not open on a database error). */
const UNREADABLE: AccessVerdict = { allowed: false, reason: 'access_rule' };

/**
 * Judges a request against a compiled policy (pure; see the module comment for the rules).
 * @param policy the project's enabled rules and allowlists, oldest first.
 */
export function evaluatePolicy(policy: CompiledPolicy, request: Pick<AccessRequest, 'path' | 'ip' | 'tags'>): AccessVerdict {
  if (policy.allowlists.length === 0 && policy.rules.length === 0) return ALLOWED;
  const { path, ip, tags } = request;
  let passed: { id: string; name: string; type: 'ip_allowlist' | 'access_rule' } | undefined;
  for (const list of policy.allowlists) {
    if (!list.guards(path)) continue;
    if (!list.cidrs.has(ip)) return { allowed: false, reason: 'ip_allowlist', ruleId: list.id, ruleName: list.name, ruleType: 'ip_allowlist' };
    passed = { id: list.id, name: list.name, type: 'ip_allowlist' };
  }
  for (const rule of policy.rules) {
    if (!rule.matches(path)) continue;
    if (!rule.cidrs.has(ip) && !tags.some((tag) => rule.audiences.has(tag))) {
      return { allowed: false, reason: 'access_rule', ruleId: rule.id, ruleName: rule.name, ruleType: 'access_rule' };
    }
    passed = { id: rule.id, name: rule.name, type: 'access_rule' };
  }
  return passed ? { allowed: true, ruleId: passed.id, ruleName: passed.name, ruleType: passed.type } : ALLOWED;
}

/**
 * Evaluates the project's enabled access rules and IP allowlists for a request (cached per project
 * on the context, refreshed on change, also across processes: access/policy-cache.ts). An
 * allowlist guarding the path denies an IP outside its ranges; a rule matching the path allows
 * only visitors with one of its audiences or an IP in its ranges. Never throws; synchronous when
 * the project's policy is cached (the common case), else after one database read. When the rules
 * cannot be read, the request is refused (`access_rule` without a rule) and the error logged.
 */
export function evaluateAccessPolicy(ctx: AppContext, request: AccessRequest): AccessVerdict | Promise<AccessVerdict> {
  let policy: CompiledPolicy | Promise<CompiledPolicy>;
  try {
    policy = accessState(ctx).policies.get(request.projectId);
  } catch (err) {
    ctx.log.error({ err, projectId: request.projectId }, 'access rules cannot be read; the request is refused');
    return UNREADABLE;
  }
  if (!(policy instanceof Promise)) return evaluatePolicy(policy, request);
  return policy.then(
    (p) => evaluatePolicy(p, request),
    (err: unknown) => {
      ctx.log.error({ err, projectId: request.projectId }, 'access rules cannot be read; the request is refused');
      return UNREADABLE;
    },
  );
}

/**
 * Records a denied site request for /access-logs (buffered; never slows or fails serving:
 * access/denial-log.ts). Host and path are cut to 255 and 2000 characters.
 */
export function recordDenial(ctx: AppContext, denial: Denial): void {
  try {
    accessState(ctx).denials.record(denial);
  } catch (err) {
    ctx.log.warn({ err }, 'a denied request could not be recorded');
  }
}

/**
 * The client IP of a raw request: the socket address, or X-Forwarded-For's right-most untrusted
 * entry when the socket address is a trusted proxy (`QUIRE_TRUSTED_PROXIES`, CIDRs, default none;
 * access/client-ip.ts). Canonical form (`canonicalIp`: IPv4-mapped IPv6 as IPv4); "" when the
 * socket address is unknown.
 */
export function clientIp(ctx: AppContext, req: IncomingMessage): string {
  return resolveClientIp(accessState(ctx).trustedProxies, req);
}
