/**
 * A seeded generator of numbers in [0, 1) (mulberry32): the same sequence on every run, so benchmark data
 * repeats and a failing test's values can be replayed. Well spread and quick; not for anything secret.
 */
export function seededRandom(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
