/**
 * The spec's error envelope for every error (interface-spec.md "Errors"; decisions.md section 3):
 * ApiError → its catalogue status; zod validation → 400 `invalid_request` with
 * `details: {field, issue}` (field = dotted path, e.g. `settings.aiEnabled`); malformed JSON → 400;
 * bodies over 1 MiB → 413; unknown routes → 404; anything else → 500 without internals (logged).
 */
import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ApiError, ERROR_CATALOGUE, type ErrorCode } from '@quire/shared/errors';
import { invalidInput } from '@quire/shared/api/invalid-input';

/** Fastify's own client errors mapped to catalogue codes (field `body` for body problems). */
const FASTIFY_CODES: Record<string, { code: ErrorCode; issue?: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_request', issue: 'is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_request', issue: 'is empty; send a JSON object or no Content-Type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'invalid_request', issue: 'does not match Content-Length' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type' },
  FST_ERR_CTP_INVALID_TYPE: { code: 'unsupported_media_type' },
};

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'invalid_request', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 405: 'method_not_allowed',
  409: 'conflict', 413: 'payload_too_large', 415: 'unsupported_media_type', 429: 'rate_limited', 503: 'service_unavailable',
};

/** Converts any thrown value into an {@link ApiError} (500 for anything unexpected). */
export function toApiError(err: FastifyError | Error, req?: FastifyRequest): ApiError {
  if (err instanceof ApiError) return err;
  if (hasZodFastifySchemaValidationErrors(err)) {
    // fastify-type-provider-zod gives each zod issue as {keyword: code, instancePath: `/a/b`, message, params: the rest};
    // http/validator-compiler.ts adds zod's own path as params.path (a key may hold a "/")
    const issues = err.validation.map((v) => {
      const params = v.params as { keys?: string[]; path?: PropertyKey[] };
      return { ...params, code: v.keyword, path: params.path ?? v.instancePath.split('/').filter(Boolean), message: v.message };
    });
    const context = err.validationContext;
    return invalidInput({ issues }, { root: context === 'querystring' ? 'query' : (context ?? 'body') });
  }
  const fe = err as FastifyError;
  if (!isResponseSerializationError(fe) && fe.code && FASTIFY_CODES[fe.code]) {
    const { code, issue } = FASTIFY_CODES[fe.code]!;
    return issue ? new ApiError(code, `body: ${issue}`, { field: 'body', issue }) : new ApiError(code);
  }
  const status = fe.statusCode ?? 500;
  if (status >= 400 && status < 500 && STATUS_CODES[status] && !isResponseSerializationError(fe)) {
    return new ApiError(STATUS_CODES[status]!, ERROR_CATALOGUE[STATUS_CODES[status]!].fault === 'user' ? fe.message : undefined);
  }
  req?.log.error({ err }, 'request failed');
  return new ApiError('internal_error');
}

/** Sends an {@link ApiError} as the envelope with its status and headers. */
export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  return reply.code(error.status).type('application/json; charset=utf-8').serializer(JSON.stringify).send(error.toEnvelope());
}

export default fp(
  async (app) => {
    app.setErrorHandler((err: FastifyError, req, reply) => sendApiError(reply, toApiError(err, req)));
    app.setNotFoundHandler((req, reply) =>
      sendApiError(reply, new ApiError('not_found', `No route ${req.method} ${req.url.split('?')[0]}.`)),
    );
  },
  { name: 'errors' },
);
