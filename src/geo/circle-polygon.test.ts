import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { circleFencePolygon, circlePolygon } from './circle-polygon.js';
import { distanceMeters } from './distance-meters.js';
import { findSelfIntersection } from './find-self-intersection.js';
import { polygonContains } from './polygon-contains.js';
import { preparedPolygonBBoxes, preparePolygon } from './prepare-polygon.js';
import type { Position, Ring } from './types.js';

/** Twice the signed area in the lon/lat plane: positive for counter-clockwise rings. */
function signedArea2(ring: Ring): number {
  let sum = 0;
  for (let i = 0; i + 1 < ring.length; i++) sum += ring[i]![0] * ring[i + 1]![1] - ring[i + 1]![0] * ring[i]![1];
  return sum;
}

function outer(center: Position, radiusMeters: number, vertices?: number): Ring {
  return circlePolygon(center, radiusMeters, vertices).coordinates[0]!;
}

describe('circlePolygon', () => {
  it('returns one closed counter-clockwise ring of vertices + 1 positions, first vertex due north', () => {
    const center: Position = [-73.98, 40.75];
    const ring = outer(center, 1000);
    assert.equal(ring.length, 65);
    assert.deepEqual(ring[64], ring[0]);
    assert.ok(signedArea2(ring) > 0, 'counter-clockwise');
    assert.ok(Math.abs(ring[0]![0] - center[0]) < 1e-12 && ring[0]![1] > center[1], 'starts due north');
    assert.equal(outer(center, 1000, 8).length, 9);
  });

  it('puts every vertex at the radius within 0.5%', () => {
    for (const [center, radius] of [
      [[0, 0], 50],
      [[2.35, 48.85], 1000],
      [[151.2, -33.87], 25_000],
      [[-179.99, 65], 5000],
    ] as [Position, number][]) {
      for (const vertex of outer(center, radius)) {
        const d = distanceMeters(center, vertex);
        assert.ok(Math.abs(d - radius) <= radius * 0.005, `${d} vs ${radius} around ${center}`);
      }
    }
  });

  it('keeps longitudes continuous over the antimeridian instead of jumping by 360', () => {
    const ring = outer([179.99, 0], 5000);
    const lons = ring.map((p) => p[0]);
    assert.ok(Math.max(...lons) > 180, 'runs past 180');
    assert.ok(Math.min(...lons) > 179.9, 'never jumps to -180');
    assert.equal(findSelfIntersection(ring), null);
    const fence = preparePolygon(circlePolygon([179.99, 0], 5000));
    assert.equal(polygonContains(fence, -179.99, 0), true, 'the western side of the antimeridian is inside');
    assert.equal(polygonContains(fence, 179.9, 0), false, '11 km west is outside');
  });

  it('turns a circle around a pole into a simple polar cap, not garbage', () => {
    for (const [center, poleLat] of [
      [[0, 90], 90],
      [[30, 89.9], 90],
      [[-120, -89.95], -90],
    ] as [Position, number][]) {
      const ring = outer(center, 20_000);
      assert.equal(ring.length, 70, 'vertices + 6');
      assert.ok(
        ring.every(([lon, lat]) => Number.isFinite(lon) && lat >= -90 && lat <= 90 && Math.abs(lon) <= 360),
        'finite, in range',
      );
      assert.ok(
        ring.some(([, lat]) => lat === poleLat),
        'closes along the pole',
      );
      assert.ok(signedArea2(ring) > 0, 'counter-clockwise');
      assert.equal(findSelfIntersection(ring), null, 'simple');
      const fence = preparePolygon({ type: 'Polygon', coordinates: [ring] });
      assert.equal(polygonContains(fence, 77, poleLat * 0.9999), true, 'near the pole is inside');
      assert.equal(polygonContains(fence, -100, poleLat), true, 'the pole is inside');
      assert.equal(polygonContains(fence, 77, poleLat * 0.99), false, '100 km from the pole is outside');
      const boxes = preparedPolygonBBoxes(fence);
      assert.deepEqual(boxes.length, 1);
      assert.deepEqual([boxes[0]![0], boxes[0]![2]], [-180, 180]);
    }
  });

  it('rejects a radius or vertex count it cannot draw', () => {
    assert.throws(() => circlePolygon([0, 0], 0), RangeError);
    assert.throws(() => circlePolygon([0, 0], -5), RangeError);
    assert.throws(() => circlePolygon([0, 0], Number.NaN), RangeError);
    assert.throws(() => circlePolygon([0, 0], 100, 2), RangeError);
    assert.throws(() => circlePolygon([0, 0], 100, 6.5), RangeError);
  });
});

describe('circleFencePolygon', () => {
  it('is the 64-gon with positions at 6 decimal places, still closed and within centimeters of the radius', () => {
    for (const center of [
      [-73.98, 40.75],
      [179.999, -12.3456789],
      [10.5, 89.9995],
    ] as Position[]) {
      const ring = circleFencePolygon(center, 250).coordinates[0]!;
      const exact = outer(center, 250, 64);
      assert.equal(ring.length, exact.length);
      assert.deepEqual(ring[ring.length - 1], ring[0]);
      for (const [i, p] of ring.entries()) {
        for (const x of p) assert.equal(x, Number(x.toFixed(6)), `${x} has at most 6 decimals`);
        assert.ok(distanceMeters(p, exact[i]!) < 0.1, 'within 10 cm of the exact vertex');
      }
    }
  });
});
