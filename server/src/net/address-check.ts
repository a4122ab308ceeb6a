/**
 * Resolving a host once and checking every address it resolves to under the address policy
 * (decisions.md section 10: "names are resolved and the resolved address is the one connected
 * to"). Callers connect to the addresses returned here and to nothing else: webhook deliveries pin
 * them through the socket's `lookup` (./outbound.ts), git through `http.curloptResolve` or ssh's
 * `HostName` (./git-remote.ts), so a second answer of the DNS (rebinding) is never used.
 */
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import { nonPublicAddressRefusal, nonPublicHostRefusal } from '@quire/shared/repo/host-address';
import type { OutboundPolicy } from '@quire/shared/net/outbound-url';
import { OutboundNetworkError, OutboundRefusedError } from './errors';

/** One address a name resolves to. */
export interface ResolvedAddress {
  /** IPv4 dotted quad or IPv6 text without brackets */
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a host name to all its addresses. Rejections carry a `code` such as `ENOTFOUND`.
 * The default, {@link systemResolver}, is getaddrinfo (what git's curl and ssh use too); tests
 * pass their own.
 */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

/** getaddrinfo through `dns.lookup` (`/etc/hosts`, then DNS), every address in the system's order. */
export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** How {@link resolveAllowed} resolves. */
export interface ResolveOptions {
  /** default {@link systemResolver} */
  resolve?: Resolver;
  /** give up after this many milliseconds (default {@link RESOLVE_TIMEOUT_MS}) */
  timeoutMs?: number;
  /** stop waiting when it fires (the signal's reason is thrown) */
  signal?: AbortSignal;
}

/** Default time limit of one resolution, in milliseconds. */
export const RESOLVE_TIMEOUT_MS = 15_000;

/**
 * Resolves `host` once and checks each address with the shared classifier
 * (`@quire/shared/repo/host-address`) unless `policy.allowPrivateNetwork`. An IP address is
 * checked as it is, without resolving.
 * @param host a URL's host name or IP address (IPv6 with or without brackets)
 * @returns every address (at least one), all allowed; connect only to these
 * @throws OutboundRefusedError when one address is not public ("example.com resolves to 10.0.0.5,
 *   a private address; ...") or the IP address itself is not
 * @throws OutboundNetworkError when the name does not resolve or the time limit passes
 */
export async function resolveAllowed(host: string, policy: OutboundPolicy, options: ResolveOptions = {}): Promise<ResolvedAddress[]> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const family = net.isIP(bare);
  if (family !== 0) {
    const refusal = policy.allowPrivateNetwork ? null : nonPublicHostRefusal(bare);
    if (refusal) throw new OutboundRefusedError(refusal);
    return [{ address: bare, family: family === 6 ? 6 : 4 }];
  }
  const addresses = await resolveOnce(bare, options);
  if (!policy.allowPrivateNetwork) {
    for (const { address } of addresses) {
      const refusal = nonPublicAddressRefusal(bare, address);
      if (refusal) throw new OutboundRefusedError(refusal);
    }
  }
  return addresses;
}

async function resolveOnce(host: string, options: ResolveOptions): Promise<ResolvedAddress[]> {
  const timeoutMs = options.timeoutMs ?? RESOLVE_TIMEOUT_MS;
  const { signal } = options;
  if (signal?.aborted) throw signal.reason;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const addresses = await Promise.race([
      (options.resolve ?? systemResolver)(host),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new OutboundNetworkError(`${host} did not resolve within ${timeoutMs} ms`)), timeoutMs);
        onAbort = () => reject(signal!.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    if (addresses.length === 0) throw new OutboundNetworkError(`${host} resolves to no address`);
    return addresses;
  } catch (err) {
    if (err instanceof OutboundNetworkError || (signal?.aborted && err === signal.reason)) throw err;
    const code = (err as { code?: string }).code;
    throw new OutboundNetworkError(`could not resolve ${host}${code ? ` (${code})` : ''}`);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
