/**
 * Ids of what the desktop app's outbox creates (decisions.md section 9: sync mutations are applied
 * exactly once). A `review.create` or `review.comment` names its object with the client's own id
 * (`localId`, a UUID); the server's id is derived from (clientId, localId), so applying the same
 * mutation again (after a crash between applying and recording it) finds the row it made, and later
 * mutations may name the review by its localId.
 */
import { createHash } from 'node:crypto';
import { ID_PREFIX } from '@quire/shared/ids';

/**
 * The one form of a sync client id (a UUID) the server keys everything by: its `SyncClient` row and
 * owner, its recorded answers, and the ids it derives ({@link syncDerivedId}). Lower case: UUIDs are
 * case-insensitive on input (RFC 9562 section 4), so `ABC…` and `abc…` are one client, owned by
 * whoever claimed it first.
 */
export function syncClientKey(clientId: string): string {
  return clientId.toLowerCase();
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The server id of the object `localId` of client `clientId` creates: `<prefix>_<22 base62 chars>`
 * (the 128 leading bits of SHA-256 over the kind, the client id as {@link syncClientKey} gives it and
 * the local id lower-cased: UUIDs are read case-insensitively).
 */
export function syncDerivedId(kind: 'review' | 'reviewComment', clientId: string, localId: string): string {
  const digest = createHash('sha256').update(`quire-sync\0${kind}\0${syncClientKey(clientId)}\0${localId.toLowerCase()}`).digest();
  let n = digest.readBigUInt64BE(0) * 2n ** 64n + digest.readBigUInt64BE(8);
  let body = '';
  for (let i = 0; i < 22; i++) {
    body = ALPHABET[Number(n % 62n)] + body;
    n /= 62n;
  }
  return `${ID_PREFIX[kind]}_${body}`;
}

/**
 * The server id a mutation's reference names: a localId (a UUID) of this client is resolved by {@link syncDerivedId}; any other
 * value is a server id already.
 */
export function resolveSyncRef(kind: 'review' | 'reviewComment', clientId: string, ref: string): string {
  return UUID.test(ref) ? syncDerivedId(kind, clientId, ref) : ref;
}
