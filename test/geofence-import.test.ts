import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { square } from './helpers/fixtures.js';
import { type ApiResponse, startServer, type TestServer } from './helpers/server.js';

const HEADER =
  'tag,externalId,description,type,latitude,longitude,coordinates,radius,enabled,metadata.region,metadata.code';

/** A CSV cell holding JSON: quoted, its quotes doubled. */
const jsonCell = (v: unknown) => `"${JSON.stringify(v).replaceAll('"', '""')}"`;

describe('geofence import and export', () => {
  let s: TestServer;
  let key: string;
  const post = async (path: string, body: string, type: string, k = key): Promise<ApiResponse> => {
    const res = await fetch(`${s.url}${path}`, {
      method: 'POST',
      headers: { authorization: k, 'content-type': type },
      body,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: JSON.parse(text) };
  };
  const importCsv = (csv: string, query = '', k = key) => post(`/v1/geofences/import${query}`, csv, 'text/csv', k);
  const exportText = async (format: string, k = key) => {
    const res = await fetch(`${s.url}/v1/geofences/export?format=${format}`, { headers: { authorization: k } });
    assert.equal(res.status, 200);
    return { type: res.headers.get('content-type'), text: await res.text() };
  };
  const get = (tag: string, id: string, k = key) => s.request('GET', `/v1/geofences/${tag}/${id}`, { key: k });

  before(async () => {
    s = await startServer();
    key = s.keys.test.secret;
  });
  after(() => s.close());

  it('applies the good rows of a CSV and reports exactly the bad ones, by row, parameter and message', async () => {
    const lines = [HEADER];
    for (let i = 1; i <= 10; i++) {
      lines.push(`shops,s${i},"Shop, ${i}",circle,40.70${i},-73.98${i},,100,true,east,"""${i}"""`);
    }
    lines[2] = 'shops,s2,Too small,circle,40.7,-73.9,,5,true,,'; // row 2: radius below 10 m
    lines[5] = ',s5,No tag,circle,40.7,-73.9,,100,true,,'; // row 5: no tag
    lines[7] = `shops,s7,Open ring,polygon,,,${jsonCell([
      [0, 0],
      [1, 0],
      [1, 1],
    ])},,true,,`; // row 7: not a ring
    lines[9] = 'shops,s9,Off the map,circle,95,-73.9,,100,true,,'; // row 9: latitude out of range
    const res = await importCsv(lines.join('\n'));
    assertOk(res);
    assert.equal(res.body.created, 6);
    assert.equal(res.body.updated, 0);
    assert.deepEqual(
      res.body.errors.map((e: { row: number; param: string }) => [e.row, e.param]),
      [
        [2, 'radius'],
        [5, 'tag'],
        [7, 'coordinates'],
        [9, 'latitude'],
      ],
    );
    for (const e of res.body.errors) assert.ok(e.message.startsWith(e.param), e.message);
    // What a PUT of row 2 answers, word for word.
    const put = await s.request('PUT', '/v1/geofences/shops/s2', {
      key,
      json: { description: 'x', type: 'circle', coordinates: [-73.9, 40.7], radius: 5 },
    });
    assertError(put, 400, 'radius');
    assert.equal(res.body.errors[0].message, put.body.meta.message);

    const shop = await get('shops', 's3');
    assertOk(shop);
    const g = shop.body.geofence;
    assert.equal(g.description, 'Shop, 3');
    assert.equal(g.type, 'circle');
    assert.deepEqual(g.geometryCenter.coordinates, [-73.983, 40.703]);
    assert.equal(g.geometryRadius, 100);
    assert.deepEqual(g.metadata, { region: 'east', code: '3' });
    for (const bad of ['s2', 's7', 's9']) assert.equal((await get('shops', bad)).status, 404);
  });

  it('imports a GeoJSON FeatureCollection (Point circles, Polygons) and refuses other geometries by row', async () => {
    const collection = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [-0.1276, 51.5072] },
          properties: { tag: 'geo', externalId: 'london', description: 'London', radius: 500, metadata: { n: 1 } },
        },
        {
          type: 'Feature',
          geometry: {
            type: 'LineString',
            coordinates: [
              [0, 0],
              [1, 1],
            ],
          },
          properties: { tag: 'geo', externalId: 'line', description: 'A line' },
        },
        {
          type: 'Feature',
          geometry: { type: 'Polygon', coordinates: [square(2.35, 48.85)] },
          properties: { tag: 'geo', externalId: 'paris', description: 'Paris', enabled: false },
        },
      ],
    };
    const res = await post('/v1/geofences/import', JSON.stringify(collection), 'application/geo+json');
    assertOk(res);
    assert.equal(res.body.created, 2);
    assert.deepEqual(res.body.errors, [{ row: 2, param: 'geometry', message: res.body.errors[0].message }]);
    const london = (await get('geo', 'london')).body.geofence;
    assert.equal(london.geometryRadius, 500);
    assert.deepEqual(london.metadata, { n: 1 });
    const paris = (await get('geo', 'paris')).body.geofence;
    assert.equal(paris.type, 'polygon');
    assert.equal(paris.enabled, false);
    assert.deepEqual(paris.geometry.coordinates, [square(2.35, 48.85)]);
  });

  it('dryRun checks and counts but writes nothing; a second import updates in place', async () => {
    const csv = [HEADER, 'dry,d1,One,circle,10,10,,50,true,,', 'shops,s1,Renamed,circle,40.701,-73.981,,100,true,,'];
    const before = (await get('shops', 's1')).body.geofence;
    const dry = await importCsv(csv.join('\n'), '?dryRun=true');
    assertOk(dry);
    assert.deepEqual([dry.body.created, dry.body.updated, dry.body.errors], [1, 1, []]);
    assert.equal((await get('dry', 'd1')).status, 404);
    assert.equal((await get('shops', 's1')).body.geofence.description, 'Shop, 1');

    const real = await importCsv(csv.join('\n'));
    assert.deepEqual([real.body.created, real.body.updated], [1, 1]);
    const after = (await get('shops', 's1')).body.geofence;
    assert.equal(after.description, 'Renamed');
    assert.equal(after._id, before._id);
    assert.equal(after.createdAt, before.createdAt);
  });

  it('exports CSV and GeoJSON that import back unchanged, and only the project’s own fences', async () => {
    const other = await s.createProject('import-other');
    const otherKey = other.keys.test.secret;
    const fields = (g: Record<string, unknown>) => {
      const { _id, createdAt, updatedAt, ...rest } = g;
      return rest;
    };
    const fencesOf = async (k: string) => {
      const res = await s.request('GET', '/v1/geofences?limit=1000', { key: k });
      return (res.body.geofences as Array<Record<string, unknown>>)
        .map(fields)
        .sort((a, b) => `${a.tag}/${a.externalId}`.localeCompare(`${b.tag}/${b.externalId}`));
    };
    // A string that reads like a number, a polygon and an edge-spaced description survive the trip.
    await s.request('PUT', '/v1/geofences/edge/e1', {
      key,
      json: {
        description: ' spaced "quoted" ',
        type: 'polygon',
        coordinates: square(5, 5),
        metadata: { z: '007', b: true },
      },
    });
    const mine = await fencesOf(key);
    const csv = await exportText('csv');
    assert.match(csv.type!, /^text\/csv/);
    assert.equal(
      csv.text
        .split('\n')[0]!
        .startsWith('tag,externalId,description,type,latitude,longitude,coordinates,radius,enabled'),
      true,
    );
    const back = await importCsv(csv.text, '', otherKey);
    assertOk(back);
    assert.deepEqual([back.body.created, back.body.errors], [mine.length, []]);
    const theirs = await fencesOf(otherKey);
    assert.deepEqual(
      theirs.map((g) => ({ ...g, live: false })),
      mine,
    );
    assert.equal(
      (await exportText('csv', otherKey)).text.split('\n').sort().join('\n'),
      csv.text.split('\n').sort().join('\n'),
    );
    // Back into the same project: every row an update, nothing changed.
    const again = await importCsv(csv.text);
    assert.deepEqual([again.body.created, again.body.updated], [0, mine.length]);
    assert.deepEqual(await fencesOf(key), mine);

    const geo = await exportText('geojson');
    assert.match(geo.type!, /^application\/geo\+json/);
    const collection = JSON.parse(geo.text);
    assert.equal(collection.features.length, mine.length);
    const third = await s.createProject('import-third');
    const res = await post('/v1/geofences/import', geo.text, 'application/json', third.keys.test.secret);
    assert.deepEqual([res.body.created, res.body.errors], [mine.length, []]);
    assert.deepEqual(await fencesOf(third.keys.test.secret), mine);
    // The other project's own export holds none of the first's edits made after the copy.
    await s.request('DELETE', '/v1/geofences/edge/e1', { key });
    assert.equal((await exportText('geojson')).text.includes('"e1"'), false);
    assert.equal((await exportText('geojson', otherKey)).text.includes('"e1"'), true);
  });

  it('refuses bodies that are not an import with a 400 (or 413, 415) naming what is wrong', async () => {
    assertError(await importCsv(''), 400, 'body');
    assertError(await importCsv(HEADER), 400, 'body');
    assertError(await importCsv(`${HEADER}\na,"b,c`), 400, 'body');
    assertError(await post('/v1/geofences/import', '{"type":"Feature"}', 'application/json'), 400, 'body');
    assertError(
      await post('/v1/geofences/import', '{"type":"FeatureCollection","features":[{]}', 'application/json'),
      400,
      'body',
    );
    assertError(await post('/v1/geofences/import', 'tag\nx', 'text/plain'), 415, 'content-type');
    assertError(await importCsv(`tag\n${'x\n'.repeat(50_001)}`), 413, 'body', '50000');
    assertError(await importCsv(`${HEADER}\nx,y,z,circle,1,1,,50,,,`, '', s.keys.test.publishable), 403);
  });
});
