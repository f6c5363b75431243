import { normalizeName } from '../../normalize-name.js';

/** No numeric reading (`Rear`, `Lot B`): the address is left out of interpolation. */
export const NO_NUMBER = 0xffffffff;

/**
 * A house number as a number that orders along the street: `123` → 123, `123A` → 123, and a Queens-style
 * hyphenated number `89-12` → 89,012 (block 89, house 12: blocks order first). NO_NUMBER when it has none.
 */
export function houseNumberValue(number: string): number {
  const m = /^\s*(\d{1,6})(?:\s*-\s*(\d{1,3}))?/.exec(number);
  if (!m) return NO_NUMBER;
  const head = Number(m[1]);
  return m[2] !== undefined ? head * 1000 + Number(m[2]) : head;
}

/** 0 for even, 1 for odd house numbers: US streets keep each parity on one side. */
export function parity(value: number): number {
  return value % 2;
}

/** The search key of a house number: `89-12` and `89 12` both become `89 12`, `12A` becomes `12a`. */
export function houseNumberKey(number: string): string {
  return normalizeName(number);
}
