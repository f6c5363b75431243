import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OsmFile, type OsmNode, type OsmWay } from '../osm-file.js';
import { ChainCatalogue } from './chains.js';
import { extractPlaces } from './extract-places.js';

/** A square of four corner nodes (ids from `first`) around `[lon, lat]`, `size` degrees wide. */
function square(first: number, lon: number, lat: number, size: number): Array<[number, number, number]> {
  return [
    [first, lon - size, lat - size],
    [first + 1, lon + size, lat - size],
    [first + 2, lon + size, lat + size],
    [first + 3, lon - size, lat + size],
  ];
}

function osmOf(coords: Array<[number, number, number]>, tagged: OsmNode[], ways: OsmWay[]): OsmFile {
  const sorted = [...coords, ...tagged.map((n): [number, number, number] => [n.id, n.lon, n.lat])].sort(
    (a, b) => a[0] - b[0],
  );
  return new OsmFile(
    'test.osm.pbf',
    Float64Array.from(sorted, (c) => c[0]),
    Float64Array.from(sorted, (c) => c[1]),
    Float64Array.from(sorted, (c) => c[2]),
    tagged,
    ways,
    [],
  );
}

const noChains = new ChainCatalogue({ nsi: {} }, {});

describe('extractPlaces', () => {
  it('merges a point mapped again as a same-named outline, and lends a lone point its building', () => {
    const osm = osmOf(
      [...square(1, -157.83, 21.28, 0.0002), ...square(11, -157.82, 21.28, 0.0002)],
      [
        {
          id: 100,
          lon: -157.83,
          lat: 21.28,
          tags: { name: 'Kona Cafe', amenity: 'cafe', 'addr:street': 'Kalakaua Ave' },
        },
        { id: 101, lon: -157.82, lat: 21.28, tags: { name: 'Corner Bank', amenity: 'bank' } },
        { id: 102, lon: -157.81, lat: 21.28, tags: { amenity: 'bench' } },
      ],
      [
        { id: 7, refs: [1, 2, 3, 4, 1], tags: { name: 'Kona Cafe', building: 'yes', amenity: 'cafe' } },
        { id: 8, refs: [11, 12, 13, 14, 11], tags: { building: 'yes' } },
      ],
    );
    const { places, counts } = extractPlaces(osm, noChains);
    assert.deepEqual(
      places.map((p) => p.id),
      ['osm-n101', 'osm-w7'],
    );
    assert.equal(counts.mergedDuplicates, 1);
    assert.equal(counts.buildingFootprints, 1);
    const cafe = places[1]!;
    assert.deepEqual(cafe.address, { street: 'Kalakaua Ave' }, 'the outline takes what only the point had');
    assert.deepEqual(cafe.categories, ['coffee-shop', 'food-beverage']);
    assert.ok(places[0]!.footprint, 'the bank stands alone in an unnamed building');
  });
});
