import Flatbush from 'flatbush';

/**
 * An R-tree over ring edges, item `k` being the edge from vertex `edges[k]` to the vertex after it in
 * `coords` (`[x0, y0, x1, y1, ...]`), boxed by its two ends: the polygon layer's ray casts and the
 * border distances read the few edges near a point instead of every edge of a long coastline.
 * `edges` must not be empty.
 */
export function edgeBoxIndex(coords: Float64Array, edges: Uint32Array): Flatbush {
  const index = new Flatbush(edges.length);
  for (const i of edges) {
    const x0 = coords[2 * i]!;
    const y0 = coords[2 * i + 1]!;
    const x1 = coords[2 * i + 2]!;
    const y1 = coords[2 * i + 3]!;
    index.add(Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1));
  }
  index.finish();
  return index;
}
