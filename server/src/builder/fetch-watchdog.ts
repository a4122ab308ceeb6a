import fs from 'node:fs';
import path from 'node:path';

/** Bytes held by the regular files directly inside `dir` (0 when it does not exist). */
function dirBytes(dir: string): number {
  let total = 0;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    try {
      const st = fs.statSync(path.join(dir, name));
      if (st.isFile()) total += st.size;
    } catch {
      // a temporary pack renamed while we looked
    }
  }
  return total;
}

/**
 * Watches what a `git fetch` writes into `<repoDir>/.git/objects/pack` (the packfile arrives there,
 * first as `tmp_pack_*`) and calls `onExceeded` once when it has grown by more than `limitBytes`
 * since the watch began. git has no client-side limit on what a fetch downloads, so this bounds
 * what a hostile remote can make the build store.
 * @param intervalMs how often to look, default 200 ms
 * @returns stop(): ends the watch; returns the growth in bytes seen at that moment
 */
export function watchFetchGrowth(repoDir: string, limitBytes: number, onExceeded: (bytes: number) => void, intervalMs = 200): () => number {
  const packDir = path.join(repoDir, '.git', 'objects', 'pack');
  const start = dirBytes(packDir);
  let fired = false;
  const look = () => {
    const grown = dirBytes(packDir) - start;
    if (!fired && grown > limitBytes) {
      fired = true;
      onExceeded(grown);
    }
    return grown;
  };
  const timer = setInterval(look, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    return look();
  };
}
