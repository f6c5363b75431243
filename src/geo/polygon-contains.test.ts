import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { polygonContains } from './polygon-contains.js';
import { preparePolygon } from './prepare-polygon.js';
import type { PolygonGeometry, Position, Ring } from './types.js';

function polygon(...rings: Ring[]): PolygonGeometry {
  return { type: 'Polygon', coordinates: rings };
}

/** `'lon lat, lon lat, …'` to positions: keeps the golden fixtures one line each. */
function positions(text: string): Position[] {
  return text.split(',').map((pair): Position => {
    const [lon, lat] = pair.trim().split(/\s+/).map(Number);
    return [lon!, lat!];
  });
}

const SQUARE_WITH_HOLE = ['0 0, 10 0, 10 10, 0 10, 0 0', '4 4, 4 6, 6 6, 6 4, 4 4'];

/** Golden fixtures: the rings of a fence, points that must be inside it and points that must not. */
const FIXTURES: { name: string; rings: string[]; inside: string; outside: string }[] = [
  {
    name: 'a fence over the antimeridian, given in -180..180 form',
    rings: ['179 -1, -179 -1, -179 1, 179 1, 179 -1'],
    inside: '179.5 0, -179.5 0, 180 0, -180 0.5, 179 0, -179 -1',
    outside: '0 0, 178.9 0, -178.9 0, 179.5 1.1, 1 0',
  },
  {
    name: 'the same fence given in continuous form (181)',
    rings: ['179 -1, 181 -1, 181 1, 179 1, 179 -1'],
    inside: '179.5 0, -179.5 0, 180 1',
    outside: '0 0, 1 0, -178.5 0',
  },
  {
    name: 'a fence starting west of the antimeridian, drawn clockwise',
    rings: ['-179 -1, -179 1, 179 1, 179 -1, -179 -1'],
    inside: '179.5 0, -179.5 0',
    outside: '0 0, -178 0, 178 0',
  },
  {
    name: 'a square around null island',
    rings: ['-0.001 -0.001, 0.001 -0.001, 0.001 0.001, -0.001 0.001, -0.001 -0.001'],
    inside: '0 0, 0.001 0, -0.0005 0.0009',
    outside: '0.0011 0, 0 -0.0011, -0.0011 0.0011',
  },
  {
    name: 'a square with a hole',
    rings: SQUARE_WITH_HOLE,
    inside: '1 1, 3.9 5, 9 9, 5 3.9',
    outside: '5 5, 4.5 5.5, 11 5, -1 5',
  },
  {
    name: 'points exactly on the boundary of a square with a hole',
    rings: SQUARE_WITH_HOLE,
    inside: '0 0, 10 10, 5 0, 10 3.3, 0 7.77, 4 5, 6 6, 5 4, 4.4 6',
    outside: '10.0000001 5, 5 -0.0000001',
  },
  {
    name: 'a triangle with slanted edges, on and just off them',
    rings: ['0.1 0.2, 0.7 0.3, 0.3 0.9, 0.1 0.2'],
    inside: '0.4 0.25, 0.5 0.6, 0.2 0.55, 0.35 0.45',
    outside: '0.4 0.249999, 0.500001 0.6, 0.199999 0.55',
  },
  {
    name: 'a concave C shape (rays that pass through vertices)',
    rings: ['0 0, 3 0, 3 1, 1 1, 1 2, 3 2, 3 3, 0 3, 0 0'],
    inside: '0.5 1, 0.5 2, 2 0.5, 2 2.5, 2 1, 2 2',
    outside: '2 1.5, -1 1, -1 2, 4 1, 4 0',
  },
  {
    name: 'a cap around the north pole, closed along latitude 90',
    rings: ['-180 89, -60 89, 60 89, 180 89, 180 90, 60 90, -60 90, -180 90, -180 89'],
    inside: '0 89.5, 180 89.5, -180 89.5, 123 90, -77 89',
    outside: '0 88.9, 0 -89.5',
  },
  {
    name: 'a fence touching the south pole',
    rings: ['0 -89, 10 -89, 10 -90, 0 -90, 0 -89'],
    inside: '5 -89.5, 5 -90',
    outside: '20 -89.5, 5 -88',
  },
];

describe('polygonContains: golden fixtures', () => {
  for (const { name, rings, inside, outside } of FIXTURES) {
    it(name, () => {
      const fence = preparePolygon(polygon(...rings.map(positions)));
      for (const [lon, lat] of positions(inside))
        assert.equal(polygonContains(fence, lon, lat), true, `[${lon}, ${lat}] in`);
      for (const [lon, lat] of positions(outside)) {
        assert.equal(polygonContains(fence, lon, lat), false, `[${lon}, ${lat}] out`);
      }
    });
  }
});

describe('polygonContains: edge behaviour', () => {
  it('treats the winding order of the rings as irrelevant', () => {
    const ccw: Ring = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ];
    const fence = preparePolygon(polygon([...ccw].reverse()));
    assert.equal(polygonContains(fence, 0.5, 0.5), true);
    assert.equal(polygonContains(fence, 1.5, 0.5), false);
  });

  it('wraps query longitudes outside [-180, 180]', () => {
    const fence = preparePolygon(
      polygon([
        [179, -1],
        [-179, -1],
        [-179, 1],
        [179, 1],
        [179, -1],
      ]),
    );
    assert.equal(polygonContains(fence, 180.5, 0), true);
    assert.equal(polygonContains(fence, -539.5, 0), true);
    assert.equal(polygonContains(fence, 360, 0), false);
  });

  it('contains nothing for NaN or an empty polygon', () => {
    const fence = preparePolygon(
      polygon([
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 0],
      ]),
    );
    assert.equal(polygonContains(fence, Number.NaN, 0.5), false);
    assert.equal(polygonContains(fence, 0.5, Number.NaN), false);
    assert.equal(polygonContains(preparePolygon(polygon()), 0, 0), false);
  });
});
