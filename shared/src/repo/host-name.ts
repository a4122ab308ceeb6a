/**
 * The one rule for DNS host names a user gives Quire (custom domains of sites; decisions.md
 * section 4). Syntax only, without the network: what a name must look like to be looked up in DNS
 * and to be sent as an HTTP `Host`.
 *
 * - surrounding whitespace is ignored and letters are lower-cased (DNS is case-insensitive,
 *   RFC 4343); one trailing dot (the fully qualified form, `docs.example.com.`) is dropped;
 * - a name with non-ASCII letters is converted to its ASCII form (IDNA, `bücher.example` →
 *   `xn--bcher-kva.example`) by the WHATWG URL parser, and `xn--` labels must be valid punycode;
 * - labels hold letters, digits and hyphens only, never start or end with a hyphen, and have 1 to
 *   63 characters; the whole name has at most 253 characters (the "LDH" rule, RFC 1035 section
 *   2.3.1 and 2.3.4, RFC 1123 section 2.1); underscores are refused (they are not valid in host
 *   names, and certificate authorities refuse them);
 * - at least two labels (a single label such as `intranet` cannot be reached from the Internet),
 *   and the last label is not all digits (RFC 3696 section 2), so no IPv4 form passes;
 * - IP addresses in every literal form (`@quire/shared/repo/host-address` `isIpLiteral`), ports,
 *   schemes, paths and user names are refused with their own messages.
 */
import { isIpLiteral } from './host-address';

/** Longest host name, in characters (RFC 1035 section 2.3.4, without the trailing dot). */
export const HOST_NAME_MAX_LENGTH = 253;

/** Longest label, in characters (RFC 1035 section 2.3.4). */
export const HOST_LABEL_MAX_LENGTH = 63;

/** An accepted host name in its stored form. */
export interface HostNameAccepted {
  ok: true;
  /** lower-case ASCII (IDNs as `xn--` labels), no trailing dot, e.g. `docs.example.com` */
  name: string;
}

/** A refused host name. */
export interface HostNameRefused {
  ok: false;
  /** user-facing, completes "domain: ...", e.g. `must not include a port; give the host name only (docs.example.com)` */
  issue: string;
}

/** The outcome of {@link checkHostName}. */
export type HostNameCheck = HostNameAccepted | HostNameRefused;

const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const EXAMPLE = 'docs.example.com';

/**
 * Checks and normalizes a host name (see the module comment for the rule). Never throws.
 * @example checkHostName(' Docs.Example.COM. ') // { ok: true, name: 'docs.example.com' }
 * @example checkHostName('docs.example.com:8080') // { ok: false, issue: 'must not include a port; ...' }
 * @example checkHostName('127.0.0.1') // { ok: false, issue: 'must be a host name, not an IP address' }
 */
export function checkHostName(value: string): HostNameCheck {
  const refuse = (issue: string): HostNameRefused => ({ ok: false, issue });
  let name = value.trim().toLowerCase();
  if (name.length === 0) return refuse('must not be empty');
  if (name.length > HOST_NAME_MAX_LENGTH * 4) return refuse(`must be at most ${HOST_NAME_MAX_LENGTH} characters`);
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(name) || /[/?#@\\]/.test(name)) {
    return refuse(`must be a host name only, without scheme, path or user name (e.g. ${EXAMPLE})`);
  }
  if (isIpLiteral(name) || name.startsWith('[')) return refuse('must be a host name, not an IP address');
  if (/^[^:]+:\d*$/.test(name)) return refuse(`must not include a port; give the host name only (e.g. ${EXAMPLE})`);
  if (name.endsWith('.')) name = name.slice(0, -1);
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(name)) {
    const ascii = toAscii(name);
    if (ascii === null) return refuse('is not a valid internationalized domain name');
    name = ascii;
  }
  if (name.length > HOST_NAME_MAX_LENGTH) return refuse(`must be at most ${HOST_NAME_MAX_LENGTH} characters`);
  const labels = name.split('.');
  if (labels.some((l) => l.length === 0)) return refuse('must not have empty labels (two dots in a row, or a leading dot)');
  if (labels.some((l) => l.includes('_'))) return refuse('must not contain underscores; labels hold letters, digits and hyphens only');
  if (labels.some((l) => !/^[a-z0-9-]+$/.test(l))) return refuse('may hold only letters, digits, hyphens and dots');
  if (labels.some((l) => l.length > HOST_LABEL_MAX_LENGTH)) return refuse(`must not have labels longer than ${HOST_LABEL_MAX_LENGTH} characters`);
  if (labels.some((l) => !LABEL.test(l))) return refuse('must not have labels that start or end with a hyphen');
  if (labels.some((l) => l.startsWith('xn--')) && toAscii(name) !== name) return refuse('has an xn-- label that is not valid punycode');
  if (labels.length < 2) return refuse(`must have at least two labels (e.g. ${EXAMPLE})`);
  if (/^\d+$/.test(labels[labels.length - 1]!)) return refuse('must not end in an all-digit label');
  return { ok: true, name };
}

/** The ASCII (punycode) form of an internationalized name, or null when IDNA refuses it. */
function toAscii(name: string): string | null {
  try {
    const { hostname } = new URL(`http://${name}/`);
    return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  } catch {
    return null;
  }
}
