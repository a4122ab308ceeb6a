/**
 * Errors of outbound connections (decisions.md section 10). Both messages are safe to show to the
 * user who configured the destination: they name the host, the address and the reason, never a
 * credential.
 */

/** The address policy refused the destination ("example.com resolves to 10.0.0.5, a private address"). */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
}

/** No exchange took place: the name did not resolve, the connection failed or timed out, TLS failed, ... */
export class OutboundNetworkError extends Error {
  override name = 'OutboundNetworkError';
}
