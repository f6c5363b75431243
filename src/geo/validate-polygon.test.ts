import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { polygonContains } from './polygon-contains.js';
import { preparePolygon } from './prepare-polygon.js';
import type { Position, Ring } from './types.js';
import { validatePolygon } from './validate-polygon.js';

/** `'lon lat, lon lat, …'` to a ring. */
function ring(text: string): Ring {
  return text.split(',').map((pair): Position => {
    const [lon, lat] = pair.trim().split(/\s+/).map(Number);
    return [lon!, lat!];
  });
}

const OUTER = ring('0 0, 10 0, 10 10, 0 10, 0 0');
const HOLE = ring('2 2, 4 2, 4 4, 2 4, 2 2');

function reasonOf(rings: unknown[]): string {
  const result = validatePolygon(rings);
  assert.equal(result.ok, false, 'expected a rejection');
  return result.ok ? '' : result.reason;
}

describe('validatePolygon', () => {
  it('takes holes inside the outer ring and apart from each other', () => {
    const other = ring('6 6, 8 6, 8 8, 6 8, 6 6');
    assert.deepEqual(validatePolygon([OUTER, HOLE, other]), { ok: true, rings: [OUTER, HOLE, other] });
  });

  it('refuses a hole outside the outer ring (a point in it was inside the fence)', () => {
    const stray = ring('20 20, 22 20, 22 22, 20 22, 20 20');
    assert.equal(reasonOf([OUTER, stray]), 'ring 1 (a hole) must lie inside the outer ring (ring 0)');
  });

  it('refuses a hole crossing or touching the outer ring, and holes meeting each other', () => {
    assert.equal(
      reasonOf([OUTER, ring('8 8, 12 8, 12 9, 8 8')]),
      'ring 1 (a hole) must not touch or cross the outer ring (its edge 0 and edge 1 of ring 0 cross)',
    );
    assert.match(reasonOf([OUTER, ring('0 5, 2 4, 2 6, 0 5')]), /^ring 1 \(a hole\) must not touch or cross the outer/);
    assert.equal(
      reasonOf([OUTER, HOLE, ring('3 3, 6 3, 6 6, 3 3')]),
      'rings 1 and 2 (holes) must not touch or cross each other (edges 2 and 2 touch)',
    );
    assert.match(reasonOf([OUTER, HOLE, ring('4 4, 6 4, 6 6, 4 4')]), /^rings 1 and 2 \(holes\) must not touch/);
  });

  it('refuses a hole inside another hole', () => {
    const big = ring('1 1, 9 1, 9 9, 1 9, 1 1');
    assert.equal(reasonOf([OUTER, big, HOLE]), 'ring 2 (a hole) must not lie inside ring 1, another hole');
  });

  it('counts the positions of all rings against the limit of 10,000', () => {
    const square = (x: number): Ring => ring(`${x} 1, ${x + 0.001} 1, ${x + 0.001} 1.001, ${x} 1.001, ${x} 1`);
    const outer = ring('0 0, 10 0, 10 10, 0 10, 0 0');
    const holes = Array.from({ length: 2000 }, (_, i) => square(0.5 + i * 0.004));
    const result = validatePolygon([outer, ...holes]);
    assert.equal(result.ok, false);
    assert.equal(
      result.ok ? '' : result.reason,
      'must have at most 10000 positions in all its rings together (it has 10005)',
    );
    assert.equal(validatePolygon([outer, ...holes.slice(0, 1999)]).ok, true);
  });

  it('names a ring that fails on its own', () => {
    assert.equal(
      reasonOf([OUTER, ring('2 2, 4 4, 4 2, 2 4, 2 2')]),
      'ring 1 must not intersect itself (edges 0 and 2 cross)',
    );
  });

  it('compares holes across the antimeridian as containment reads them', () => {
    const outer = ring('179 -1, -179 -1, -179 1, 179 1, 179 -1');
    const hole = ring('-179.8 -0.5, -179.5 -0.5, -179.5 0.5, -179.8 0.5, -179.8 -0.5');
    assert.equal(validatePolygon([outer, hole]).ok, true);
    const fence = preparePolygon({ type: 'Polygon', coordinates: [outer, hole] });
    assert.equal(polygonContains(fence, -179.6, 0), false, 'in the hole');
    assert.equal(polygonContains(fence, 179.5, 0), true, 'in the fence');
  });
});

describe('polygonContains with a hole stored before holes were checked', () => {
  it('keeps a point in a stray hole outside the fence', () => {
    const stray = ring('20 20, 22 20, 22 22, 20 22, 20 20');
    const fence = preparePolygon({ type: 'Polygon', coordinates: [OUTER, stray] });
    assert.equal(polygonContains(fence, 21, 21), false);
    assert.equal(polygonContains(fence, 5, 5), true);
    const holed = preparePolygon({ type: 'Polygon', coordinates: [OUTER, HOLE] });
    assert.equal(polygonContains(holed, 3, 3), false);
    assert.equal(polygonContains(holed, 2, 3), true, 'the hole boundary is inside');
  });
});
