/**
 * Personalised pages: the rules the builder and the site server share. Pages refer to the reader
 * with Mintlify's personalisation syntax, `{user.<field>}` in MDX (Mintlify, "Personalization":
 * "the `user` variable ... is an empty object for logged-out users"), with a fallback written the
 * JavaScript way Mintlify pages already use, `{user.name ?? "there"}` (or `||`). Quire never runs
 * the expression: the builder recognises only `user.<field>` for an allowlisted field
 * ({@link userFieldsOf}) and writes a placeholder element ({@link USER_ATTR}) holding the fallback;
 * the site server substitutes the reader's claim as escaped text at request time.
 *
 * A reader's claims travel signed inside their audience token (server/src/services/audience-tokens.ts):
 * string fields (`name`, `plan`, and whatever the issuer adds) and, as in Mintlify's user data,
 * `apiPlaygroundInputs` (values the API playground pre-fills, by input location and name).
 */
import { unstorableTextIssue } from '../text';

/** The attribute of the placeholder element the builder writes for `{user.<field>}`: `<span data-quire-user="name">fallback</span>`. */
export const USER_ATTR = 'data-quire-user';

/** Fields every site may use without declaring them (Mintlify's examples: the reader's name and plan). */
export const BUILTIN_USER_FIELDS: readonly string[] = ['name', 'plan'];

/** What a field name may look like (a JavaScript identifier of ASCII letters, digits and `_`, at most 32 characters). */
export const USER_FIELD = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;

/** Claim keys that are never text fields (Mintlify's user data keys with other meanings). */
const RESERVED_FIELDS = new Set(['apiPlaygroundInputs', 'groups', 'content', 'expiresAt', '__proto__', 'constructor', 'prototype']);

/** Most string claims one token may carry. */
export const MAX_CLAIM_FIELDS = 16;
/** Longest claim value, in characters. */
export const MAX_CLAIM_VALUE_CHARS = 200;
/** Most bytes of a token's claims as JSON (keeps the token under AUDIENCE_TOKEN_MAX_LENGTH). */
export const MAX_CLAIMS_JSON_BYTES = 1024;

/** Where the API playground takes a pre-filled value (Mintlify's `apiPlaygroundInputs` keys). */
export const PLAYGROUND_INPUT_LOCATIONS = ['header', 'query', 'path', 'server'] as const;
/** One of {@link PLAYGROUND_INPUT_LOCATIONS}. */
export type PlaygroundInputLocation = (typeof PLAYGROUND_INPUT_LOCATIONS)[number];

/** A reader's claims: string fields, and the playground inputs to pre-fill (location → input name → value). */
export interface ReaderClaims {
  fields: Record<string, string>;
  apiPlaygroundInputs?: Partial<Record<PlaygroundInputLocation, Record<string, string>>>;
}

/**
 * The user fields a site's pages may name (the builder's allowlist): {@link BUILTIN_USER_FIELDS}
 * plus docs.json `personalization.fields` (Quire's key; names matching {@link USER_FIELD}, others
 * ignored: the config validator reports them).
 * @param raw the site config's raw keys (`SiteConfig.raw`)
 */
export function userFieldsOf(raw: Record<string, unknown> | undefined): string[] {
  const p = raw?.personalization;
  const declared = typeof p === 'object' && p !== null ? (p as Record<string, unknown>).fields : undefined;
  const extra = Array.isArray(declared) ? declared.filter((f): f is string => typeof f === 'string' && USER_FIELD.test(f) && !RESERVED_FIELDS.has(f)) : [];
  return [...new Set([...BUILTIN_USER_FIELDS, ...extra])];
}

/** Whether `s` is text without NUL or lone surrogates (text.ts: refused everywhere). */
function cleanText(s: string): boolean {
  return unstorableTextIssue(s) === null;
}

