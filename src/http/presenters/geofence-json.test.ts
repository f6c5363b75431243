import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeCircleGeofence } from '../../../test/helpers/fixtures.js';
import { buildGeofenceShape } from '../../domain/geofences/geofence-shape.js';
import { GeofenceJson, sharedGeofenceJson } from './geofence-json.js';
import { presentGeofence } from './geofence-presenter.js';

const fence = makeCircleGeofence(
  { projectId: 'p', live: false },
  {
    id: 'g1',
    description: 'Store',
    type: 'polygon',
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    },
    geometryCenter: [0.66, 0.33],
    geometryRadius: 50_000,
    metadata: { n: 1 },
    disableAfter: 2000,
    createdAt: 1000,
    updatedAt: 1000,
  },
);

describe('GeofenceJson', () => {
  it('prints presentGeofence, with or without geometry', () => {
    for (const geometry of [true, false]) {
      const json = new GeofenceJson({ geometry });
      assert.equal(json.of(fence, 1500), JSON.stringify(presentGeofence(fence, 1500, { geometry })));
      assert.equal(json.of(fence, 1500), JSON.stringify(presentGeofence(fence, 1500, { geometry })));
    }
  });

  it('prints a circle outline exactly as JSON.stringify does', () => {
    const circle = makeCircleGeofence(
      { projectId: 'p', live: false },
      { id: 'g2', ...buildGeofenceShape('circle', [-157.8583, 21.3069], 150) },
    );
    const json = new GeofenceJson({ geometry: true });
    assert.equal(json.of(circle, 1500), JSON.stringify(presentGeofence(circle, 1500, { geometry: true })));
  });

  it('follows `enabled` across disableAfter, either way the clock goes', () => {
    const json = new GeofenceJson({ geometry: false });
    for (const now of [1500, 2500, 1500]) {
      assert.equal(JSON.parse(json.of(fence, now)).enabled, now < 2000);
    }
  });

  it('keys by fence object: a changed fence is a new object and printed afresh', () => {
    const json = new GeofenceJson({ geometry: false });
    json.of(fence, 1500);
    const renamed = { ...fence, description: 'Renamed' };
    assert.equal(JSON.parse(json.of(renamed, 1500)).description, 'Renamed');
  });

  it('prints a list as a JSON array, and holds at most its capacity', () => {
    const json = new GeofenceJson({ geometry: false }, 1);
    const other = { ...fence, id: 'g2' };
    assert.deepEqual(
      JSON.parse(json.list([fence, other], 1500)).map((g: { _id: string }) => g._id),
      ['g1', 'g2'],
    );
    assert.equal(json.list([], 1500), '[]');
  });

  it('is one cache for the routes that print fences without geometry', () => {
    assert.equal(sharedGeofenceJson(), sharedGeofenceJson());
  });
});
