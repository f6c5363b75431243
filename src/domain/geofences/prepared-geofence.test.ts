import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeCircleGeofence } from '../../../test/helpers/fixtures.js';
import { circlePolygon } from '../../geo/circle-polygon.js';
import { destinationPoint } from '../../geo/distance-meters.js';
import { polygonContains } from '../../geo/polygon-contains.js';
import { preparePolygon } from '../../geo/prepare-polygon.js';
import type { Position, Ring } from '../../geo/types.js';
import type { Geofence } from './geofence.js';
import {
  containsPoint,
  distanceToGeofenceMeters,
  geofenceBBoxes,
  prepareGeofence,
  signedBoundaryDistanceMeters,
} from './prepared-geofence.js';

const C: Position = [2.35, 48.85];

function fence(over: Partial<Geofence>): Geofence {
  return makeCircleGeofence(
    { projectId: 'p', live: true },
    {
      id: 'g',
      tag: null,
      externalId: null,
      description: '',
      geometry: circlePolygon(C, 1000),
      geometryCenter: C,
      geometryRadius: 1000,
      createdAt: 0,
      updatedAt: 0,
      ...over,
    },
  );
}

// A 0.02° square around C with a 0.01° square hole in its middle.
const outer: Ring = [
  [2.34, 48.84],
  [2.36, 48.84],
  [2.36, 48.86],
  [2.34, 48.86],
  [2.34, 48.84],
];
const hole: Ring = [
  [2.345, 48.845],
  [2.355, 48.845],
  [2.355, 48.855],
  [2.345, 48.855],
  [2.345, 48.845],
];
const square = fence({
  type: 'polygon',
  geometry: { type: 'Polygon', coordinates: [outer, hole] },
  geometryRadius: 1300,
});

describe('prepareGeofence: circles', () => {
  const pg = prepareGeofence(fence({}));

  it('tests the exact circle, not its 64-gon', () => {
    // Between two vertices the 64-gon's chord lies about 1.2 m inside the 1000 m circle.
    const p = destinationPoint(C, 360 / 128, 999.5);
    assert.equal(polygonContains(preparePolygon(fence({}).geometry), p[0], p[1]), false);
    assert.equal(containsPoint(pg, p[0], p[1]), true);
    assert.ok(Math.abs(signedBoundaryDistanceMeters(pg, p[0], p[1]) - 0.5) < 1e-6);
  });

  it('signs the boundary distance: positive inside, negative outside', () => {
    const out = destinationPoint(C, 90, 1250);
    assert.ok(Math.abs(signedBoundaryDistanceMeters(pg, C[0], C[1]) - 1000) < 1e-6);
    assert.ok(Math.abs(signedBoundaryDistanceMeters(pg, out[0], out[1]) + 250) < 1e-6);
    assert.equal(containsPoint(pg, out[0], out[1]), false);
    assert.ok(Math.abs(distanceToGeofenceMeters(pg, out[0], out[1]) - 250) < 1e-6);
    assert.equal(distanceToGeofenceMeters(pg, C[0], C[1]), 0);
  });

  it('uses the radius as its size and the exact circle box', () => {
    assert.equal(pg.sizeMeters, 1000);
    const [box] = geofenceBBoxes(pg);
    const north = destinationPoint(C, 0, 1000);
    assert.ok(box && Math.abs(box[3] - north[1]) < 1e-9);
  });

  it('contains points across the antimeridian', () => {
    const am = prepareGeofence(fence({ geometryCenter: [179.999, 0], geometry: circlePolygon([179.999, 0], 500) }));
    assert.equal(containsPoint(am, -179.999, 0), true);
    assert.equal(geofenceBBoxes(am).length, 2);
  });
});

describe('prepareGeofence: polygons', () => {
  const pg = prepareGeofence(square);

  it('counts the boundary (outer ring and hole ring) as inside', () => {
    assert.equal(containsPoint(pg, 2.34, 48.85), true);
    assert.equal(containsPoint(pg, 2.345, 48.85), true);
    assert.ok(signedBoundaryDistanceMeters(pg, 2.34, 48.85) >= 0);
  });

  it('excludes the hole, where the signed distance is negative', () => {
    assert.equal(containsPoint(pg, 2.35, 48.85), false);
    const d = signedBoundaryDistanceMeters(pg, 2.35, 48.85);
    // 0.005° of longitude at 48.85° N is about 366 m.
    assert.ok(d < -360 && d > -370, String(d));
  });

  it('is inside by the distance to the nearest ring between hole and outer ring', () => {
    const d = signedBoundaryDistanceMeters(pg, 2.3425, 48.85);
    assert.ok(d > 180 && d < 185, String(d));
  });

  it('is never inside by 0 when outside: containsPoint is signed >= 0', () => {
    const d = signedBoundaryDistanceMeters(pg, 2.3399999999, 48.85);
    assert.equal(d >= 0, containsPoint(pg, 2.3399999999, 48.85));
  });

  it('uses geometryRadius as the size of a polygon and the farthest vertex for an isochrone', () => {
    assert.equal(pg.sizeMeters, 1300);
    const iso = prepareGeofence({ ...square, type: 'isochrone', geometryRadius: 10, geometry: { ...square.geometry } });
    assert.ok(iso.sizeMeters > 1000 && iso.sizeMeters < 1400, String(iso.sizeMeters));
  });
});
