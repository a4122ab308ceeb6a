/**
 * Parses a Content-Security-Policy header value (CSP3 section 2.2.1, "parse a serialized
 * policy"): directives split on `;`, names lower-cased, the first of a repeated directive wins.
 * @returns directive name → its source expressions (`[]` for a directive without value, such as `sandbox`)
 */
export function parseCsp(header: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of header.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/).filter(Boolean);
    if (name && !out.has(name.toLowerCase())) out.set(name.toLowerCase(), values);
  }
  return out;
}
