/**
 * Reading a GitHub delivery (interface-spec.md "Events"): the raw body exactly as received (the
 * signature covers those bytes, so nothing may parse it first), then, once the signature
 * verified, the JSON payload (`application/json`, or the `payload` member of an
 * `application/x-www-form-urlencoded` body, GitHub's other content type) and the typed event of
 * `X-GitHub-Event`. Schemas: shared/src/api/git-webhooks.ts.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { invalidField } from '@quire/shared/errors';
import { invalidInput } from '@quire/shared/api/invalid-input';
import { findUnstorableText } from '@quire/shared/text';
import {
  GithubInstallationEventSchema,
  GithubInstallationRepositoriesEventSchema,
  GithubOtherEventSchema,
  GithubPingEventSchema,
  GithubPullRequestEventSchema,
  GithubPushEventSchema,
  GithubRepositorySchema,
  type GithubInstallationEvent,
  type GithubInstallationRepositoriesEvent,
  type GithubPingEvent,
  type GithubPullRequestEvent,
  type GithubPushEvent,
  type GithubRepository,
} from '@quire/shared/api/git-webhooks';

/** How the body was sent. */
export type BodyEncoding = 'json' | 'form';

/**
 * A request body kept as the bytes received, for signature verification. The bytes sit in a
 * private field, so generic walkers of request bodies (the stored-text check) see an empty
 * object; `toJSON` gives a digest (the idempotency plugin hashes bodies as JSON).
 */
export class RawBody {
  readonly #bytes: Buffer;
  readonly #encoding: BodyEncoding;

  constructor(bytes: Buffer, encoding: BodyEncoding) {
    this.#bytes = bytes;
    this.#encoding = encoding;
  }

  /** The bytes received. */
  get bytes(): Buffer {
    return this.#bytes;
  }

  /** `json` (application/json) or `form` (application/x-www-form-urlencoded). */
  get encoding(): BodyEncoding {
    return this.#encoding;
  }

  toJSON(): { sha256: string } {
    return { sha256: createHash('sha256').update(this.#bytes).digest('hex') };
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The body as text for signing: its UTF-8 reading, which encodes back to the same bytes (a BOM
 * kept), so an HMAC over the text is the HMAC over the bytes.
 * @returns null for an empty body or one that is not UTF-8 (GitHub sends UTF-8 JSON: such a body
 *   cannot carry a valid signature of it).
 */
export function bodyText(body: RawBody): string | null {
  if (body.bytes.length === 0) return null;
  try {
    return UTF8.decode(body.bytes);
  } catch {
    return null;
  }
}

/**
 * The JSON payload of a delivery's text, or undefined when there is none (malformed JSON, a form
 * without `payload`). Never throws.
 */
export function payloadOf(text: string, encoding: BodyEncoding): unknown {
  const json = encoding === 'form' ? new URLSearchParams(text).get('payload') : text;
  if (json === null) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

/** A delivery's event, typed by `X-GitHub-Event`. */
export type GitEvent =
  | { kind: 'push'; payload: GithubPushEvent }
  | { kind: 'pull_request'; payload: GithubPullRequestEvent }
  | { kind: 'ping'; payload: GithubPingEvent }
  | { kind: 'installation'; payload: GithubInstallationEvent }
  | { kind: 'installation_repositories'; payload: GithubInstallationRepositoriesEvent }
  | { kind: 'other'; name: string; action: string | null; repository: GithubRepository | null };

const SCHEMAS = {
  push: GithubPushEventSchema,
  pull_request: GithubPullRequestEventSchema,
  ping: GithubPingEventSchema,
  installation: GithubInstallationEventSchema,
  installation_repositories: GithubInstallationRepositoriesEventSchema,
} as const satisfies Record<string, z.ZodType>;

/**
 * Reads the verified payload as the event `eventName` (`X-GitHub-Event`). Events Quire does not
 * act on are read as `other`: any JSON object, with its `action` and `repository` when well formed.
 * @param appEvents whether `installation` and `installation_repositories` are read as such (the
 *   GitHub App receiver); elsewhere they are `other`.
 * @throws ApiError invalid_request (400) when the body is not JSON, not a JSON object, not a
 *   GitHub event of its type (`details.field` names the member, e.g. `body.repository.full_name`),
 *   or holds text no database can store (NUL, lone surrogates) in a member Quire records.
 */
export function readEvent(eventName: string, payload: unknown, appEvents: boolean): GitEvent {
  if (payload === undefined) throw invalidField('body', 'is not valid JSON', 'body: is not valid JSON (GitHub sends the event as a JSON object).');
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw invalidField('body', 'must be a JSON object', 'body: must be a JSON object (a GitHub event payload).');
  }
  const known = eventName in SCHEMAS && (appEvents || !eventName.startsWith('installation')) ? (eventName as keyof typeof SCHEMAS) : null;
  let event: GitEvent;
  if (known) {
    const parsed = SCHEMAS[known].safeParse(payload);
    if (!parsed.success) {
      throw invalidInput(parsed.error, { prefix: 'body', message: (field, issue) => `The body is not a GitHub ${eventName} event: ${field}: ${issue}.` });
    }
    event = { kind: known, payload: parsed.data } as GitEvent;
  } else {
    const other = GithubOtherEventSchema.safeParse(payload);
    const repository = GithubRepositorySchema.safeParse((payload as Record<string, unknown>).repository);
    event = {
      kind: 'other',
      name: eventName,
      action: other.success ? (other.data.action ?? null) : null,
      repository: repository.success ? repository.data : null,
    };
  }
  const unstorable = findUnstorableText(event);
  if (unstorable) throw invalidField(`body.${unstorable.path.replace(/^payload\./, '')}`, unstorable.issue);
  return event;
}

/** The repository an event concerns, when it names one. */
export function repositoryOf(event: GitEvent): GithubRepository | null {
  if (event.kind === 'other') return event.repository;
  if (event.kind === 'installation' || event.kind === 'installation_repositories') return null;
  return event.payload.repository ?? null;
}

/** The event's `action`, when it has one. */
export function actionOf(event: GitEvent): string | null {
  if (event.kind === 'other') return event.action;
  return 'action' in event.payload ? event.payload.action : null;
}

/** The event's name (`X-GitHub-Event`). */
export function eventNameOf(event: GitEvent): string {
  return event.kind === 'other' ? event.name : event.kind;
}

/**
 * The repository of a payload whose signature did NOT verify, for the delivery debug list only
 * (never acted on): read from bodies of at most {@link PEEK_LIMIT} bytes.
 * @returns null when the body is larger, not JSON, or names no well-formed repository.
 */
export function peekRepository(body: RawBody): GithubRepository | null {
  if (body.bytes.length > PEEK_LIMIT) return null;
  const text = bodyText(body);
  if (text === null) return null;
  const payload = payloadOf(text, body.encoding);
  if (payload === null || typeof payload !== 'object') return null;
  const repository = GithubRepositorySchema.safeParse((payload as Record<string, unknown>).repository);
  if (!repository.success || findUnstorableText(repository.data)) return null;
  return repository.data;
}

/** Largest unverified body read to find its repository for the debug list, in bytes (1 MiB). */
export const PEEK_LIMIT = 1024 * 1024;
