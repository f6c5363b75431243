/** The deepest zoom tiles are cut at; MapLibre draws deeper zooms from these (overzoom). */
export const TILE_MAX_ZOOM = 15;

/** Tile coordinates in the XYZ (slippy map) scheme. */
export interface TileCoord {
  z: number;
  x: number;
  y: number;
}

/**
 * Parses `{z}/{x}/{y}` path parts, or says which part is wrong (the message starts with its name):
 * integers only, z from 0 to {@link TILE_MAX_ZOOM}, x and y from 0 to 2^z - 1.
 */
export function parseTileCoord(z: string, x: string, y: string): TileCoord | { param: string; message: string } {
  const zn = integer(z);
  if (zn === null || zn > TILE_MAX_ZOOM) {
    return { param: 'z', message: `z must be an integer from 0 to ${TILE_MAX_ZOOM}.` };
  }
  const last = 2 ** zn - 1;
  const xn = integer(x);
  if (xn === null || xn > last) return { param: 'x', message: `x must be an integer from 0 to ${last} at zoom ${zn}.` };
  const yn = integer(y);
  if (yn === null || yn > last) return { param: 'y', message: `y must be an integer from 0 to ${last} at zoom ${zn}.` };
  return { z: zn, x: xn, y: yn };
}

function integer(s: string): number | null {
  return /^\d{1,9}$/.test(s) ? Number(s) : null;
}
