/**
 * Picking a query's best records out of every record it reached (engine.ts): linear selection of
 * the k-th best score, then a sort of the few above it, instead of sorting every reached record.
 */

/** Bits set in a 32-bit integer (the query terms a record matched). */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * The `k` best of the first `count` records of `ids` by `score`, best first (ties: lower record
 * number first). Linear selection of the k-th score (in `buffer`, at least `count` long), then a
 * sort of those above it.
 */
export function topRecords(score: Float64Array, ids: Int32Array, count: number, k: number, buffer: Float64Array): number[] {
  let picked: number[];
  if (count <= k) picked = Array.from(ids.subarray(0, count));
  else {
    const values = buffer.subarray(0, count);
    for (let i = 0; i < count; i++) values[i] = score[ids[i]!]!;
    const threshold = kthLargest(values, k);
    picked = [];
    for (let i = 0; i < count; i++) if (score[ids[i]!]! >= threshold) picked.push(ids[i]!);
  }
  return picked.sort((a, b) => score[b]! - score[a]! || a - b);
}

/** The k-th largest value of `a` (1-based; `a` is reordered). Hoare's quickselect. */
function kthLargest(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  const want = k - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! > pivot) i++;
      while (a[j]! < pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (want <= j) hi = j;
    else if (want >= i) lo = i;
    else break;
  }
  return a[want]!;
}
