/**
 * A project's repository files as the desktop app reads them (tRPC `files`): the tree of a ref
 * and file contents at a commit, through the server's read cache of the repository
 * (git/repo-reader.ts), so writers can open a project without git or credentials of their own.
 */
import { ApiError, invalidField } from '@quire/shared/errors';
import type { AppContext } from '../context';
import type { RequestAuth } from '../access/request-auth';
import { encodeBase64 } from '@quire/shared/base64';
import { listFiles, readFileAt, readFileBytesAt, resolveRef } from '../git/repo-reader';
import { getProjectForCaller, type ProjectRecord } from './projects';

/** Most files one {@link readProjectFiles} call returns. */
export const MAX_FILES_PER_READ = 2_000;
/** Most bytes of content one {@link readProjectFiles} call returns (UTF-16 code units of the texts). */
export const MAX_BYTES_PER_READ = 32 * 1024 * 1024;

/** The files of a commit. */
export interface ProjectTree {
  /** the ref asked for (the project's branch by default) */
  ref: string;
  commitSha: string;
  /** every file, sorted by path; size in bytes */
  files: Array<{ path: string; size: number }>;
}

/** Largest file {@link readProjectFileBytes} returns, in bytes (10 MiB: a change set's whole content). */
export const MAX_BYTES_FILE = 10 * 1024 * 1024;

/** One file's bytes: `content` base64 (RFC 4648 section 4, padded), `size` in bytes. */
export interface ProjectFileBytes {
  path: string;
  content: string;
  size: number;
}

/** One file's content; `content` is null for a binary file (one holding a NUL character). */
export interface ProjectFile {
  path: string;
  content: string | null;
}

function repoOf(project: ProjectRecord): { projectId: string; repoUrl: string } {
  if (!project.repoUrl) throw invalidField('repoUrl', 'the project has no repository', 'The project has no repoUrl: connect a repository first.');
  return { projectId: project.id, repoUrl: project.repoUrl };
}

/**
 * The files of `ref` (default: the project's branch).
 * @throws ApiError not_found (project); invalid_request (no repository, unknown ref); the repository
 *   reader's errors when the repository cannot be reached.
 */
export async function projectTree(ctx: AppContext, auth: RequestAuth, projectId: string, ref?: string): Promise<ProjectTree> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const repo = repoOf(project);
  const wanted = ref ?? project.repoBranch;
  const commitSha = await resolveRef(ctx, repo, wanted);
  const files = (await listFiles(ctx, repo, commitSha)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ref: wanted, commitSha, files };
}

/**
 * The contents of `paths` at `commitSha` (a commit {@link projectTree} answered), in the order asked.
 * @throws ApiError not_found (project, or a path absent at that commit); invalid_request (more than
 *   {@link MAX_FILES_PER_READ} paths); payload_too_large past {@link MAX_BYTES_PER_READ} of content.
 */
export async function readProjectFiles(ctx: AppContext, auth: RequestAuth, projectId: string, commitSha: string, paths: string[]): Promise<ProjectFile[]> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const repo = repoOf(project);
  if (paths.length > MAX_FILES_PER_READ) throw invalidField('paths', `at most ${MAX_FILES_PER_READ} paths a call`);
  const out: ProjectFile[] = [];
  let total = 0;
  for (const path of paths) {
    const content = await readFileAt(ctx, repo, commitSha, path);
    if (content === null) throw new ApiError('not_found', `No file ${path} at commit ${commitSha.slice(0, 7)}.`, { path });
    total += content.length;
    if (total > MAX_BYTES_PER_READ) throw new ApiError('payload_too_large', `These files hold more than ${MAX_BYTES_PER_READ / 1024 / 1024} MiB; ask for fewer at a time.`, { limit: MAX_BYTES_PER_READ });
    out.push({ path, content: content.includes('\u0000') ? null : content });
  }
  return out;
}

/**
 * The bytes of `path` at `commitSha`, as base64, for any file (an image, a PDF, or text): what the
 * desktop's preview shows and caches for offline work.
 * @throws ApiError not_found (project, or a path absent at that commit); payload_too_large for a file
 *   over {@link MAX_BYTES_FILE}; invalid_request (no repository, a bad path or commit).
 */
export async function readProjectFileBytes(ctx: AppContext, auth: RequestAuth, projectId: string, commitSha: string, path: string): Promise<ProjectFileBytes> {
  const project = await getProjectForCaller(ctx, auth, projectId);
  const bytes = await readFileBytesAt(ctx, repoOf(project), commitSha, path, MAX_BYTES_FILE);
  if (bytes === null) throw new ApiError('not_found', `No file ${path} at commit ${commitSha.slice(0, 7)}.`, { path });
  return { path, content: encodeBase64(bytes), size: bytes.length };
}
