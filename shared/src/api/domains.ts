/**
 * REST shapes of a project's custom domains (interface-spec.md "Domains"; decisions.md section 4):
 * `POST /v1/projects/{projectId}/domains {domain}` adds one (201, `pending`), `GET .../domains`
 * lists them (`{data: [domain]}`, not paginated), `GET .../domains/{domainId}` shows one,
 * `POST .../domains/{domainId}/verify` runs the HTTP check that makes it `active`, and
 * `DELETE .../domains/{domainId}` removes it (204). `GET /v1/tls/ask?domain=` answers a TLS
 * terminating proxy (Caddy's `on_demand_tls ask`) whether a certificate may be issued for a name.
 */
import { z } from 'zod';
import { checkHostName } from '../repo/host-name';
import { TimestampSchema } from './common';

/** Where a domain stands: `pending` until the HTTP check succeeds, then `active` (served). Removed domains are never listed. */
export const DOMAIN_STATUSES = ['pending', 'active'] as const;
export const DomainStatusSchema = z.enum(DOMAIN_STATUSES);
export type DomainStatus = z.infer<typeof DomainStatusSchema>;

/** Domains one project may have at once (pending and active). */
export const MAX_DOMAINS_PER_PROJECT = 10;

/** The path a pending domain answers its verification token at (over plain HTTP, port 80). */
export const DOMAIN_VERIFICATION_PATH = '/.well-known/quire-domain-verification';

/**
 * A custom domain as given by a user: the host name rule of `@quire/shared/repo/host-name`
 * (lower-cased, no port, no trailing dot, letters/digits/hyphens, two labels or more, at most 253
 * characters, not an IP address), normalized. The server adds the rules that need its
 * configuration (not the sites domain or a name under it, not the API's host).
 */
export const DomainNameSchema = z
  .string()
  .max(2_000)
  .transform((value, ctx) => {
    const check = checkHostName(value);
    if (check.ok) return check.name;
    ctx.addIssue({ code: 'custom', message: check.issue });
    return z.NEVER;
  })
  .describe('Host name, e.g. docs.example.com (no scheme, port or path; Unicode names are stored in their xn-- form)');

/** Body of `POST /v1/projects/{projectId}/domains`. */
export const CreateDomainBodySchema = z.strictObject({ domain: DomainNameSchema });
export type CreateDomainBody = z.infer<typeof CreateDomainBodySchema>;

/** How to prove the domain reaches this server. */
export const DomainVerificationSchema = z.object({
  method: z.literal('http').describe('An HTTP request to the domain must reach this server'),
  url: z.string().describe(`What Quire fetches: http://<domain>${DOMAIN_VERIFICATION_PATH}`),
  body: z.string().describe('What that URL must answer (Quire answers it itself once the domain points here; nothing to upload)'),
  instructions: z.string().describe('The DNS record to create and the next step, in words'),
});
export type DomainVerification = z.infer<typeof DomainVerificationSchema>;

/** A custom domain. */
export const DomainSchema = z.object({
  id: z.string().describe('dom_<id>'),
  projectId: z.string(),
  domain: z.string().describe('Host name, lower case, e.g. docs.example.com'),
  status: DomainStatusSchema.describe('pending: added, not verified yet (only the verification path is answered); active: verified, serves the production site'),
  verification: DomainVerificationSchema,
  createdAt: TimestampSchema,
  verifiedAt: TimestampSchema.nullable().describe('When the check first succeeded'),
  lastCheckAt: TimestampSchema.nullable().describe('When the last check ran'),
  lastCheckError: z.string().nullable().describe('Why the last check failed (null after a success or before any check)'),
});
export type Domain = z.infer<typeof DomainSchema>;

/** Path parameters of one domain. */
export const DomainParamsSchema = z.object({ projectId: z.string().min(1).max(64), domainId: z.string().min(1).max(100).describe('dom_<id>') });

/** Query of `GET /v1/tls/ask`. */
export const TlsAskQuerySchema = z.object({ domain: z.string().min(1).max(2_000).describe('The host name a certificate is asked for') });
