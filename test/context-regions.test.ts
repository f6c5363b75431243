import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { copyOfSharedTestPack, fixturesDir, missingFixturesMessage, type TestPack } from '../src/geodata/test-pack.js';
import { assertOk } from './helpers/assertions.js';
import { runCli } from './helpers/cli.js';
import { get, setRegions, startGeodataServer } from './helpers/geodata.js';
import { startServer, type TestServer } from './helpers/server.js';
import { serverSuite } from './helpers/server-suite.js';
import { track, trackBody, typesOf } from './helpers/tracking.js';
import { zctaShapefileZip } from './helpers/zcta-shapefile-zip.js';

const HONOLULU = '21.3069,-157.8583';
const context = (s: TestServer, coordinates: string) => get(s, '/v1/context', { coordinates });

describe('GET /v1/context regions', () => {
  const srv = serverSuite(startGeodataServer);

  it('a point in Honolulu is US / HI / a 968xx ZIP, beside the geofences and mirrored at the top level', async () => {
    const res = await context(srv.s, HONOLULU);
    assertOk(res);
    const c = res.body.context;
    assert.deepEqual(c.geofences, []);
    assert.deepEqual(c.country, { _id: 'country:US', type: 'country', code: 'US', name: 'United States', flag: '🇺🇸' });
    assert.deepEqual(c.state, { _id: 'state:US-HI', type: 'state', code: 'HI', name: 'Hawaii' });
    assert.match(c.postalCode.code, /^968\d\d$/);
    assert.equal(c.postalCode.approximate, true, 'the nearest ZIP point until ZCTA polygons are imported');
    assert.equal(c.dma, undefined, 'no DMA without an operator import');
    // radar-sdk-js 5.x reads the fields at the top level.
    for (const f of ['country', 'state', 'postalCode']) assert.deepEqual(res.body[f], c[f], f);
  });

  it('a point in Vaduz is Liechtenstein; the open sea is no region at all', async () => {
    const vaduz = (await context(srv.s, '47.141,9.521')).body.context;
    assert.equal(vaduz.country.code, 'LI');
    assert.equal(vaduz.country.flag, '🇱🇮');
    assert.equal(vaduz.postalCode, undefined, 'ZIP codes are US only');
    const sea = await context(srv.s, '20,-150');
    assertOk(sea);
    assert.deepEqual(Object.keys(sea.body.context).sort(), ['geofences', 'live']);
  });

  it('needs no feature switch: context is stateless and anonymous', async () => {
    const live = await context(srv.s, HONOLULU);
    assert.equal(live.body.context.state.code, 'HI');
  });
});

describe('GET /v1/context on a server without a pack', () => {
  it('answers the geofences and leaves the regions out', async () => {
    const s = await startServer();
    try {
      const res = await context(s, HONOLULU);
      assertOk(res);
      assert.deepEqual(Object.keys(res.body.context).sort(), ['geofences', 'live']);
    } finally {
      await s.close();
    }
  });
});

