// vt-pbf ships no types; this is the one function the tile server calls.
declare module 'vt-pbf' {
  /** Encodes geojson-vt tiles, one per layer name, as one Mapbox Vector Tile. */
  export function fromGeojsonVt(
    layers: Record<string, { features: unknown[] }>,
    options?: { version?: number; extent?: number },
  ): Uint8Array;
}
