/**
 * The row that entry `i` belongs to in a CSR layout, where row r holds entries `start[r]` to
 * `start[r + 1] - 1` (`start` ascending, one longer than the rows): a binary search.
 */
export function ownerOf(start: Uint32Array, i: number): number {
  let lo = 0;
  let hi = start.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (start[mid]! <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
