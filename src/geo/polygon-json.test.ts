import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../../test/helpers/seeded-random.js';
import { circleFencePolygon } from './circle-polygon.js';
import { polygonJson } from './polygon-json.js';
import type { PolygonGeometry, Position } from './types.js';

/** A fresh polygon holding `values` as positions (pairs; a lone last value makes a 1-position). */
function polygonOf(values: number[]): PolygonGeometry {
  const ring: Position[] = [];
  for (let i = 0; i < values.length; i += 2) ring.push(values.slice(i, i + 2) as Position);
  return { type: 'Polygon', coordinates: [ring] };
}

function assertSameAsStringify(values: number[]): void {
  const polygon = polygonOf(values);
  assert.equal(polygonJson(polygon), JSON.stringify(polygon));
}

describe('polygonJson', () => {
  it('prints what JSON.stringify prints, for the traps of printing from millionths', () => {
    assertSameAsStringify([
      0,
      -0,
      1e-6,
      -1e-6,
      1e-7,
      -1e-7,
      0.1,
      -0.1,
      0.5,
      1.5,
      10,
      -10,
      100.1,
      180,
      -180,
      360,
      -360,
      179.999999,
      -179.999999,
      0.000101,
      40.7,
      -74.000001,
      999999.999999,
      1e6,
      -1e6,
      1e12,
      1e15,
      1e21,
      2 ** 53,
      0.1 + 0.2,
      123.4560001,
      5e-324,
      Number.MAX_VALUE,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ]);
  });

  it('prints every value of up to 6 decimals as JSON.stringify does, negative and with trailing zeros', () => {
    const values: number[] = [];
    for (let micros = -300_000; micros <= 300_000; micros++) values.push(micros / 1e6);
    const next = seededRandom(7);
    for (let i = 0; i < 50_000; i++) {
      values.push(Math.round((next() * 720 - 360) * 1e6) / 1e6);
      values.push(Math.round((next() * 2 - 1) * 1e12) / 1e6);
      for (let places = 0; places <= 6; places++)
        values.push(Math.round((next() * 720 - 360) * 10 ** places) / 10 ** places);
      values.push(next() * 360 - 180, (next() - 0.5) * 10 ** Math.floor(next() * 40 - 20));
    }
    assertSameAsStringify(values);
  });

  it('prints circle fence outlines, antimeridian and polar caps included, as JSON.stringify does', () => {
    const centers: Position[] = [
      [0, 0],
      [179.9999, 10],
      [-180, -30],
      [12.5, 89.99995],
      [-45, -90],
      [-74.002, 40.71],
    ];
    for (const center of centers) {
      for (const radius of [10, 150, 9999.5]) {
        const polygon = circleFencePolygon(center, radius);
        assert.equal(polygonJson(polygon), JSON.stringify(polygon), `${center} ${radius}`);
      }
    }
  });

  it('prints other shapes, holes, 3D positions and polygons larger than its buffer as JSON.stringify does', () => {
    const big = polygonOf(Array.from({ length: 20_000 }, (_, i) => -170 + i / 1000));
    const shapes: unknown[] = [
      big,
      { type: 'Polygon', coordinates: [] },
      { type: 'Polygon', coordinates: [[]] },
      { type: 'Polygon', coordinates: [[[1, 2, 3.25]], [[-1, -2]]] },
      { coordinates: [[[1, 2]]], type: 'Polygon' },
      { type: 'Polygon', coordinates: [[[1, 2]]], bbox: [1, 2, 1, 2] },
      { type: 'Polygon', coordinates: [[[1, '2']]] },
      // biome-ignore lint/suspicious/noSparseArray: a hole prints as null
      { type: 'Polygon', coordinates: [[[1, , 2]]] },
    ];
    for (const shape of shapes) assert.equal(polygonJson(shape as PolygonGeometry), JSON.stringify(shape));
  });

  it('keeps the text on the outline for its second print, out of sight of keys, spread and JSON', () => {
    const polygon = circleFencePolygon([2.35, 48.85], 500);
    const text = polygonJson(polygon);
    assert.equal(Object.getOwnPropertySymbols(polygon).length, 1);
    assert.deepEqual(Object.keys(polygon), ['type', 'coordinates']);
    assert.equal(JSON.stringify(polygon), text);
    assert.equal(Object.getOwnPropertySymbols({ ...polygon }).length, 0);
    assert.equal(polygonJson(polygon), text);
    const frozen = Object.freeze(circleFencePolygon([2.35, 48.85], 500));
    assert.equal(polygonJson(frozen), text);
    assert.equal(polygonJson(frozen), text);
  });

  it('answers a polygon changed after a first print with its new text', () => {
    const polygon = circleFencePolygon([2.35, 48.85], 500);
    assert.equal(polygonJson(polygon), polygonJson(polygon));
    const moved = structuredClone(polygon);
    moved.coordinates[0]![0]![0] += 1;
    assert.equal(polygonJson(moved), JSON.stringify(moved));
  });
});
