import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PlaceCandidate } from './place-service.js';
import { takesOver } from './places-tracker.js';

const c = (id: string, distance: number, inside = false, areaSquareMeters = inside ? 400 : 0): PlaceCandidate => ({
  place: { id, name: id, categories: [], location: [0, 0] },
  distance,
  inside,
  hasFootprint: inside,
  areaSquareMeters,
});

describe('takesOver', () => {
  it('lets a more telling place replace the current one', () => {
    const park = c('park', 0, true, 500_000);
    assert.equal(takesOver(c('cafe', 5), 'park', park), true, 'a café near the user beats the park around them');
    assert.equal(takesOver(c('shop', 0, true), 'cafe', c('cafe', 10)), true, 'inside a shop beats near a café');
    assert.equal(takesOver(park, 'cafe', c('cafe', 10)), false);
  });

  it('keeps the current place among equals unless another is clearly nearer', () => {
    assert.equal(takesOver(c('b', 8), 'a', c('a', 12)), false, 'jitter between neighbours');
    assert.equal(takesOver(c('b', 3), 'a', c('a', 40)), true, 'walked on to the next shop');
    assert.equal(takesOver(c('b', 0, true), 'a', c('a', 0, true)), false, 'nested outlines');
    assert.equal(takesOver(c('a', 3), 'a', c('a', 3)), false);
  });

  it('gives way to any near place once the current one is only in its exit margin', () => {
    assert.equal(takesOver(c('b', 25), 'a', undefined), true);
    assert.equal(takesOver(c('park', 0, true, 500_000), 'a', undefined), false);
  });
});
