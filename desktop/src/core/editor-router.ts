import { FilePath, t } from './trpc';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { LintEdit } from '@quire/shared/lint/types';
import type { StoredFile } from './store';


/**
 * The editor's core procedures beyond router.ts's `lint`:
 * - `editor.fixAll({projectId, path, text})` → `{file, edits}`: applies every fixable finding of the
 *   page with the shared linter's `autoFix` (shared/src/lint/linter.ts: overlapping fixes wait for a
 *   later pass) to `text` (the editor's current text), saves the result as the file's content and
 *   answers the saved file and the applied edits (ranges in the text each pass was applied to).
 *   NOT_FOUND when the project was not opened; a page with nothing to fix is saved unchanged.
 */
export const editorRouter = t.router({
  fixAll: t.procedure
    .input(z.object({ projectId: z.string().min(1).max(64), path: FilePath, text: z.string().max(5 * 1024 * 1024) }))
    .mutation(async ({ ctx, input }): Promise<{ file: StoredFile; edits: LintEdit[] }> => {
      const { core } = ctx;
      if (!core.store.workspace(input.projectId)) throw new TRPCError({ code: 'NOT_FOUND', message: 'Open the project first.' });
      const fixed = await core.linter(input.projectId).autoFix(input.text, input.path);
      return { file: core.writeFile(input.projectId, input.path, fixed.text), edits: fixed.edits };
    }),
});