describe('operator imports reach a running server', () => {
  const fixtures = fixturesDir();
  let pack: TestPack;
  let s: TestServer;
  before(async () => {
    pack = await copyOfSharedTestPack();
    s = await startServer({ env: { GEODATA_DIR: pack.dataDir } });
  });
  after(async () => {
    await s.close();
    await pack.remove();
  });

  /** Polls context at `coordinates` until `done` holds (the server reloads the pack by itself). */
  async function eventually(coordinates: string, done: (c: Record<string, any>) => boolean, what: string) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const c = (await context(s, coordinates)).body.context;
      if (done(c)) return c;
      if (Date.now() > deadline) assert.fail(`${what} did not reach the running server: ${JSON.stringify(c)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('import dma (the CLI, another process) adds dma to context and to track with Regions on', async (t) => {
    if (!fixtures.present) return t.skip(missingFixturesMessage(fixtures.dir));
    const env = { DATA_DIR: pack.dataDir, GEODATA_DIR: pack.dataDir };
    const run = await runCli(['import', 'dma', path.join(fixtures.dir, 'dma', 'fixture-county-dma.csv')], env);
    assert.equal(run.code, 0, run.stderr);
    const c = await eventually(HONOLULU, (x) => x.dma !== undefined, 'the DMA layer');
    assert.deepEqual(c.dma, { _id: 'dma:744', type: 'dma', code: '744', name: 'Honolulu' });
    assert.equal((await context(s, '39.29,-76.61')).body.context.dma.code, '512', 'Baltimore');

    await setRegions(s, true);
    const res = await track(s, trackBody('dma-user', [-157.8583, 21.3069]));
    assert.equal(res.body.user.dma.code, '744');
    assert.ok(typesOf(res).includes('user.entered_region_dma'), typesOf(res).join());
  });

  it('import postal replaces the ZIP-point approximation where the ZCTA polygons cover', async (t) => {
    if (!fixtures.present) return t.skip(missingFixturesMessage(fixtures.dir));
    const env = { DATA_DIR: pack.dataDir, GEODATA_DIR: pack.dataDir };
    const run = await runCli(['import', 'postal', path.join(fixtures.dir, 'zcta', 'hi-zcta-2010.geojson')], env);
    assert.equal(run.code, 0, run.stderr);
    const c = await eventually(HONOLULU, (x) => x.postalCode && !x.postalCode.approximate, 'the postal layer');
    assert.match(c.postalCode.code, /^968\d\d$/);
    assert.equal(c.dma?.code, '744', 'the DMA layer is still there');
    const baltimore = (await context(s, '39.29,-76.61')).body.context;
    assert.equal(baltimore.postalCode.approximate, true, 'outside the imported polygons: the nearest point');
  });

  it('import postal adds a second state from the Census shapefile zip as published, keeping the first', async (t) => {
    if (!fixtures.present) return t.skip(missingFixturesMessage(fixtures.dir));
    const env = { DATA_DIR: pack.dataDir, GEODATA_DIR: pack.dataDir };
    // tl_2020_us_zcta520.zip as the Census Bureau publishes it, made here from the DC ZCTAs, then the
    // Hawaii GeoJSON again: two files in one run, each adding or replacing only its own codes.
    const dc = JSON.parse(await readFile(path.join(fixtures.dir, 'zcta', 'dc-zcta-2010.geojson'), 'utf8'));
    const zip = path.join(pack.dataDir, 'tl_2020_us_zcta520.zip');
    await writeFile(zip, zctaShapefileZip(dc));
    const hi = path.join(fixtures.dir, 'zcta', 'hi-zcta-2010.geojson');
    const run = await runCli(['import', 'postal', zip, hi], env, 180_000);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Importing ZCTA polygons \[#+-*\] \d+\/\d+ reading tl_2020_us_zcta520\.zip/);
    assert.match(run.stdout, new RegExp(`postalAreas: ${dc.features.length + 94}\\b`));
    const whiteHouse = await eventually('38.8977,-77.0365', (x) => x.postalCode && !x.postalCode.approximate, 'DC');
    assert.match(whiteHouse.postalCode.code, /^20\d{3}$/);
    const honolulu = (await context(s, HONOLULU)).body.context;
    assert.notEqual(honolulu.postalCode.approximate, true, 'the Hawaii polygons are still there');
    assert.match(honolulu.postalCode.code, /^968\d\d$/);

    // One state's file again replaces only its codes: DC alone, Hawaii stays.
    const again = await runCli(['import', 'postal', path.join(fixtures.dir, 'zcta', 'dc-zcta-2010.geojson')], env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /keptFromEarlier: 94\b/);
    assert.notEqual((await context(s, HONOLULU)).body.context.postalCode.approximate, true);
    const dcAgain = (await context(s, '38.8977,-77.0365')).body.context;
    assert.notEqual(dcAgain.postalCode.approximate, true);
  });
});
