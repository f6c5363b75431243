import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Geofence } from '../domain/geofences/geofence.js';
import { buildGeofenceShape } from '../domain/geofences/geofence-shape.js';
import { geofenceDocument } from './geofence-document.js';

const fence: Geofence = {
  id: 'g1',
  projectId: 'p',
  live: true,
  tag: null,
  externalId: null,
  description: '"geometry":{} ,}',
  type: 'circle',
  ...buildGeofenceShape('circle', [179.999, -40.7], 500),
  mode: null,
  metadata: { geometry: 'x', n: -0.25 },
  userId: null,
  enabled: false,
  disableAfter: null,
  deleteAfter: 123,
  stopDetection: null,
  dwellThreshold: 3,
  createdAt: 1,
  updatedAt: 2,
};

describe('geofenceDocument', () => {
  it('reads back as the fence, twice (the second from the remembered outline)', () => {
    assert.deepEqual(JSON.parse(geofenceDocument(fence)), fence);
    assert.deepEqual(JSON.parse(geofenceDocument(fence)), fence);
  });
});
