/**
 * Refuses text no database can store, once for every API route (decisions.md sections 1 and 3):
 * a NUL character or a lone UTF-16 surrogate anywhere in the path parameters, the query string or
 * the JSON body (values and member names) answers 400 `invalid_request` with `details.field` (the
 * dotted path inside that part, as zod validation errors name it) before any route runs, never a
 * 500 from the database. The rule itself lives in `@quire/shared/text`.
 * `/trpc` input is checked by the same rule in trpc/trpc.ts (`storableInput`), in tRPC's error shape.
 */
import fp from 'fastify-plugin';
import { invalidField } from '@quire/shared/errors';
import { findUnstorableText } from '@quire/shared/text';

/** The part of the request and the name used for it when the problem is the whole part. */
const PARTS = [
  ['params', 'path'],
  ['query', 'query'],
  ['body', 'body'],
] as const;

export default fp(
  async (app) => {
    // Callback style (no promise per request): this hook runs on every API call.
    app.addHook('preValidation', (req, _reply, done) => {
      if (req.url.startsWith('/trpc')) return done();
      for (const [part, name] of PARTS) {
        const value: unknown = req[part];
        if (value === undefined || value === null) continue;
        const found = findUnstorableText(value);
        if (found) return done(invalidField(found.path || name, found.issue));
      }
      done();
    });
  },
  { name: 'stored-text', dependencies: ['errors'] },
);
