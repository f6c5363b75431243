import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { iso } from './wire.js';

describe('iso', () => {
  it('prints what Date#toISOString prints', () => {
    const edges = [0, 1, 999, 86_399_999, 86_400_000, 951_782_400_000, 951_868_799_999, 4_107_542_400_000];
    const far = [253_402_300_799_999, 253_402_300_800_000, -1, -62_198_755_200_000, 1.5];
    let seed = 7;
    const random = () => {
      seed = (seed * 16_807) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    const randoms = Array.from({ length: 20_000 }, () => Math.floor(random() * 253_402_300_800_000));
    for (const ms of [...edges, ...far, ...randoms]) assert.equal(iso(ms), new Date(ms).toISOString(), String(ms));
    assert.equal(iso(null), undefined);
    assert.throws(() => iso(Number.NaN), RangeError);
  });

  it('prints a time again, after another, as it printed it first (the last one is kept)', () => {
    const [a, b] = [1_764_400_000_123, 1_764_400_000_124];
    for (const ms of [a, a, b, a, 1.5, a, -1, b, b]) assert.equal(iso(ms), new Date(ms).toISOString(), String(ms));
  });
});
