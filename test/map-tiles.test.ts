// store-independent: tiles, styles, glyphs and the map library are read from the geodata pack and files, never the store
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { tileAt } from '../src/maps/tile-math.js';
import { assertError } from './helpers/assertions.js';
import { startGeodataServer } from './helpers/geodata.js';
import type { TestServer } from './helpers/server.js';

describe('map tiles, styles and files over HTTP (world pack)', () => {
  let s: TestServer;
  let key: string;
  before(async () => {
    s = await startGeodataServer();
    key = s.keys.test.publishable;
  });
  after(() => s?.close());

  const fetchTile = (path: string, headers: Record<string, string> = {}) => fetch(`${s.url}${path}`, { headers });
  const layersOf = async (res: Response) =>
    new VectorTile(new PbfReader(new Uint8Array(await res.arrayBuffer()))).layers;

  it('refuses tile coordinates out of range or not numbers with 400 naming the part', async () => {
    for (const [path, param] of [
      ['/maps/tiles/16/0/0.pbf', 'z'],
      ['/maps/tiles/-1/0/0.pbf', 'z'],
      ['/maps/tiles/a/0/0.pbf', 'z'],
      ['/maps/tiles/3/8/0.pbf', 'x'],
      ['/maps/tiles/3/1.5/0.pbf', 'x'],
      ['/maps/tiles/3/0/8.pbf', 'y'],
      ['/maps/tiles/3/0/y.pbf', 'y'],
      ['/maps/tiles/0/0/99999999999999.pbf', 'y'],
    ] as const) {
      assertError(await s.request('GET', `${path}?key=${key}`), 400, param);
    }
    assertError(await s.request('GET', '/maps/tiles/0/0/0.pbf'), 401, 'Authorization');
  });

  it('serves the world layers at zoom 0 with the key in the query or the header, cacheable by ETag', async () => {
    const res = await fetchTile(`/maps/tiles/0/0/0.pbf?key=${key}`, { origin: 'https://app.example' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/vnd.mapbox-vector-tile');
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://app.example');
    assert.match(res.headers.get('cache-control') ?? '', /max-age=\d+/);
    const etag = res.headers.get('etag');
    assert.ok(etag);
    const layers = await layersOf(res);
    assert.ok(layers.countries && layers.countries.length > 150, 'countries layer');
    const names = Array.from(
      { length: layers.country_labels!.length },
      (_, i) => layers.country_labels!.feature(i).properties.name,
    );
    assert.ok(names.includes('France') && names.includes('Brazil'), names.join());
    // The header works as well, and the same tile answers 304 to its ETag.
    const again = await fetchTile('/maps/tiles/0/0/0.pbf', { authorization: key, 'if-none-match': etag });
    assert.equal(again.status, 304);
  });

  it('carries US states and counties and locality labels by population as the zoom grows', async () => {
    const [x, y] = tileAt(-157.86, 21.31, 8);
    const layers = await layersOf(await fetchTile(`/maps/tiles/8/${x}/${y}.pbf?key=${key}`));
    assert.ok(layers.states && layers.counties, Object.keys(layers).join());
    const towns = Array.from({ length: layers.localities!.length }, (_, i) => layers.localities!.feature(i).properties);
    assert.ok(
      towns.some((t) => t.name === 'Honolulu'),
      'Honolulu labelled at z8',
    );
    // At zoom 2 only the largest places: every one has 2 million people or more.
    const low = await layersOf(await fetchTile(`/maps/tiles/2/0/1.pbf?key=${key}`));
    for (let i = 0; i < (low.localities?.length ?? 0); i++) {
      assert.ok(Number(low.localities!.feature(i).properties.population) >= 2_000_000);
    }
  });

  it('answers a tile with no data with 204', async () => {
    // The South Pacific, far from any country's waters, at the deepest zoom.
    const [x, y] = tileAt(-125, -48, 15);
    const res = await fetchTile(`/maps/tiles/15/${x}/${y}.pbf?key=${key}`);
    assert.equal(res.status, 204);
  });

  it('serves the styles the Radar maps plugin asks for, with their glyphs, sprites and markers', async () => {
    for (const name of ['radar-default-v1', 'radar-light-v1', 'radar-dark-v1']) {
      const res = await s.request('GET', `/maps/styles/${name}?key=${key}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.version, 8);
      const tiles: string = res.body.sources.whereabouts.tiles[0];
      assert.equal(tiles, `${s.url}/maps/tiles/{z}/{x}/{y}.pbf?key=${key}`);
      assert.match(res.body.sources.whereabouts.attribution, /GeoNames/);
    }
    assertError(await s.request('GET', `/maps/styles/satellite-v9?key=${key}`), 404, 'style');
    // /v1/attribution lists every source the map credits.
    const credits = (await s.request('GET', '/v1/attribution')).body.sources as Array<{ text: string }>;
    const style0 = (await s.request('GET', `/maps/styles/radar-light-v1?key=${key}`)).body;
    for (const part of String(style0.sources.whereabouts.attribution).split(' | ')) {
      assert.ok(JSON.stringify(credits).includes(part.replace(/<[^>]+>/g, '')), `${part} in /v1/attribution`);
    }
    const style = (await s.request('GET', '/maps/styles/radar-default-v1', { key })).body;
    const glyphs = await fetch(style.glyphs.replace('{fontstack}', 'DejaVu Sans Book').replace('{range}', '0-255'));
    assert.equal(glyphs.status, 200);
    assert.ok((await glyphs.arrayBuffer()).byteLength > 10_000);
    assertError(await s.request('GET', '/maps/fonts/DejaVu%20Sans%20Book/0-300.pbf'), 400, 'range');
    const sprite = (await (await fetch(`${style.sprite}.json`)).json()) as Record<string, unknown>;
    assert.ok(sprite.poi);
    const png = await fetch(`${style.sprite}@2x.png`);
    assert.equal(png.headers.get('content-type'), 'image/png');
    const marker = await fetch(`${s.url}/maps/markers/default`);
    assert.equal(marker.headers.get('content-type'), 'image/svg+xml');
    assertError(await s.request('GET', '/maps/markers/nope'), 404, 'marker');
  });

  it('serves MapLibre GL JS itself, so pages load no CDN', async () => {
    const js = await fetch(`${s.url}/maps/lib/maplibre-gl.js`);
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /javascript/);
    const css = await fetch(`${s.url}/maps/lib/maplibre-gl.css`);
    assert.match(await css.text(), /maplibregl-map/);
    assertError(await s.request('GET', '/maps/lib/package.json'), 404, 'file');
  });
});
