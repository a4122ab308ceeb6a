import { TRPCError } from '@trpc/server';
import { ApiError, ERROR_CATALOGUE, type ErrorCode } from '@quire/shared/errors';

/**
 * Bridges Quire's error catalogue (shared/src/errors.ts) and tRPC's error codes: services throw
 * `ApiError`, tRPC clients receive tRPC's own envelope with the matching code and HTTP status,
 * plus `data.apiCode` carrying the catalogue code (see ./trpc errorFormatter).
 */

type TrpcCode = TRPCError['code'];

/** tRPC code for each HTTP status the catalogue uses. */
const CODE_BY_STATUS: Record<number, TrpcCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

/** The tRPC code matching a catalogue code (by its HTTP status; unknown statuses are internal errors). */
export function trpcCodeFor(code: ErrorCode): TrpcCode {
  return CODE_BY_STATUS[ERROR_CATALOGUE[code].status] ?? 'INTERNAL_SERVER_ERROR';
}

/** Turns an `ApiError` into the equivalent `TRPCError` (message kept; the ApiError stays as `cause`). */
export function toTrpcError(err: ApiError): TRPCError {
  return new TRPCError({ code: trpcCodeFor(err.code), message: err.message, cause: err });
}

/** The catalogue code behind a tRPC error, when a service raised it as an `ApiError`. */
export function apiCodeOf(err: TRPCError): ErrorCode | undefined {
  return err.cause instanceof ApiError ? err.cause.code : undefined;
}

/**
 * The `details` of the `ApiError` behind a tRPC error (what the REST envelope sends as
 * `error.details`: a merge conflict's `paths`, a validation problem's `field`), or undefined.
 */
export function apiDetailsOf(err: TRPCError): Record<string, unknown> | undefined {
  return err.cause instanceof ApiError ? err.cause.details : undefined;
}
