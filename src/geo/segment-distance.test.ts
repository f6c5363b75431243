import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { segmentDistanceSquared } from './segment-distance.js';

describe('segmentDistanceSquared', () => {
  it('measures to the foot of the perpendicular when it falls on the segment', () => {
    assert.equal(segmentDistanceSquared(-5, 3, 5, 3), 9);
    assert.equal(segmentDistanceSquared(4, -10, 4, 10), 16);
  });

  it('measures to the nearer end when the foot falls beyond it', () => {
    assert.equal(segmentDistanceSquared(3, 4, 10, 4), 25);
    assert.equal(segmentDistanceSquared(10, 4, 3, 4), 25);
    assert.equal(segmentDistanceSquared(-6, -8, -20, -8), 100);
  });

  it('is zero for a segment through the origin and measures a zero-length one to its point', () => {
    assert.equal(segmentDistanceSquared(-1, -1, 1, 1), 0);
    assert.equal(segmentDistanceSquared(3, 4, 3, 4), 25);
  });
});
