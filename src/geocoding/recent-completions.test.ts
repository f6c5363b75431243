import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GeodataPack } from '../geodata/pack.js';
import type { GeocodeAddress } from './address.js';
import { recentCompletions } from './recent-completions.js';

// recentCompletions only keys its state by the pack object.
const fakePack = () => ({}) as GeodataPack;
const answer = (label: string): GeocodeAddress[] => [
  {
    latitude: 0,
    longitude: 0,
    geometry: { type: 'Point', coordinates: [0, 0] },
    formattedAddress: label,
    addressLabel: label,
    layer: 'locality',
  },
];

test('a query asked once is not kept; asked again soon, its answer is kept and shared', () => {
  const pack = fakePack();
  let computed = 0;
  const compute = () => {
    computed++;
    return answer('x');
  };
  const first = recentCompletions(pack, 'san f', compute);
  const second = recentCompletions(pack, 'san f', compute);
  assert.equal(computed, 2, 'the first sighting is not kept');
  const third = recentCompletions(pack, 'san f', compute);
  assert.equal(computed, 2, 'the second is');
  assert.notEqual(first[0], second[0]);
  assert.equal(third[0], second[0], 'a hit answers with the kept addresses');
  assert.notEqual(third, second, 'each caller gets its own array');
});

test('a query is forgotten after thousands of others, and each pack keeps its own', () => {
  const pack = fakePack();
  let computed = 0;
  const compute = () => {
    computed++;
    return answer('y');
  };
  recentCompletions(pack, 'honol', compute);
  for (let i = 0; i < 50_000; i++) recentCompletions(pack, `other ${i}`, () => []);
  recentCompletions(pack, 'honol', compute);
  assert.equal(computed, 2);
  recentCompletions(pack, 'honol', compute);
  assert.equal(computed, 3, 'seen long after its first sighting: a first sighting again');
  recentCompletions(pack, 'honol', compute);
  assert.equal(computed, 3, 'then kept');
  recentCompletions(fakePack(), 'honol', compute);
  assert.equal(computed, 4, 'another pack has nothing kept');
});

test('a query seen again only after more other queries than the cache holds is not kept yet', () => {
  const pack = fakePack();
  const keys = Array.from({ length: 20 }, (_, i) => `query ${i}`);
  let computed = 0;
  const ask = (k: string) =>
    recentCompletions(pack, k, () => {
      computed++;
      return answer(k);
    });
  keys.forEach(ask);
  // More than the cache's 4,096 entries: an LRU cache would have dropped the first answers by now.
  for (let i = 0; i < 5_000; i++) recentCompletions(pack, `other ${i}`, () => []);
  computed = 0;
  keys.forEach(ask);
  assert.equal(computed, 20, 'none kept at the second sighting');
  keys.forEach(ask);
  assert.equal(computed, 40, 'kept at the third, which came soon after the second');
  keys.forEach(ask);
  assert.equal(computed, 40, 'the fourth is answered from the cache');
});
