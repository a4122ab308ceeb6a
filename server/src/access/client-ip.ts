/**
 * The visitor's address behind reverse proxies (`QUIRE_TRUSTED_PROXIES`, env.ts `trustedProxies`).
 *
 * `X-Forwarded-For` is honoured only when the socket address is a trusted proxy; anyone else could
 * write any address into it. Each proxy appends the address it received the request from, so the
 * list is read from the right, skipping trusted proxies: the first address that is not one is the
 * visitor (the left part of the list is whatever the client sent, never believed). When every
 * listed address is trusted, the left-most is the visitor. An entry that is not an address (garbage,
 * `unknown`) ends the walk: the last trusted hop before it is taken, since nothing beyond it can be
 * believed. Entries with a port (`203.0.113.7:4711`, `[2001:db8::1]:443`) are read without it.
 */
import type { IncomingMessage } from 'node:http';
import { canonicalIp } from '@quire/shared/api/access';
import type { CidrSet } from './cidr';
import { visitorAddress } from './cidr';

/** One `X-Forwarded-For` entry as an address: brackets and a port stripped; null when it is not one. */
function forwardedEntry(entry: string): string | null {
  let text = entry.trim();
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end === -1) return null;
    text = text.slice(1, end);
  } else if (text.indexOf(':') !== -1 && text.indexOf(':') === text.lastIndexOf(':')) {
    text = text.slice(0, text.indexOf(':')); // IPv4 with a port
  }
  return canonicalIp(text);
}

/**
 * The visitor's canonical address (`canonicalIp` form) for a raw request.
 * @param trusted the trusted proxies (`ctx` keeps them compiled: access/access-state.ts).
 * @param req the raw request: its socket address and `X-Forwarded-For` header(s).
 * @returns "" only when the socket address is unknown (a destroyed socket).
 */
export function resolveClientIp(trusted: CidrSet, req: Pick<IncomingMessage, 'socket' | 'headers'>): string {
  let client = visitorAddress(req.socket?.remoteAddress);
  if (trusted.size === 0 || !trusted.has(client)) return client;
  const header = req.headers['x-forwarded-for'];
  if (!header) return client;
  const entries = (Array.isArray(header) ? header.join(',') : header).split(',');
  for (let i = entries.length - 1; i >= 0; i--) {
    const address = forwardedEntry(entries[i]!);
    if (address === null) return client;
    client = address;
    if (!trusted.has(address)) return address;
  }
  return client;
}
