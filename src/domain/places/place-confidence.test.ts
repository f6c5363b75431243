import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { placeConfidence } from './place-confidence.js';
import type { PlaceCandidate } from './place-service.js';

const at = (distance: number, inside = false, id = 'a', areaSquareMeters = inside ? 400 : 0): PlaceCandidate => ({
  place: { id, name: id, categories: [], location: [0, 0] },
  distance,
  inside,
  hasFootprint: inside,
  areaSquareMeters,
});

describe('placeConfidence', () => {
  it('is high inside an outline, medium near a point, low further out', () => {
    assert.equal(placeConfidence(at(0, true), [], 10), 3);
    assert.equal(placeConfidence(at(8), [], 10), 2);
    assert.equal(placeConfidence(at(40), [], 10), 1);
    assert.equal(placeConfidence(at(0, true, 'park', 200_000), [], 10), 2, 'inside a broad area');
  });

  it('drops with a coarse fix and with a rival about as near', () => {
    assert.equal(placeConfidence(at(0, true), [], 80), 2);
    assert.equal(placeConfidence(at(0, true), [], 150), 1);
    assert.equal(placeConfidence(at(0, true), [at(0, true, 'b')], 10), 2);
    assert.equal(placeConfidence(at(8), [at(11, false, 'b')], 10), 1);
    assert.equal(placeConfidence(at(8), [at(30, false, 'b')], 10), 2);
  });
});
