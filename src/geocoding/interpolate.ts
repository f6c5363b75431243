import type { AddressLayer } from '../geodata/osm/addresses/address-layer.js';
import { NO_NUMBER, parity } from '../geodata/osm/addresses/house-numbers.js';

/** Where an interpolated number lies, and the known address nearest to it in number (for its postcode). */
export interface Interpolated {
  point: [number, number];
  neighbour: number;
}

/**
 * Places house number `value` on street `street` between the nearest known lower and higher numbers of the
 * same parity (US streets keep odd and even numbers on opposite sides), else of any parity, linearly
 * between their points. Null when the number is not bracketed by known numbers of the street: a number
 * beyond the last known one could be anywhere along the rest of the street.
 */
export function interpolate(layer: AddressLayer, street: number, value: number): Interpolated | null {
  if (value === NO_NUMBER) return null;
  const list = layer.streetAddresses(street);
  const values = layer.addressValue;
  const bracket = (sameSide: boolean): Interpolated | null => {
    let lo = -1;
    let hi = -1;
    for (let k = 0; k < list.length; k++) {
      const v = values[list[k]!]!;
      if (v === NO_NUMBER || (sameSide && parity(v) !== parity(value))) continue;
      if (v < value) lo = list[k]!;
      else if (v > value && hi < 0) hi = list[k]!;
    }
    if (lo < 0 || hi < 0) return null;
    const vl = values[lo]!;
    const vh = values[hi]!;
    const t = (value - vl) / (vh - vl);
    const point: [number, number] = [
      layer.addressLon(lo) + t * (layer.addressLon(hi) - layer.addressLon(lo)),
      layer.addressLat(lo) + t * (layer.addressLat(hi) - layer.addressLat(lo)),
    ];
    return { point, neighbour: t < 0.5 ? lo : hi };
  };
  return bracket(true) ?? bracket(false);
}
