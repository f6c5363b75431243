import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acrossAntimeridian } from '../../test/helpers/fixtures.js';
import { circlePolygon } from './circle-polygon.js';
import { distanceMeters } from './distance-meters.js';
import { approximateRadiusMeters, ringCentroid } from './ring-centroid.js';
import type { Position, Ring } from './types.js';

function close(actual: Position, expected: Position, tolerance = 1e-9): void {
  assert.ok(
    Math.abs(actual[0] - expected[0]) <= tolerance && Math.abs(actual[1] - expected[1]) <= tolerance,
    `${JSON.stringify(actual)} is not ${JSON.stringify(expected)}`,
  );
}

describe('ringCentroid', () => {
  it('finds the middle of a square around null island, in either winding order', () => {
    const square: Ring = [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
      [-1, -1],
    ];
    close(ringCentroid(square), [0, 0]);
    close(ringCentroid([...square].reverse()), [0, 0]);
  });

  it('weights by area, not by vertex count', () => {
    // An L: a 2x1 block plus a 1x1 block on top of its left half; many vertices on the short side.
    const l: Ring = [
      [0, 0],
      [2, 0],
      [2, 1],
      [1, 1],
      [1, 2],
      [0, 2],
      [0, 1.5],
      [0, 1],
      [0, 0.5],
      [0, 0],
    ];
    close(ringCentroid(l), [5 / 6, 5 / 6]);
  });

  it('puts the centroid of a fence over the antimeridian near 180, normalised', () => {
    const [lon, lat] = ringCentroid(acrossAntimeridian(179));
    assert.ok(Math.abs(Math.abs(lon) - 180) < 1e-9, `lon ${lon}`);
    assert.ok(Math.abs(lat) < 1e-9);
    const west: Ring = [
      [177, 0],
      [-179, 0],
      [-179, 2],
      [177, 2],
      [177, 0],
    ];
    close(ringCentroid(west), [179, 1]);
    const east: Ring = [
      [179.5, 0],
      [-177.5, 0],
      [-177.5, 1],
      [179.5, 1],
      [179.5, 0],
    ];
    close(ringCentroid(east), [-179, 0.5]);
  });

  it('falls back to the vertex mean for a zero-area ring', () => {
    close(
      ringCentroid([
        [0, 0],
        [3, 0],
        [9, 0],
        [0, 0],
      ]),
      [4, 0],
    );
    close(
      ringCentroid([
        [1, 1],
        [2, 2],
        [3, 3],
        [1, 1],
      ]),
      [2, 2],
    );
    close(ringCentroid([[5, 5]]), [5, 5]);
  });

  it('recovers the center of a circle polygon', () => {
    const center: Position = [-122.42, 37.77];
    const c = ringCentroid(circlePolygon(center, 2000).coordinates[0]!);
    assert.ok(distanceMeters(c, center) < 5, `${distanceMeters(c, center)} m off`);
  });

  it('throws on an empty ring', () => {
    assert.throws(() => ringCentroid([]), RangeError);
  });
});

describe('approximateRadiusMeters', () => {
  it('is the distance to the farthest vertex, so the circle covers the fence', () => {
    const center: Position = [0, 0];
    const ring: Ring = [
      [0.01, 0],
      [0, 0.02],
      [-0.01, 0],
      [0.01, 0],
    ];
    assert.equal(approximateRadiusMeters(ring, center), distanceMeters(center, [0, 0.02]));
  });

  it('matches the radius of a circle polygon and measures across the antimeridian', () => {
    const r = approximateRadiusMeters(circlePolygon([179.999, 10], 3000).coordinates[0]!, [179.999, 10]);
    assert.ok(Math.abs(r - 3000) < 1, `${r}`);
    const fence: Ring = [
      [179.99, 0],
      [-179.99, 0],
      [-179.99, 0.01],
      [179.99, 0],
    ];
    assert.ok(approximateRadiusMeters(fence, [180, 0]) < 2000);
  });

  it('is 0 for an empty ring', () => {
    assert.equal(approximateRadiusMeters([], [1, 2]), 0);
  });
});
