import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { circlePolygon } from './circle-polygon.js';
import { destinationPoint, distanceMeters, METERS_PER_DEGREE } from './distance-meters.js';
import { polygonBoundaryDistanceMeters } from './polygon-boundary-distance-meters.js';
import { polygonContains } from './polygon-contains.js';
import { preparePolygon } from './prepare-polygon.js';
import type { PolygonGeometry, Position, Ring } from './types.js';

/** A square of `sideMeters` centred on `center`, axis-aligned in lon/lat. */
function square(center: Position, sideMeters: number): Ring {
  const dLat = sideMeters / 2 / METERS_PER_DEGREE;
  const dLon = dLat / Math.cos((center[1] * Math.PI) / 180);
  const [x, y] = center;
  return [
    [x - dLon, y - dLat],
    [x + dLon, y - dLat],
    [x + dLon, y + dLat],
    [x - dLon, y + dLat],
    [x - dLon, y - dLat],
  ];
}

function fence(...rings: Ring[]): ReturnType<typeof preparePolygon> {
  const geometry: PolygonGeometry = { type: 'Polygon', coordinates: rings };
  return preparePolygon(geometry);
}

function within(actual: number, expected: number, fraction: number): void {
  assert.ok(
    Math.abs(actual - expected) <= expected * fraction,
    `${actual} m, expected ${expected} m ± ${fraction * 100}%`,
  );
}

describe('polygonBoundaryDistanceMeters', () => {
  it('measures about 50 m for a point 50 m inside a 1 km square, at several latitudes', () => {
    for (const center of [
      [0, 0],
      [2.35, 48.85],
      [18.07, 59.33],
      [-58.38, -34.6],
    ] as Position[]) {
      const p = fence(square(center, 1000));
      const east = destinationPoint(center, 90, 450);
      const north = destinationPoint(center, 0, 450);
      assert.equal(polygonContains(p, east[0], east[1]), true);
      within(polygonBoundaryDistanceMeters(p, east[0], east[1]), 50, 0.01);
      within(polygonBoundaryDistanceMeters(p, north[0], north[1]), 50, 0.01);
      within(polygonBoundaryDistanceMeters(p, center[0], center[1]), 500, 0.01);
    }
  });

  it('measures how far outside a point is, and agrees with haversine to a corner', () => {
    const center: Position = [13.4, 52.5];
    const ring = square(center, 1000);
    const p = fence(ring);
    const outside = destinationPoint(center, 270, 800);
    assert.equal(polygonContains(p, outside[0], outside[1]), false);
    within(polygonBoundaryDistanceMeters(p, outside[0], outside[1]), 300, 0.01);
    const corner = ring[2]!;
    const beyond = destinationPoint(corner, 45, 2000);
    within(polygonBoundaryDistanceMeters(p, beyond[0], beyond[1]), distanceMeters(beyond, corner), 0.005);
  });

  it('is 0 on an edge or vertex', () => {
    const p = fence([
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ]);
    assert.equal(polygonBoundaryDistanceMeters(p, 0.5, 0), 0);
    assert.equal(polygonBoundaryDistanceMeters(p, 1, 1), 0);
  });

  it('counts the edges of holes', () => {
    const outer = square([0, 0], 10_000);
    const hole = square([0, 0], 1000).reverse();
    const p = fence(outer, hole);
    const nearHole = destinationPoint([0, 0], 90, 600);
    assert.equal(polygonContains(p, nearHole[0], nearHole[1]), true);
    within(polygonBoundaryDistanceMeters(p, nearHole[0], nearHole[1]), 100, 0.01);
    assert.equal(polygonContains(p, 0, 0), false, 'the middle of the hole is outside');
    within(polygonBoundaryDistanceMeters(p, 0, 0), 500, 0.01);
  });

  it('measures across the antimeridian from either side', () => {
    const p = fence(square([180, 0], 2000));
    for (const lon of [179.995, -179.995]) {
      const expected = 1000 - distanceMeters([180, 0], [lon, 0]);
      assert.equal(polygonContains(p, lon, 0), true);
      within(polygonBoundaryDistanceMeters(p, lon, 0), expected, 0.01);
    }
    const westOfIt = destinationPoint([180, 0], 270, 1500);
    within(polygonBoundaryDistanceMeters(p, westOfIt[0], westOfIt[1]), 500, 0.01);
  });

  it('tells whether a GPS accuracy circle lies wholly inside a circular fence', () => {
    const center: Position = [-73.98, 40.75];
    const p = preparePolygon(circlePolygon(center, 1000, 128));
    const user = destinationPoint(center, 30, 700);
    const d = polygonBoundaryDistanceMeters(p, user[0], user[1]);
    within(d, 300, 0.01);
    assert.ok(d > 250 && d < 350, 'an accuracy of 250 m is inside, 350 m is not');
  });

  it('is Infinity for a polygon without rings', () => {
    assert.equal(polygonBoundaryDistanceMeters(fence(), 0, 0), Number.POSITIVE_INFINITY);
  });
});
