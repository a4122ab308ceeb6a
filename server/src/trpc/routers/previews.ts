import { z } from 'zod';
import { PreviewPassBodySchema, type PreviewPass } from '@quire/shared/api/access';
import { createPreviewPass } from '../../services/preview-passes';
import { permittedProcedure, router } from '../trpc';

const reader = permittedProcedure('projects:read');

/**
 * `previews`: the desktop app's way into closed previews (the twin of `POST
 * /v1/projects/{projectId}/preview-passes`, same service and rules: services/preview-passes.ts).
 * Every role may call it.
 * - `pass({projectId, url})` → `{url, previewName, expiresAt}`: `url` opens the preview that the given
 *   preview URL names, on its page, for 12 hours; it works for 10 minutes. BAD_REQUEST for a URL that
 *   is not one of the project's preview sites; NOT_FOUND for an unknown or foreign project.
 */
export const previewsRouter = router({
  pass: reader
    .input(z.object({ projectId: z.string().max(64) }).extend(PreviewPassBodySchema.shape))
    .mutation(({ ctx, input }): Promise<PreviewPass> => createPreviewPass(ctx.app, ctx.auth, input.projectId, { url: input.url })),
});
