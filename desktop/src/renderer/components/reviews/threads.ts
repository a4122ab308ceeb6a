import type { LocalComment } from './types';

/**
 * Groups the comments of one file into threads: each thread starts with a comment without a
 * parent (or whose parent is not in the list); replies, also replies to replies, follow their
 * first comment in time order. Threads are ordered by line (review-level ones, without lines, first), then time.
 */
export function threadsOf(comments: readonly LocalComment[]): LocalComment[][] {
  const byId = new Map(comments.map((c) => [c.id, c]));
  const rootOf = (c: LocalComment): string => {
    let cur = c;
    for (let hops = 0; cur.parentId && byId.has(cur.parentId) && hops < 100; hops++) cur = byId.get(cur.parentId)!;
    return cur.id;
  };
  const threads = new Map<string, LocalComment[]>();
  for (const c of [...comments].sort((a, b) => a.createdAt.localeCompare(b.createdAt))) {
    const r = rootOf(c);
    const list = threads.get(r) ?? [];
    if (c.id === r) list.unshift(c);
    else list.push(c);
    threads.set(r, list);
  }
  return [...threads.values()].sort((a, b) => (a[0]!.lineStart ?? 0) - (b[0]!.lineStart ?? 0) || a[0]!.createdAt.localeCompare(b[0]!.createdAt));
}
