import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { destinationPoint, distanceMeters, EARTH_RADIUS_METERS, normalizeLongitude } from './distance-meters.js';
import type { Position } from './types.js';

const JFK: Position = [-73.7781, 40.6413];
const LAX: Position = [-118.4085, 33.9416];

function near(actual: number, expected: number, tolerance: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} not within ${tolerance} of ${expected}`);
}

describe('distanceMeters', () => {
  it('measures JFK to LAX as about 3,983 km (within 0.5%)', () => {
    near(distanceMeters(JFK, LAX), 3_983_000, 3_983_000 * 0.005, 'JFK-LAX');
  });

  it('is symmetric and zero for the same point, including null island', () => {
    assert.equal(distanceMeters(JFK, LAX), distanceMeters(LAX, JFK));
    assert.equal(distanceMeters([0, 0], [0, 0]), 0);
  });

  it('gives a quarter meridian from the equator to a pole, and half the circumference pole to pole', () => {
    const quarter = (Math.PI / 2) * EARTH_RADIUS_METERS;
    near(distanceMeters([0, 0], [0, 90]), quarter, 1e-6, 'equator-pole');
    near(distanceMeters([10, -90], [-170, 90]), 2 * quarter, 1e-6, 'pole-pole');
  });

  it('treats every longitude at a pole as the same point', () => {
    near(distanceMeters([0, 90], [123, 90]), 0, 1e-9, 'north pole');
    near(distanceMeters([-45, -90], [179, -90]), 0, 1e-9, 'south pole');
  });

  it('goes the short way across the antimeridian', () => {
    const oneDegreeAtEquator = (Math.PI / 180) * EARTH_RADIUS_METERS;
    near(distanceMeters([179.5, 0], [-179.5, 0]), oneDegreeAtEquator, 1e-6, '179.5 to -179.5');
  });

  it('does not return NaN for antipodal points', () => {
    near(distanceMeters([0, 0], [180, 0]), Math.PI * EARTH_RADIUS_METERS, 1e-6, 'antipodes');
  });
});

describe('destinationPoint', () => {
  it('lands at the requested distance and comes back on the reverse bearing', () => {
    for (const bearing of [0, 45, 90, 135, 180, 270, 333]) {
      const there = destinationPoint(JFK, bearing, 25_000);
      near(distanceMeters(JFK, there), 25_000, 0.01, `bearing ${bearing}`);
    }
    const east = destinationPoint([0, 0], 90, 111_195.08);
    near(east[0], 1, 1e-6, 'one degree east');
    near(east[1], 0, 1e-9, 'stays on the equator');
  });

  it('normalises the longitude after crossing the antimeridian', () => {
    const p = destinationPoint([179.9, 0], 90, 22_239);
    near(p[0], -179.9, 1e-4, 'wrapped longitude');
  });

  it('follows meridians away from a pole instead of collapsing to one point', () => {
    const fromNorth = destinationPoint([0, 90], 90, 1000);
    near(fromNorth[0], 90, 1e-6, 'north pole bearing 90 -> lon 90');
    near(fromNorth[1], 90 - 1000 / ((Math.PI / 180) * EARTH_RADIUS_METERS), 1e-9, 'latitude');
    const fromSouth = destinationPoint([0, -90], 30, 1000);
    near(fromSouth[0], 30, 1e-6, 'south pole bearing 30 -> lon 30');
    const overPole = destinationPoint([0, 89.99], 0, 5_000);
    assert.ok(overPole[1] <= 90 && overPole[1] > 89.9, `latitude ${overPole[1]}`);
    near(overPole[0], 180, 1e-9, 'over the pole onto the opposite meridian');
  });
});

describe('normalizeLongitude', () => {
  it('wraps into [-180, 180] and keeps both ends of the range', () => {
    assert.deepEqual(
      [190, -190, 540, -540, 180, -180, 0, 359].map(normalizeLongitude),
      [-170, 170, 180, -180, 180, -180, 0, -1],
    );
  });
});
