import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { circleFencePolygon } from '../../geo/circle-polygon.js';
import type { Geofence } from '../geofences/geofence.js';
import { leanGeofence } from './lean-geofence.js';

const circle = {
  id: 'c',
  type: 'circle',
  geometryCenter: [-73.98, 40.75],
  geometryRadius: 120,
  geometry: circleFencePolygon([-73.98, 40.75], 120),
  description: 'Circle',
} as unknown as Geofence;

describe('leanGeofence', () => {
  it('drops a circle drawing and redraws the same one on read, for spreads and JSON too', () => {
    const lean = leanGeofence(circle);
    assert.equal(Object.getOwnPropertyDescriptor(lean, 'geometry')?.get !== undefined, true);
    assert.deepEqual(lean.geometry, circle.geometry);
    assert.deepEqual({ ...lean }.geometry, circle.geometry);
    assert.deepEqual(JSON.parse(JSON.stringify(lean)), JSON.parse(JSON.stringify(circle)));
  });
  it('packs polygon rings, holes included, and rebuilds them on read', () => {
    const polygon = {
      ...circle,
      type: 'polygon',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
            [0, 0],
          ],
          [
            [0.2, 0.2],
            [0.4, 0.2],
            [0.4, 0.4],
            [0.2, 0.2],
          ],
        ],
      },
    } as Geofence;
    const lean = leanGeofence(polygon);
    assert.deepEqual(lean.geometry, polygon.geometry);
    assert.deepEqual(JSON.parse(JSON.stringify(lean)), JSON.parse(JSON.stringify(polygon)));
    assert.deepEqual(Object.keys(lean).sort(), Object.keys(polygon).sort());
  });
  it('keeps a polygon with three-number positions as it is', () => {
    const polygon = {
      ...circle,
      type: 'polygon',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0, 5],
            [1, 0, 5],
            [1, 1, 5],
            [0, 0, 5],
          ],
        ],
      },
    } as unknown as Geofence;
    assert.equal(leanGeofence(polygon), polygon);
  });
});
