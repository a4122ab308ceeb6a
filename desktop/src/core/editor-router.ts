import { FilePath, procedure, t } from './trpc';
import { z } from 'zod';


/**
 * The editor's core procedures beyond router.ts's `lint`:
 * - `editor.fixAll({projectId, path, text})` → `{file, edits}`: applies every fixable finding of the
 *   page with the shared linter's `autoFix` (shared/src/lint/linter.ts: overlapping fixes wait for a
 *   later pass) to `text` (the editor's current text), saves the result as the file's content and
 *   answers the saved file and the applied edits (ranges in the text each pass was applied to).
 *   NOT_FOUND when the project was not opened; a page with nothing to fix is saved unchanged.
 */
export const editorRouter = t.router({
  fixAll: procedure
    .input(z.object({ projectId: z.string().min(1).max(64), path: FilePath, text: z.string().max(5 * 1024 * 1024) }))
    .mutation(({ ctx, input }) => ctx.core.fixAll(input.projectId, input.path, input.text)),
});
