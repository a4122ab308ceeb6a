/**
 * The one error catalogue of Quire (interface-spec.md "Errors", decisions.md section 3).
 *
 * Every error a client can see has a code here, with its HTTP status, a default message and
 * who is at fault: `user` (the request was wrong; the message is safe and specific) or `app`
 * (our bug or an outage; the message never carries internals).
 */
export const ERROR_CATALOGUE = {
  invalid_request: { status: 400, message: 'The request is invalid.', fault: 'user' },
  unauthorized: { status: 401, message: 'A valid API key is required.', fault: 'user' },
  quota_exceeded: { status: 402, message: 'The organization has reached its project limit.', fault: 'user' },
  forbidden: { status: 403, message: 'The API key lacks the permission this request needs.', fault: 'user' },
  usage_limit_exceeded: { status: 403, message: 'The monthly plan limit has been reached.', fault: 'user' },
  not_found: { status: 404, message: 'The resource does not exist.', fault: 'user' },
  method_not_allowed: { status: 405, message: 'The method is not allowed on this resource.', fault: 'user' },
  conflict: { status: 409, message: 'The request conflicts with the current state.', fault: 'user' },
  payload_too_large: { status: 413, message: 'The request body is larger than 1 MiB.', fault: 'user' },
  unsupported_media_type: { status: 415, message: 'Send the request body as application/json.', fault: 'user' },
  rate_limited: { status: 429, message: 'Too many requests; retry after the time in Retry-After.', fault: 'user' },
  internal_error: { status: 500, message: 'Something went wrong on our side.', fault: 'app' },
  service_unavailable: { status: 503, message: 'The service is shutting down or unavailable; retry shortly.', fault: 'app' },
  // Audience profiles (spec: Audience profiles)
  invalid_slug: { status: 400, message: 'A slug may hold only lowercase letters, numbers and hyphens.', fault: 'user' },
  slug_exists: { status: 409, message: 'That slug is already used in this project.', fault: 'user' },
  empty_audiences: { status: 422, message: 'At least one audience tag is required.', fault: 'user' },
  slug_immutable: { status: 422, message: 'A profile slug cannot be changed.', fault: 'user' },
  profile_not_found: { status: 404, message: 'The audience profile does not exist.', fault: 'user' },
  // Chat sessions use upper-case codes (spec: Chat conversation history)
  INVALID_REQUEST: { status: 400, message: 'The request is invalid.', fault: 'user' },
  NOT_FOUND: { status: 404, message: 'The conversation does not exist.', fault: 'user' },
} as const satisfies Record<string, { status: number; message: string; fault: 'user' | 'app' }>;

/** A code of {@link ERROR_CATALOGUE}. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** The spec's error envelope: `{ error: { code, message, details? } }`. */
export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> };
}

/**
 * An error meant for the client. Throw it anywhere below a route; the error plugin turns it
 * into the envelope with the catalogue's status.
 *
 * @example throw new ApiError('not_found', 'No project prj_x.')
 * @example throw new ApiError('invalid_request', 'slug is not URL-safe', { field: 'slug', issue: 'must match ^[a-z0-9]+(-[a-z0-9]+)*$' })
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  /** Extra response headers, e.g. `Retry-After` on 429. */
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message?: string, details?: Record<string, unknown>, headers?: Record<string, string>) {
    super(message ?? ERROR_CATALOGUE[code].message);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.details = details;
    this.headers = headers;
  }

  /** The envelope sent to the client. */
  toEnvelope(): ErrorEnvelope {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

/** Shorthand for a 400 `invalid_request` about one field (`details: {field, issue}`). */
export function invalidField(field: string, issue: string, message?: string): ApiError {
  return new ApiError('invalid_request', message ?? `${field}: ${issue}`, { field, issue });
}
