/**
 * The home entry of `hash` in an open-addressed table of 2^`bits` entries: multiplicative (Fibonacci)
 * hashing, which takes the product's high bits, so hashes with weak low bits still spread.
 */
export function tableHome(hash: number, bits: number): number {
  return Math.imul(hash, 0x9e3779b1) >>> (32 - bits);
}
