import { z } from 'zod';
import { FilePath, procedure, ProjectId, t, Text, type CoreContext } from './trpc';
import { reviewsRouter } from './reviews-router';
import { syncRouter } from './sync-router';
import { buildsRouter } from './builds-router';
import { editorRouter } from './editor-router';
import { folderRouter, openProject } from './local-folder-router';
import { previewPass } from './preview-pass';
import { previewBasePath } from './preview-urls';
import { docsRootOf } from './docs-root';
import { workspaceViewsRouter } from './workspace-views-router';
import { addImage } from './add-image';
import { MAX_IMAGE_BYTES } from '@quire/shared/docs/image-files';

export type { CoreContext };

/**
 * A binary file's bytes in base64, up to twice the image limit decoded: past the limit but below this,
 * add-image.ts answers with the limit named rather than a bare length error.
 */
const Base64Bytes = z.string().max(Math.ceil((2 * MAX_IMAGE_BYTES) / 3) * 4);

/**
 * The core's router, the renderer's only way to the core: over IPC in Electron (src/main), over
 * HTTP at `/trpc` in web mode (web.ts). Inputs are objects (a falsy bare input does not survive IPC).
 * - `session.signIn({serverUrl, email, password})`, `session.status()`, `session.signOut()`
 * - `sync.*` (sync-router.ts: status, now, dismiss), `reviews.*` (reviews-router.ts: offline review work)
 * - `projects.list()` → `{items, offline}`
 * - `workspace.open({projectId})`, `workspace.tree({projectId})` → `{nodes, error}`, `workspace.changes({projectId})` → paths edited locally
 * - `workspace.search/changedFiles/changeDiff` (workspace-views-router.ts: search in files, the Changes view)
 * - `workspace.refresh/conflict/conflicts/resolve/openFolder/localFolders` (local-folder-router.ts: three-way refresh from
 *   the server, local folders); `workspace.open` refreshes a project opened before
 * - `files.read({projectId, path})`, `files.write({projectId, path, content})` (also creates a file),
 *   `files.delete({projectId, path})` → `{path, deleted: true}`, `files.rename({projectId, from, to})` → the file at `to`
 *   (local edits, proposed later: core.ts `deleteFile`, `renameFile`)
 * - `files.addBinary({projectId, path, contentBase64})` → `{path, size, url}`: adds an image (add-image.ts: name
 *   slugged and made unique, PNG/JPEG/GIF/WebP/SVG/AVIF, at most 2 MiB), a local change proposed as a base64 entry
 * - `workspace.docsRoot({projectId})` → `{docsRoot, configPath}`: the docs folder and its docs.json/mint.json (null when none)
 * - `lint.run({projectId, path, text})` → findings; `lint.applyFix({projectId, path, fix})` → the file
 * - `preview.render({projectId, path, text, theme})` → `{ok, html, title} | {ok: false, message, line?}`
 * - `preview.basePath({projectId})` → `{basePath}`: where the preview serves the project's published files
 *   (preview-urls.ts `previewBasePath`: `/images/a.png` of the site is `<basePath>/images/a.png`)
 * - `previews.open({projectId, url})` → a member pass `{url, previewName, expiresAt}` opening the
 *   preview site `url` names (preview-pass.ts; previews are private by default)
 */
export const coreRouter = t.router({
  session: t.router({
    signIn: procedure
      .input(z.object({ serverUrl: z.url({ protocol: /^https?$/ }).max(2048), email: z.string().min(1).max(320), password: z.string().min(1).max(1024) }))
      .mutation(({ ctx, input }) => ctx.core.signIn(input)),
    status: procedure.query(({ ctx }) => ctx.core.status()),
    signOut: procedure.mutation(({ ctx }) => ctx.core.signOut()),
  }),
  sync: syncRouter,
  reviews: reviewsRouter,
  projects: t.router({
    list: procedure.query(({ ctx }) => ctx.core.listProjects()),
  }),
  workspace: t.router({
    open: procedure.input(z.object({ projectId: ProjectId })).mutation(({ ctx, input }) => openProject(ctx, input.projectId)),
    ...folderRouter,
    ...workspaceViewsRouter,
    tree: procedure.input(z.object({ projectId: ProjectId })).query(({ ctx, input }) => ctx.core.tree(input.projectId)),
    changes: procedure.input(z.object({ projectId: ProjectId })).query(({ ctx, input }) => ctx.core.store.changedPaths(input.projectId)),
    docsRoot: procedure.input(z.object({ projectId: ProjectId })).query(({ ctx, input }) => docsRootOf(ctx.core, input.projectId)),
  }),
  files: t.router({
    read: procedure.input(z.object({ projectId: ProjectId, path: FilePath })).query(({ ctx, input }) => ctx.core.readFile(input.projectId, input.path)),
    write: procedure
      .input(z.object({ projectId: ProjectId, path: FilePath, content: Text }))
      .mutation(({ ctx, input }) => ctx.core.writeFile(input.projectId, input.path, input.content)),
    delete: procedure.input(z.object({ projectId: ProjectId, path: FilePath })).mutation(({ ctx, input }) => ctx.core.deleteFile(input.projectId, input.path)),
    rename: procedure
      .input(z.object({ projectId: ProjectId, from: FilePath, to: FilePath }))
      .mutation(({ ctx, input }) => ctx.core.renameFile(input.projectId, input.from, input.to)),
    addBinary: procedure
      .input(z.object({ projectId: ProjectId, path: FilePath, contentBase64: Base64Bytes }))
      .mutation(({ ctx, input }) => addImage(ctx.core, input.projectId, input.path, input.contentBase64)),
  }),
  lint: t.router({
    run: procedure
      .input(z.object({ projectId: ProjectId, path: FilePath, text: Text }))
      .query(({ ctx, input }) => ctx.core.lint(input.projectId, input.path, input.text)),
    applyFix: procedure
      .input(
        z.object({
          projectId: ProjectId,
          path: FilePath,
          fix: z.object({ range: z.tuple([z.number().int().min(0), z.number().int().min(0)]), text: z.string().max(100_000) }),
        }),
      )
      .mutation(({ ctx, input }) => ctx.core.applyFix(input.projectId, input.path, input.fix)),
  }),
  builds: buildsRouter,
  previews: t.router({
    open: procedure
      .input(z.object({ projectId: ProjectId, url: z.url({ protocol: /^https?$/ }).max(2048) }))
      .mutation(({ ctx, input }) => previewPass(ctx.core, input.projectId, input.url)),
  }),
  editor: editorRouter,
  preview: t.router({
    render: procedure
      .input(z.object({ projectId: ProjectId, path: FilePath, text: Text, theme: z.enum(['light', 'dark']).default('light') }))
      .mutation(({ ctx, input }) => ctx.core.renderPreview(input.projectId, input.path, input.text, input.theme)),
    basePath: procedure.input(z.object({ projectId: ProjectId })).query(({ input }) => ({ basePath: previewBasePath(input.projectId) })),
  }),
});

/** The core router's type: what the renderer's tRPC client is typed by. */
export type CoreRouter = typeof coreRouter;

/** A server-side caller of the core router (tests, in-process use). */
export const createCoreCaller = t.createCallerFactory(coreRouter);
