import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type GeodataPack, openGeodataPack } from '../geodata/pack.js';
import { sharedTestPack } from '../geodata/test-pack.js';
import { fineAddress } from './fine-address.js';

let pack: GeodataPack;
before(async () => {
  pack = await openGeodataPack((await sharedTestPack()).dataDir);
});

/** Two points of one ~1 km cell (0.01°) in different ZIP code areas, found on a grid over Honolulu. */
function pointsAcrossAZipLine(): [[number, number], [number, number]] | undefined {
  for (let lat = 21.29; lat < 21.33; lat += 0.01)
    for (let lon = -157.87; lon < -157.81; lon += 0.01) {
      const seen = new Map<string, [number, number]>();
      for (let i = -4; i <= 4; i++)
        for (let j = -4; j <= 4; j++) {
          const p: [number, number] = [lon + i * 0.001, lat + j * 0.001];
          const zip = pack.regionsAt(p[0], p[1]).postalCode?.code;
          if (zip && !seen.has(zip)) seen.set(zip, p);
        }
      if (seen.size >= 2) {
        const [a, b] = [...seen.values()];
        return [a!, b!];
      }
    }
  return undefined;
}

describe('fineAddress', () => {
  it('gives each point its own ZIP code, whatever was asked before it in the same cell', () => {
    const pair = pointsAcrossAZipLine();
    assert.ok(pair, 'the test pack has Honolulu ZIP code areas that meet inside a cell');
    const [a, b] = pair;
    const orders: Array<[[number, number], [number, number]]> = [
      [a, b],
      [b, a],
    ];
    for (const [first, second] of orders) {
      const one = fineAddress(pack, first[0], first[1], 'address', '1 Test St');
      const two = fineAddress(pack, second[0], second[1], 'address', '2 Test St');
      assert.equal(one.postalCode, pack.regionsAt(first[0], first[1]).postalCode?.code);
      assert.equal(two.postalCode, pack.regionsAt(second[0], second[1]).postalCode?.code);
      assert.notEqual(one.postalCode, two.postalCode);
    }
  });

  it('gives a point the same city whichever point of its cell was asked about first', async () => {
    const [a, b] = pointsAcrossAZipLine()!;
    // Another opening of the pack starts with no cells kept: there `b` is asked about first.
    const fresh = await openGeodataPack((await sharedTestPack()).dataDir);
    const afterA = fineAddress(pack, b[0], b[1], 'address', '2 Test St').city;
    assert.ok(afterA);
    assert.equal(fineAddress(fresh, b[0], b[1], 'address', '2 Test St').city, afterA);
    assert.equal(fineAddress(fresh, a[0], a[1], 'address', '1 Test St').city, afterA, 'one city per cell');
  });
});