/**
 * Validates the claims given when a token is issued (`POST .../audiences/{id}/token` body `claims`):
 * an object of string fields ({@link USER_FIELD} names, at most {@link MAX_CLAIM_FIELDS}, values at
 * most {@link MAX_CLAIM_VALUE_CHARS} characters) and optionally `apiPlaygroundInputs`
 * (`{header|query|path|server: {name: value}}`, same limits), at most {@link MAX_CLAIMS_JSON_BYTES}
 * bytes as JSON; no NUL or lone surrogates anywhere.
 * @returns the claims, or `{error}` with a message naming the offending key
 */
export function parseReaderClaims(value: unknown): ReaderClaims | { error: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'claims must be an object of field names to strings' };
  const fields: Record<string, string> = {};
  let inputs: ReaderClaims['apiPlaygroundInputs'];
  let count = 0;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'apiPlaygroundInputs') {
      const parsed = parsePlaygroundInputs(v);
      if ('error' in parsed) return parsed;
      inputs = parsed.inputs;
      continue;
    }
    if (!USER_FIELD.test(key) || RESERVED_FIELDS.has(key)) return { error: `claims.${key.slice(0, 40)}: a field name is letters, digits and _ (at most 32), not a reserved name` };
    if (typeof v !== 'string') return { error: `claims.${key}: must be a string` };
    if (v.length > MAX_CLAIM_VALUE_CHARS || !cleanText(v)) return { error: `claims.${key}: at most ${MAX_CLAIM_VALUE_CHARS} characters of text` };
    if (++count > MAX_CLAIM_FIELDS) return { error: `claims: at most ${MAX_CLAIM_FIELDS} fields` };
    fields[key] = v;
  }
  const claims: ReaderClaims = { fields, ...(inputs ? { apiPlaygroundInputs: inputs } : {}) };
  if (new TextEncoder().encode(JSON.stringify(claims)).length > MAX_CLAIMS_JSON_BYTES) return { error: `claims: at most ${MAX_CLAIMS_JSON_BYTES} bytes in all` };
  return claims;
}

function parsePlaygroundInputs(v: unknown): { inputs: NonNullable<ReaderClaims['apiPlaygroundInputs']> } | { error: string } {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { error: 'claims.apiPlaygroundInputs: must be an object like {"header": {"X-API-Key": "..."}}' };
  const inputs: NonNullable<ReaderClaims['apiPlaygroundInputs']> = {};
  for (const [loc, names] of Object.entries(v as Record<string, unknown>)) {
    if (!(PLAYGROUND_INPUT_LOCATIONS as readonly string[]).includes(loc)) return { error: `claims.apiPlaygroundInputs.${loc.slice(0, 40)}: one of ${PLAYGROUND_INPUT_LOCATIONS.join(', ')}` };
    if (typeof names !== 'object' || names === null || Array.isArray(names)) return { error: `claims.apiPlaygroundInputs.${loc}: must be an object of input names to strings` };
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(names as Record<string, unknown>)) {
      if (name.length === 0 || name.length > 100 || !cleanText(name) || RESERVED_FIELDS.has(name)) return { error: `claims.apiPlaygroundInputs.${loc}: input names are 1 to 100 characters` };
      if (typeof value !== 'string' || value.length > MAX_CLAIM_VALUE_CHARS || !cleanText(value)) {
        return { error: `claims.apiPlaygroundInputs.${loc}.${name}: a string of at most ${MAX_CLAIM_VALUE_CHARS} characters` };
      }
      out[name] = value;
    }
    inputs[loc as PlaygroundInputLocation] = out;
  }
  return { inputs };
}

/**
 * Claims as signed into a token read back (the payload's `c`): the same checks as
 * {@link parseReaderClaims} applied to its stored shape `{fields, apiPlaygroundInputs?}`; undefined
 * when malformed (the token is then refused as malformed).
 */
export function readStoredClaims(value: unknown): ReaderClaims | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { fields, apiPlaygroundInputs } = value as Record<string, unknown>;
  const parsed = parseReaderClaims({ ...(typeof fields === 'object' && fields !== null ? fields : {}), ...(apiPlaygroundInputs !== undefined ? { apiPlaygroundInputs } : {}) });
  return 'error' in parsed ? undefined : parsed;
}
