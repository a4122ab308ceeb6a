/**
 * Identifier prefixes and generators (interface-spec.md "Conventions": prj_, bld_, key_, aud_,
 * dom_, idx_, log_, usr_). Ids are `<prefix>_<20 base62 chars>` (about 119 bits of randomness),
 * from the Web Crypto API so this runs in Node, the desktop renderer and the browser alike.
 */
export const ID_PREFIX = {
  organization: 'org',
  user: 'usr',
  session: 'ses',
  project: 'prj',
  build: 'bld',
  deployment: 'dep',
  apiKey: 'key',
  audience: 'aud',
  domain: 'dom',
  reindexJob: 'idx',
  auditEntry: 'log',
  webhook: 'whk',
  idempotency: 'idm',
  styleRule: 'sty',
  glossaryTerm: 'gls',
  review: 'rev',
  reviewComment: 'cmt',
  approvalGate: 'gat',
  approval: 'apv',
  schedule: 'sch',
  ownershipRule: 'own',
  gitDelivery: 'ghd',
  webhookMessage: 'msg',
  webhookAttempt: 'att',
  accessRule: 'acr',
  ipAllowlist: 'ipl',
  accessLog: 'alg',
  previewLink: 'pvl',
  contentGap: 'gap',
  pageFeedback: 'fbk',
  sectionFeedback: 'sfb',
  agentRun: 'run',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` random base62 characters (unbiased: bytes >= 248 are redrawn). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const b of bytes) {
      if (b < 248 && out.length < length) out += ALPHABET[b % 62];
    }
  }
  return out;
}

/** A new id of the given kind, e.g. `newId('project')` → `prj_4fT0...` (24 chars). */
export function newId(kind: IdKind): string {
  return `${ID_PREFIX[kind]}_${randomBase62(20)}`;
}

/** The pattern of each kind's ids, compiled once ({@link isId} runs on every API request naming a resource). */
const ID_PATTERNS = Object.fromEntries(
  Object.entries(ID_PREFIX).map(([kind, prefix]) => [kind, new RegExp(`^${prefix}_[0-9A-Za-z]{8,64}$`)]),
) as Record<IdKind, RegExp>;

/** True when `value` looks like an id of `kind` (prefix and base62 body). */
export function isId(kind: IdKind, value: string): boolean {
  return ID_PATTERNS[kind].test(value);
}
