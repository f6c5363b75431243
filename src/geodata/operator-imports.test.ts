import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Position } from '../geo/types.js';
import { importDma } from './import-dma.js';
import { importPostal } from './import-postal.js';
import { formatImportSummary } from './manifest.js';
import { openGeodataPack } from './pack.js';
import { copyOfSharedTestPack, fixturesDir, missingFixturesMessage, type TestPack } from './test-pack.js';

const fixtures = fixturesDir();
const HONOLULU: Position = [-157.8583, 21.3069];
const BALTIMORE: Position = [-76.61, 39.29];
const TOWSON: Position = [-76.6019, 39.4015]; // Baltimore County (24005), the other half of DMA 512

// A private copy of the shared world pack: these tests import into it.
let built: TestPack | undefined;
before(async () => {
  if (fixtures.present) built = await copyOfSharedTestPack();
});
after(() => built?.remove());

const regions = async (p: Position) => (await openGeodataPack(built!.dataDir)).regionsAt(p[0], p[1]);

describe('importDma', () => {
  test('the fixture table makes Baltimore DMA 512 (merged county shapes)', async (t) => {
    if (!built) return t.skip(missingFixturesMessage(fixtures.dir));
    const summary = await importDma(built.dataDir, join(fixtures.dir, 'dma', 'fixture-county-dma.csv'));
    assert.equal(summary.counts.dmas, 6);
    assert.equal(summary.counts.counties, 8);
    assert.match(formatImportSummary(summary), /dmas: 6/);
    assert.deepEqual((await regions(BALTIMORE)).dma, { code: '512', name: 'Baltimore' });
    assert.deepEqual((await regions(TOWSON)).dma, { code: '512', name: 'Baltimore' });
    assert.equal((await regions(HONOLULU)).dma?.code, '744');
    assert.equal((await regions([9.521, 47.141])).dma, undefined);
  });

  test('bad tables are rejected and leave the imported layer as it was', async (t) => {
    if (!built) return t.skip(missingFixturesMessage(fixtures.dir));
    const bad = join(built.dataDir, 'bad.csv');
    await writeFile(bad, 'county,dma\n24510,512\n');
    await assert.rejects(importDma(built.dataDir, bad), /missing column\(s\) county_fips/);
    await writeFile(bad, 'county_fips,county_name,state,dma_code,dma_name\nabc,X,MD,512,Baltimore\n');
    await assert.rejects(importDma(built.dataDir, bad), /line 2/);
    await writeFile(bad, '');
    await assert.rejects(importDma(built.dataDir, bad), /empty file/);
    await writeFile(bad, 'county_fips,county_name,state,dma_code,dma_name\n99999,Nowhere,XX,1,None\n');
    await assert.rejects(importDma(built.dataDir, bad), /none of the county FIPS/);
    assert.equal((await regions(BALTIMORE)).dma?.code, '512');
  });

  test('a re-import replaces the table; leading zeros lost by spreadsheets are restored', async (t) => {
    if (!built) return t.skip(missingFixturesMessage(fixtures.dir));
    const csv = join(built.dataDir, 'imperial.csv');
    await writeFile(csv, 'dma_code,dma_name,county_fips,county_name,state\n771,Yuma-El Centro,6025,Imperial,CA\n');
    const summary = await importDma(built.dataDir, csv);
    assert.equal(summary.counts.dmas, 1);
    assert.equal((await regions([-115.56, 32.79])).dma?.code, '771');
    assert.equal((await regions(BALTIMORE)).dma, undefined);
  });
});

describe('importPostal', () => {
  test('ZCTA polygons replace the nearest-point ZIP where they cover', async (t) => {
    if (!built) return t.skip(missingFixturesMessage(fixtures.dir));
    const path = join(fixtures.dir, 'zcta', 'hi-zcta-2010.geojson');
    const expected = containingZcta(JSON.parse(await readFile(path, 'utf8')), HONOLULU);
    assert.ok(expected, 'the fixture has a ZCTA around the Honolulu point');
    const summary = await importPostal(built.dataDir, path);
    assert.equal(summary.counts.postalAreas, 94);
    assert.deepEqual((await regions(HONOLULU)).postalCode, { code: expected, approximate: false });
    const pack = await openGeodataPack(built.dataDir);
    assert.ok(pack.manifest.postal?.input === 'hi-zcta-2010.geojson');
    assert.equal(pack.regionsAt(BALTIMORE[0], BALTIMORE[1]).postalCode?.approximate, true, 'elsewhere: points');
  });

  test('files that are not ZCTA GeoJSON are rejected and the layer stays', async (t) => {
    if (!built) return t.skip(missingFixturesMessage(fixtures.dir));
    const bad = join(built.dataDir, 'bad.geojson');
    await writeFile(bad, 'county_fips,dma_code\n');
    await assert.rejects(importPostal(built.dataDir, bad), /not GeoJSON/);
    await writeFile(bad, JSON.stringify({ type: 'Feature', properties: {}, geometry: null }));
    await assert.rejects(importPostal(built.dataDir, bad), /FeatureCollection/);
    const point = {
      type: 'Feature',
      properties: { ZCTA5CE10: '96813' },
      geometry: { type: 'Point', coordinates: [0, 0] },
    };
    await writeFile(bad, JSON.stringify({ type: 'FeatureCollection', features: [point] }));
    await assert.rejects(importPostal(built.dataDir, bad), /no Polygon\/MultiPolygon feature/);
    assert.equal((await regions(HONOLULU)).postalCode?.approximate, false);
  });

  test('a second file adds its codes (DC beside Hawaii); re-importing one replaces only its own', async (t) => {
    if (!built) return t.skip(missingFixturesMessage(fixtures.dir));
    const dc = await importPostal(built.dataDir, join(fixtures.dir, 'zcta', 'dc-zcta-2010.geojson'));
    assert.deepEqual([dc.counts.imported, dc.counts.keptFromEarlier, dc.counts.postalAreas], [53, 94, 147]);
    assert.equal((await regions(HONOLULU)).postalCode?.approximate, false);
    const whiteHouse = await regions([-77.0365, 38.8977]);
    assert.equal(whiteHouse.postalCode?.approximate, false);
    assert.match(whiteHouse.postalCode?.code ?? '', /^20\d{3}$/);
    const hi = await importPostal(built.dataDir, join(fixtures.dir, 'zcta', 'hi-zcta-2010.geojson'));
    assert.deepEqual([hi.counts.imported, hi.counts.keptFromEarlier, hi.counts.postalAreas], [94, 53, 147]);
    assert.equal((await regions([-77.0365, 38.8977])).postalCode?.approximate, false);
  });
});

// An independent check: the first fixture feature whose rings contain the point (even-odd rule).
function containingZcta(
  fc: { features: { properties: Record<string, string>; geometry: { type: string; coordinates: unknown } }[] },
  [x, y]: Position,
) {
  for (const f of fc.features) {
    const polygons = (
      f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates
    ) as Position[][][];
    for (const rings of polygons) {
      let inside = false;
      for (const ring of rings) {
        for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
          const [xi, yi] = ring[i]!;
          const [xj, yj] = ring[j]!;
          if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
        }
      }
      if (inside) return f.properties.ZCTA5CE10;
    }
  }
  return undefined;
}
