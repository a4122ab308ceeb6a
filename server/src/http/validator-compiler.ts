/**
 * Request validation: fastify-type-provider-zod's validator, with each failed issue's path kept as
 * zod gave it (`params.path`: object keys and array indexes). The package reports the path only as
 * `instancePath`, its parts joined with "/", which cannot be split back when a key holds a "/" (a
 * path glob of `settings.sourceRepos[n].globs`); plugins/errors.ts names the field from `params.path`.
 */
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Validation = { params?: Record<string, unknown> };

/** The route validator of fastify-type-provider-zod, adding `params.path` to each issue it reports (see the module comment). */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) => {
  const validate = zodValidatorCompiler(route);
  return (data) => {
    const result = validate(data) as { error?: Validation[]; value?: unknown };
    if (result.error && route.schema instanceof z.ZodType) {
      // Only on failure: parse again for the issues' paths (the same schema and data give the same issues, in order).
      const issues = route.schema.safeParse(data).error?.issues ?? [];
      result.error.forEach((v, i) => {
        if (issues[i]) v.params = { ...v.params, path: issues[i].path };
      });
    }
    return result as ReturnType<ReturnType<FastifySchemaCompiler<z.ZodType>>>;
  };
};
