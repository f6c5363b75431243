import type { Position } from '../geo/types.js';

/** Google's encoded polyline of `[lon, lat]` points at 5 or 6 decimal places (lat first, as the format says). */
export function encodePolyline(points: readonly Position[], precision: 5 | 6): string {
  const factor = 10 ** precision;
  let out = '';
  let lastLat = 0;
  let lastLon = 0;
  for (const [lon, lat] of points) {
    const la = Math.round(lat * factor);
    const lo = Math.round(lon * factor);
    out += encodeSigned(la - lastLat) + encodeSigned(lo - lastLon);
    lastLat = la;
    lastLon = lo;
  }
  return out;
}

function encodeSigned(v: number): string {
  let n = v < 0 ? ~(v << 1) : v << 1;
  let out = '';
  while (n >= 0x20) {
    out += String.fromCharCode((0x20 | (n & 0x1f)) + 63);
    n >>>= 5;
  }
  return out + String.fromCharCode(n + 63);
}
