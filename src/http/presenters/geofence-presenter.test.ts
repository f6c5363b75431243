import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeCircleGeofence } from '../../../test/helpers/fixtures.js';
import type { Geofence } from '../../domain/geofences/geofence.js';
import { buildGeofenceShape } from '../../domain/geofences/geofence-shape.js';
import { leanGeofence } from '../../domain/tracking/lean-geofence.js';
import { geofenceJson, presentGeofence } from './geofence-presenter.js';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');

const circle = makeCircleGeofence({ projectId: 'p', live: false }, { id: 'g1', createdAt: NOW - 1000, updatedAt: NOW });

const polygon: Geofence = {
  ...circle,
  id: 'g2',
  tag: null,
  externalId: null,
  // Text that looks like the spliced field must not fool the splice.
  description: '"geometry":{} ,}',
  type: 'polygon',
  ...buildGeofenceShape(
    'polygon',
    [
      [179.9, 10],
      [-179.9, 10],
      [-179.9, 10.1],
      [179.9, 10],
    ],
    0,
  ),
  metadata: { geometry: 'x', n: 1.5, ok: true },
  userId: 'alice',
  enabled: true,
  disableAfter: NOW - 1,
  deleteAfter: NOW + 60_000,
  stopDetection: true,
  dwellThreshold: 5,
};

describe('geofenceJson', () => {
  const cases = { circle, polygon, 'lean circle': leanGeofence(circle), 'lean polygon': leanGeofence(polygon) };
  for (const [name, g] of Object.entries(cases)) {
    it(`is the text of presentGeofence (${name})`, () => {
      assert.equal(geofenceJson(g, NOW), JSON.stringify(presentGeofence(g, NOW)));
      // Twice: the second print comes from the remembered outline.
      assert.equal(geofenceJson(g, NOW), JSON.stringify(presentGeofence(g, NOW)));
      assert.equal(geofenceJson(g, NOW, false), JSON.stringify(presentGeofence(g, NOW, { geometry: false })));
    });
  }

  it('leaves out unset fields as presentGeofence does', () => {
    const bare = {
      ...circle,
      tag: null,
      externalId: null,
      description: undefined,
      metadata: null,
    } as unknown as Geofence;
    assert.equal(geofenceJson(bare, NOW, false), JSON.stringify(presentGeofence(bare, NOW, { geometry: false })));
    assert.doesNotMatch(geofenceJson(bare, NOW), /"tag"|"metadata"|"description"/);
  });
});
