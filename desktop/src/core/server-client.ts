import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '@quire/server/src/trpc/routers/_app';

/** A typed tRPC client of a Quire server (its `AppRouter`; the one edge between desktop and server, type-only). */
export type ServerClient = ReturnType<typeof createServerClient>;

/** How long a call to the server may take before it counts as unreachable, in ms. */
export const SERVER_TIMEOUT_MS = 15_000;

/**
 * A client of `<serverUrl>/trpc`, sending `Authorization: Bearer <token>` when `token()` gives one.
 * No batching (each call is one request; simpler to reason about offline).
 */
export function createServerClient(serverUrl: string, token: () => string | null) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${serverUrl.replace(/\/+$/, '')}/trpc`,
        headers: () => {
          const t = token();
          return t ? { authorization: `Bearer ${t}` } : {};
        },
        fetch: (url, init) => fetch(url, { ...(init as RequestInit), signal: AbortSignal.timeout(SERVER_TIMEOUT_MS) }),
      }),
    ],
  });
}

/**
 * True when `err` means the server could not be reached (network error, timeout), as opposed to
 * an answer of the server (a TRPCClientError with data).
 */
export function isUnreachable(err: unknown): boolean {
  if (err instanceof TRPCClientError) return !err.data && !(err.shape as unknown);
  return err instanceof TypeError || (err as { name?: string })?.name === 'TimeoutError' || (err as { name?: string })?.name === 'AbortError';
}

/** The server's error code of a failed call (`UNAUTHORIZED`, `NOT_FOUND`, ...), when it answered. */
export function serverErrorCode(err: unknown): string | undefined {
  return err instanceof TRPCClientError ? ((err.data as { code?: string } | undefined)?.code ?? undefined) : undefined;
}

/**
 * The `details` the server gave with a refusal (its tRPC `data.details`: the REST envelope's
 * `error.details`, e.g. a merge conflict's `paths`), when it answered with any.
 */
export function serverErrorDetails(err: unknown): Record<string, unknown> | undefined {
  if (!(err instanceof TRPCClientError)) return undefined;
  const details = (err.data as { details?: unknown } | undefined)?.details;
  return details && typeof details === 'object' ? (details as Record<string, unknown>) : undefined;
}

/**
 * The bytes of the file at `path` at `commitSha` of a project, through the server's `files.readBytes`
 * (any file, binary or text, base64 on the wire; NOT_FOUND when the commit has no such file).
 * @throws what the client throws (see {@link isUnreachable}, {@link serverErrorCode})
 */
export async function readFileBytes(client: ServerClient, input: { projectId: string; commitSha: string; path: string }): Promise<Buffer> {
  const dto = await client.files.readBytes.query(input);
  return Buffer.from(dto.content, 'base64');
}
