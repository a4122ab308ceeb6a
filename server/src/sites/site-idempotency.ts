/**
 * `Idempotency-Key` on the site's own POST endpoints that write ({@link SITE_IDEMPOTENT_POSTS};
 * decisions.md section 3: "`Idempotency-Key` on any POST"), by the API's rules and records
 * (services/idempotency.ts; the API's side is plugins/idempotency.ts): after the body is validated
 * the key is claimed in the visitor's scope (`ip:<address>`, as on the API's public routes); a retry
 * with the same key, host, path and body gets the stored status and body with
 * `Idempotency-Replayed: true` and writes nothing (no record, no counter, no write-limit hit); a
 * different request or one still running gets 409 `conflict`; answers 409, 429 and 5xx are not stored.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '@quire/shared/errors';
import type { AppContext } from '../context';
import { beginIdempotent, finishIdempotent, idempotencyKeyOf, idempotencyScope } from '../services/idempotency';
import { sendSiteJsonText } from './site-json';

/** The site endpoints whose POST takes `Idempotency-Key`. */
export const SITE_IDEMPOTENT_POSTS = ['/_quire/feedback/page', '/_quire/feedback/section', '/_quire/chat'] as const;

/** A claimed key: {@link SiteKeyClaim.settle} stores what a retry gets (once; later calls do nothing). */
export interface SiteKeyClaim {
  /** Stores `status` and `json` (the answer's JSON text) for retries, or releases the key for 409, 429 and 5xx. @throws the database error. */
  settle(status: number, json: string): Promise<void>;
}

/** The claim of a request without `Idempotency-Key`: nothing to store. */
const NO_KEY: SiteKeyClaim = { settle: async () => {} };

/**
 * Claims the request's `Idempotency-Key` for `body` (the validated body), or answers a retry from
 * the stored answer (`'replayed'`: the response is sent, do nothing more).
 * @param ip the visitor's address (site-reader.ts `ip`)
 * @throws ApiError invalid_request for a malformed key; conflict for a key used for another request or still running.
 */
export async function claimSiteKey(ctx: AppContext, req: IncomingMessage, res: ServerResponse, ip: string, body: unknown): Promise<SiteKeyClaim | 'replayed'> {
  const key = idempotencyKeyOf(req.headers['idempotency-key']);
  if (key === undefined) return NO_KEY;
  const host = (req.headers.host ?? '').toLowerCase();
  const start = await beginIdempotent(ctx, { scope: idempotencyScope(undefined, ip), key, method: 'POST', path: `//${host}${req.url ?? '/'}`, body });
  if (start.kind === 'replay') {
    sendSiteJsonText(req, res, start.status, start.body, true, ['Idempotency-Replayed', 'true']);
    return 'replayed';
  }
  let open = true;
  return {
    async settle(status, json) {
      if (!open) return;
      open = false;
      await finishIdempotent(ctx, start.recordId, status, json);
    },
  };
}

/**
 * Runs a write under `claim`: its answer (the JSON of what `write` returns, with `status`) is stored before it is returned;
 * an {@link ApiError} is stored as its status and envelope (released for 409, 429 and 5xx) and
 * rethrown; another error releases the key and is rethrown.
 */
export async function settled<T>(claim: SiteKeyClaim, status: number, write: () => Promise<T>): Promise<T> {
  let answer: T;
  try {
    answer = await write();
  } catch (err) {
    if (err instanceof ApiError) await claim.settle(err.status, JSON.stringify(err.toEnvelope()));
    else await claim.settle(500, '');
    throw err;
  }
  await claim.settle(status, JSON.stringify(answer));
  return answer;
}
