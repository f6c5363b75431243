import Flatbush from 'flatbush';

/**
 * What a rebuild of `GeofenceIndex`'s static tree starts from: views of the index's own per-slot
 * arrays (shared memory), which stay unchanged for the held slots until the built tree is taken in.
 * A builder reads them and writes nothing.
 */
export interface TreeInput {
  /** Per slot, its first box: minX, minY, maxX, maxY. */
  boxes: Float64Array;
  /** Per slot, non-zero when it holds a fence. */
  held: Uint8Array;
  /** Second boxes (a fence across the antimeridian), five numbers each: slot, minX, minY, maxX, maxY. */
  extra: Float64Array;
}

/**
 * A flatbush tree (default node size, Float64Array) over the held slots' boxes in ascending slot
 * order, then the second boxes in `extra`'s order: `data` for `Flatbush.from`, and each item's slot.
 */
export interface BuiltTree {
  data: ArrayBuffer;
  itemSlot: Uint32Array;
}

/** Builds a `BuiltTree` away from the caller's thread; must give what `buildTreeHere` gives. */
export type TreeBuilder = (input: TreeInput) => Promise<BuiltTree>;

/** The `BuiltTree` of `input`, built on this thread. Null when nothing is held. */
export function buildTreeHere({ boxes, held, extra }: TreeInput): BuiltTree | null {
  let count = extra.length / 5;
  for (let slot = 0; slot < held.length; slot++) if (held[slot] !== 0) count++;
  if (count === 0) return null;
  const tree = new Flatbush(count);
  const itemSlot = new Uint32Array(count);
  let item = 0;
  for (let slot = 0; slot < held.length; slot++) {
    if (held[slot] === 0) continue;
    const o = slot * 4;
    tree.add(boxes[o]!, boxes[o + 1]!, boxes[o + 2]!, boxes[o + 3]!);
    itemSlot[item++] = slot;
  }
  for (let o = 0; o < extra.length; o += 5) {
    tree.add(extra[o + 1]!, extra[o + 2]!, extra[o + 3]!, extra[o + 4]!);
    itemSlot[item++] = extra[o]!;
  }
  tree.finish();
  return { data: tree.data as ArrayBuffer, itemSlot };
}
