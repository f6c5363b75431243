import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { NameKind } from '../geodata/name-index.js';
import { type GeodataPack, openGeodataPack } from '../geodata/pack.js';
import { sharedTestPack } from '../geodata/test-pack.js';
import { addressText } from './address-text.js';
import { entityAddress } from './entity.js';
import { localityResult } from './locality-result.js';

let pack: GeodataPack;
before(async () => {
  pack = await openGeodataPack((await sharedTestPack()).dataDir);
});

test('localityResult is entityAddress (plus distance), field for field, with its exact JSON', () => {
  const { count } = pack.localities;
  let neighborhoods = 0;
  for (let k = 0; k < 5_000; k++) {
    const id = (k * 7_919) % count;
    const distance = k % 3 === 0 ? undefined : k * 37;
    const expected = entityAddress(pack, { kind: NameKind.locality, id });
    if (distance !== undefined) expected.distance = distance;
    const got = localityResult(pack, id, distance);
    // Same keys in the same order (JSON text), same values.
    assert.equal(JSON.stringify(got), JSON.stringify(expected), `place ${id}`);
    assert.equal(addressText(got), JSON.stringify(expected), `place ${id} text`);
    if (got.layer === 'neighborhood') neighborhoods++;
  }
  assert.ok(neighborhoods > 0, 'neighbourhoods covered');
});
