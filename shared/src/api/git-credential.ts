/**
 * REST shapes of a project's git credential (decisions.md section 9: the write-only per-project
 * credential merges push with, an HTTPS token or an SSH deploy key, stored encrypted and never
 * returned). `PUT /projects/{projectId}/git-credential` sets it, `GET` tells whether one is set and
 * of which kind, `DELETE` removes it. No response ever carries the token or the key.
 */
import { z } from 'zod';
import { TimestampSchema } from './common';

/** Kinds of credential. */
export const GitCredentialKindSchema = z.enum(['https_token', 'ssh_key']).describe('https_token: token sent as HTTP Basic password; ssh_key: a deploy key');
export type GitCredentialKind = z.infer<typeof GitCredentialKindSchema>;

/** Default HTTPS user name sent with a token (GitHub's convention; GitLab and Gitea accept any name with a token). */
export const DEFAULT_HTTPS_USERNAME = 'x-access-token';

/** Printable ASCII without spaces: what a token may hold. */
const TOKEN_RE = /^[\x21-\x7e]+$/;
/** Printable ASCII without spaces or `:` (the user name is joined to the token with a colon). */
const USERNAME_RE = /^[\x21-\x39\x3b-\x7e]+$/;

/** The armour of an unencrypted private key: OpenSSH, or PEM (PKCS#1 RSA, SEC1 EC, DSA, PKCS#8). */
const PRIVATE_KEY_RE = /^-----BEGIN (OPENSSH|RSA|EC|DSA)? ?PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+\n-----END \1? ?PRIVATE KEY-----\n?$/;

/**
 * Why `text` is not a usable SSH private key, or null. Accepted: an OpenSSH (`BEGIN OPENSSH PRIVATE
 * KEY`) or PEM (`BEGIN RSA|EC|DSA PRIVATE KEY`, `BEGIN PRIVATE KEY`) private key without a passphrase
 * (merges run unattended). Line endings are normalized by the schema first.
 */
export function sshPrivateKeyIssue(text: string): string | null {
  const match = PRIVATE_KEY_RE.exec(text);
  if (!match) {
    if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(text)) return 'is protected by a passphrase; give a key without one (a deploy key)';
    if (/^(ssh-|ecdsa-|sk-)/.test(text.trim())) return 'is a public key; give the private key';
    return 'must be an OpenSSH or PEM private key (-----BEGIN OPENSSH PRIVATE KEY----- ... -----END OPENSSH PRIVATE KEY-----)';
  }
  if (match[1] === 'OPENSSH') {
    // openssh-key-v1\0, then the cipher name as a length-prefixed string: "none" when not encrypted
    const body = text.split('\n').slice(1, -2).join('');
    let bytes: string;
    try {
      bytes = atob(body.slice(0, 64));
    } catch {
      return 'is not valid base64 inside its armour';
    }
    if (!bytes.startsWith('openssh-key-v1\0')) return 'is not an OpenSSH private key inside its armour';
    const cipherLength = (bytes.charCodeAt(15) << 24) | (bytes.charCodeAt(16) << 16) | (bytes.charCodeAt(17) << 8) | bytes.charCodeAt(18);
    if (bytes.slice(19, 19 + cipherLength) !== 'none') return 'is protected by a passphrase; give a key without one (a deploy key)';
  }
  return null;
}

/** `PUT /git-credential` with an HTTPS token. */
export const HttpsTokenCredentialSchema = z.strictObject({
  kind: z.literal('https_token'),
  token: z.string().min(1).max(4_096).regex(TOKEN_RE, 'must be printable ASCII without spaces').describe('Personal access token or app token with push access'),
  username: z
    .string()
    .min(1)
    .max(256)
    .regex(USERNAME_RE, 'must be printable ASCII without spaces or ":"')
    .optional()
    .describe(`HTTPS user name sent with the token (default ${DEFAULT_HTTPS_USERNAME})`),
});

/** `PUT /git-credential` with an SSH deploy key. */
export const SshKeyCredentialSchema = z.strictObject({
  kind: z.literal('ssh_key'),
  privateKey: z
    .string()
    .max(16_384)
    .transform((s) => `${s.replace(/\r\n?/g, '\n').trim()}\n`)
    .superRefine((s, ctx) => {
      const issue = sshPrivateKeyIssue(s);
      if (issue) ctx.addIssue({ code: 'custom', message: issue });
    })
    .describe('Unencrypted OpenSSH or PEM private key of a deploy key with write access'),
});

/** Body of `PUT /projects/{projectId}/git-credential`. */
export const GitCredentialBodySchema = z.discriminatedUnion('kind', [HttpsTokenCredentialSchema, SshKeyCredentialSchema]);
export type GitCredentialBody = z.infer<typeof GitCredentialBodySchema>;

/** What the API says of a project's credential: whether one is set, its kind and user name; never the secret. */
export const GitCredentialStatusSchema = z.union([
  z.object({
    set: z.literal(true),
    kind: GitCredentialKindSchema,
    username: z.string().optional().describe('HTTPS user name (https_token only)'),
    updatedAt: TimestampSchema,
  }),
  z.object({ set: z.literal(false) }),
]);
export type GitCredentialStatus = z.infer<typeof GitCredentialStatusSchema>;
