import { z } from 'zod';
import { CommitShaSchema } from '@quire/shared/api/builds';
import {
  MAX_FILES_PER_READ,
  projectTree,
  readProjectFileBytes,
  readProjectFiles,
  type ProjectFile,
  type ProjectFileBytes,
  type ProjectTree,
} from '../../services/project-files';
import { permittedProcedure, router } from '../trpc';

const reader = permittedProcedure('projects:read');
const PathSchema = z.string().min(1).max(1024);

/**
 * `files`: a project's repository files for the desktop app, read through the server (every role).
 * - `tree({projectId, ref?})` → `{ref, commitSha, files: [{path, size}]}` of the ref (default: the
 *   project's branch).
 * - `read({projectId, commitSha, path})` → `{path, content}` (content null for a binary file).
 * - `readMany({projectId, commitSha, paths})` → the same for up to 2,000 paths, in order (what
 *   opening a project for offline work fetches); a mutation only so that its long list of paths
 *   travels in a POST body rather than a URL; it changes nothing.
 * - `readBytes({projectId, commitSha, path})` → `{path, content, size}`: any file's bytes as base64
 *   (images for the desktop's offline preview), at most 10 MiB (PAYLOAD_TOO_LARGE beyond).
 * NOT_FOUND for an unknown or foreign project or a path absent at that commit; BAD_REQUEST for a
 * project without a repository or an unknown ref.
 */
export const filesRouter = router({
  tree: reader
    .input(z.object({ projectId: z.string().max(64), ref: z.string().min(1).max(250).optional() }))
    .query(({ ctx, input }): Promise<ProjectTree> => projectTree(ctx.app, ctx.auth, input.projectId, input.ref)),
  read: reader
    .input(z.object({ projectId: z.string().max(64), commitSha: CommitShaSchema, path: PathSchema }))
    .query(async ({ ctx, input }): Promise<ProjectFile> => (await readProjectFiles(ctx.app, ctx.auth, input.projectId, input.commitSha, [input.path]))[0]!),
  readMany: reader
    .input(z.object({ projectId: z.string().max(64), commitSha: CommitShaSchema, paths: z.array(PathSchema).max(MAX_FILES_PER_READ) }))
    .mutation(({ ctx, input }): Promise<ProjectFile[]> => readProjectFiles(ctx.app, ctx.auth, input.projectId, input.commitSha, input.paths)),
  readBytes: reader
    .input(z.object({ projectId: z.string().max(64), commitSha: CommitShaSchema, path: PathSchema }))
    .query(({ ctx, input }): Promise<ProjectFileBytes> => readProjectFileBytes(ctx.app, ctx.auth, input.projectId, input.commitSha, input.path)),
});
