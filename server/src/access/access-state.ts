/**
 * What access control keeps per app: the compiled policies of projects, the buffered denial log and
 * the compiled trusted proxies. It lives on the app context (`ctx.access`, made by
 * `createAppContext`) and is closed with the app (routes/v1/access/index.ts registers the hook;
 * child-plugin close hooks run before the app's own, so the buffered denials are written before the
 * database closes).
 */
import type { AppContext } from '../context';
import { CidrSet } from './cidr';
import { DenialLog } from './denial-log';
import { AccessPolicyCache } from './policy-cache';

/** Access control's in-memory state of one app. */
export class AccessState {
  readonly policies: AccessPolicyCache;
  readonly denials: DenialLog;
  /** `QUIRE_TRUSTED_PROXIES`, compiled */
  readonly trustedProxies: CidrSet;

  constructor(ctx: Pick<AppContext, 'db' | 'events' | 'log' | 'config'>) {
    this.policies = new AccessPolicyCache(ctx);
    this.denials = new DenialLog(ctx);
    this.trustedProxies = new CidrSet(ctx.config.trustedProxies);
  }

  /** Writes the buffered denials; later ones are dropped. */
  async close(): Promise<void> {
    await this.denials.close();
  }
}

/** The app's {@link AccessState} (`ctx.access`, made by `createAppContext`). */
export function accessState(ctx: AppContext): AccessState {
  return ctx.access;
}
