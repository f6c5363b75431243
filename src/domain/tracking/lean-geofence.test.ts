import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeCircleGeofence, square } from '../../../test/helpers/fixtures.js';
import { heapObjectsWith } from '../../../test/helpers/heap-objects.js';
import { circleFencePolygon } from '../../geo/circle-polygon.js';
import type { Geofence } from '../geofences/geofence.js';
import { PREPARED_POLYGON, prepareGeofence } from '../geofences/prepared-geofence.js';
import { leanGeofence } from './lean-geofence.js';

const circle = makeCircleGeofence(
  { projectId: 'prj_lean_test', live: false },
  {
    id: 'c',
    geometryCenter: [-73.98, 40.75],
    geometryRadius: 120,
    geometry: circleFencePolygon([-73.98, 40.75], 120),
    description: 'Circle',
    metadata: { floor: 2 },
  },
);

/** `circle` made a polygon fence of these rings (positions of any length, as a stored document may hold). */
const polygonOf = (coordinates: number[][][]) =>
  ({ ...circle, type: 'polygon', geometry: { type: 'Polygon', coordinates } }) as Geofence;

describe('leanGeofence', () => {
  it('drops a circle drawing and redraws the same one on read, for spreads and JSON too', () => {
    const lean = leanGeofence(circle);
    assert.equal(Object.getOwnPropertyDescriptor(lean, 'geometry')?.get !== undefined, true);
    assert.deepEqual(lean.geometry, circle.geometry);
    assert.deepEqual({ ...lean }.geometry, circle.geometry);
    assert.deepEqual(JSON.parse(JSON.stringify(lean)), JSON.parse(JSON.stringify(circle)));
    assert.deepEqual(Object.keys(lean).sort(), Object.keys(circle).sort());
  });
  it('packs polygon rings, holes included, and rebuilds them on read', () => {
    const hole = [
      [0.2, 0.2],
      [0.4, 0.2],
      [0.4, 0.4],
      [0.2, 0.2],
    ];
    const polygon = polygonOf([square(0, 0, 1), hole]);
    const lean = leanGeofence(polygon);
    assert.deepEqual(lean.geometry, polygon.geometry);
    assert.deepEqual(JSON.parse(JSON.stringify(lean)), JSON.parse(JSON.stringify(polygon)));
    assert.deepEqual(Object.keys(lean).sort(), Object.keys(polygon).sort());
    // Its rings are read back from the prepared polygon, which preparing the fence then takes as it is.
    const prepared = prepareGeofence(lean);
    assert.equal(
      prepared.kind === 'polygon' && prepared.polygon,
      (lean as { [PREPARED_POLYGON]?: unknown })[PREPARED_POLYGON],
    );
  });
  it('keeps its own copy of rings that preparing would change (open, or across the antimeridian)', () => {
    for (const ring of [
      [
        [0, 0],
        [1, 0],
        [1, 1],
      ],
      [
        [179, 0],
        [-179, 0],
        [-179, 1],
        [179, 0],
      ],
    ]) {
      const polygon = polygonOf([ring]);
      const lean = leanGeofence(polygon);
      assert.notEqual(lean, polygon);
      assert.deepEqual(lean.geometry, polygon.geometry);
      assert.equal((lean as { [PREPARED_POLYGON]?: unknown })[PREPARED_POLYGON], undefined);
    }
  });
  it('keeps a polygon with three-number positions as it is', () => {
    const polygon = polygonOf([
      [
        [0, 0, 5],
        [1, 0, 5],
        [1, 1, 5],
        [0, 0, 5],
      ],
    ]);
    assert.equal(leanGeofence(polygon), polygon);
  });
  it('gives the fences of a project one project id string, where each stored document had its own', async () => {
    // Read as the store reads them: every string a new copy, the project id too.
    const stored = (i: number) =>
      JSON.parse(JSON.stringify({ ...circle, id: `c${i}`, projectId: 'prj_lean_heap', description: 'heap check' }));
    const lean = Array.from({ length: 10 }, (_, i) => leanGeofence(stored(i)));
    // The lean fences, not a stored copy still on the heap: they read their geometry through a getter.
    const onHeap = (await heapObjectsWith('description', 'heap check')).filter((o) => o.has('get geometry'));
    assert.equal(onHeap.length, 10, 'the lean fences found on the heap');
    assert.equal(new Set(onHeap.map((o) => o.get('projectId')?.node)).size, 1, 'one project id string');
    for (const o of onHeap)
      assert.notEqual(o.get('properties')?.name, 'system / PropertyArray', 'every field in the object');
    assert.equal(lean.length, 10);
  });
});
