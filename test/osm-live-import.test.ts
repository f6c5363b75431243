// store-independent: an import into a running server's geodata pack; places, addresses and routes come from the pack, never the store
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { copyOfSharedTestPack, type TestPack } from '../src/geodata/test-pack.js';
import { runCli } from './helpers/cli.js';
import { get } from './helpers/geodata.js';
import { osmFixture } from './helpers/osm.js';
import { startServer, type TestServer } from './helpers/server.js';

const BALTIMORE = '39.2904,-76.6122';

/**
 * `import osm` run by the CLI (another process) into the pack of a running server: the server keeps
 * answering every request while it reloads, and then serves the new region without a restart.
 */
describe('import osm into a running server', () => {
  const fixture = osmFixture('baltimore-md-2015.osm.pbf');
  let pack: TestPack;
  let s: TestServer;
  before(async () => {
    if ('skip' in fixture) return;
    pack = await copyOfSharedTestPack();
    s = await startServer({ env: { GEODATA_DIR: pack.dataDir } });
  });
  after(async () => {
    await s?.close();
    await pack?.remove();
  });

  it('serves the new places, addresses and roads once the import finishes, and fails no request meanwhile', async (t) => {
    if ('skip' in fixture) return t.skip(fixture.skip);
    const search = () => get(s, '/v1/search/places', { near: BALTIMORE, radius: '2000', categories: 'food-beverage' });
    const before = await search();
    assert.equal(before.status, 200);
    assert.equal(before.body.places.length, 0, 'no places before the import');

    // Requests keep flowing through the import and the reload.
    const statuses: number[] = [];
    let importing = true;
    const traffic = (async () => {
      while (importing) {
        statuses.push((await search()).status);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const imported = await runCli(
      ['import', 'osm', fixture.path],
      { DATA_DIR: s.dataDir, GEODATA_DIR: pack.dataDir },
      180_000,
    );
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /Imported osm/);

    const deadline = Date.now() + 30_000;
    let places: unknown[] = [];
    while (Date.now() < deadline) {
      places = (await search()).body.places ?? [];
      if (places.length > 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    importing = false;
    await traffic;
    assert.ok(places.length > 0, 'the running server did not pick up the imported places within 30 s');
    assert.ok(statuses.length > 10);
    assert.deepEqual(
      statuses.filter((code) => code !== 200),
      [],
      'every request during the import and reload was answered',
    );

    const forward = await get(s, '/v1/geocode/forward', { query: 'Water Street, Baltimore, MD' });
    assert.equal(forward.status, 200);
    assert.equal(forward.body.addresses[0]?.layer, 'street');
    const route = await get(s, '/v1/route/distance', {
      origin: '39.2904,-76.6122',
      destination: '39.2990,-76.6050',
      modes: 'car',
      units: 'metric',
    });
    assert.equal(route.status, 200);
    assert.ok(route.body.routes.car.distance.value > 0);
  });
});
