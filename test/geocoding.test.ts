// store-independent: geocoding over the world pack reads only the pack
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { get, labels, startGeodataServer } from './helpers/geodata.js';
import type { TestServer } from './helpers/server.js';
import { serverSuite } from './helpers/server-suite.js';

const COARSE = ['neighborhood', 'postalCode', 'locality', 'county', 'state', 'country'];
const FINE = ['place', 'address', 'intersection', 'street'];
const HONOLULU = '21.3069,-157.8583';

describe('geocoding over the world pack', () => {
  let s: TestServer;
  before(async () => {
    s = await startGeodataServer();
  });
  after(() => s.close());

  describe('GET /v1/geocode/forward', () => {
    it('"honolulu" is Honolulu, HI first, exact, with the spec address fields', async () => {
      const res = await get(s, '/v1/geocode/forward', { query: 'honolulu' });
      assertOk(res);
      const [first] = res.body.addresses;
      assert.equal(first.formattedAddress, 'Honolulu, HI US');
      assert.equal(first.confidence, 'exact');
      assert.equal(first.layer, 'locality');
      assert.equal(first.addressLabel, 'Honolulu');
      assert.equal(first.city, 'Honolulu');
      assert.equal(first.county, 'Honolulu County');
      assert.equal(first.state, 'Hawaii');
      assert.equal(first.stateCode, 'HI');
      assert.equal(first.country, 'United States');
      assert.equal(first.countryCode, 'US');
      assert.equal(first.countryFlag, '🇺🇸');
      assert.deepEqual(first.geometry, { type: 'Point', coordinates: [first.longitude, first.latitude] });
      assert.ok(Math.abs(first.latitude - 21.307) < 0.05 && Math.abs(first.longitude + 157.858) < 0.05);
    });

    it('a typo falls back; nonsense finds nothing', async () => {
      const typo = await get(s, '/v1/geocode/forward', { query: 'hnolulu' });
      assert.equal(typo.body.addresses[0].city, 'Honolulu');
      assert.equal(typo.body.addresses[0].confidence, 'fallback');
      assert.deepEqual((await get(s, '/v1/geocode/forward', { query: 'xqzvkw' })).body.addresses, []);
    });

    it('a full address where no region is imported answers its ZIP or town as a fallback', async () => {
      const zip = await get(s, '/v1/geocode/forward', { query: '20 W 34th St, New York, NY 10001' });
      assertOk(zip);
      assert.deepEqual(
        zip.body.addresses.map((a: { layer: string; postalCode?: string; confidence: string }) => [
          a.layer,
          a.postalCode,
          a.confidence,
        ]),
        [['postalCode', '10001', 'fallback']],
      );
      const town = await get(s, '/v1/geocode/forward', { query: '20 W 34th St, New York' });
      assertOk(town);
      assert.equal(town.body.addresses[0].layer, 'locality', labels(town).join(' | '));
      assert.match(town.body.addresses[0].formattedAddress, /^New York City, NY/);
      assert.ok(town.body.addresses.every((a: { confidence: string }) => a.confidence === 'fallback'));
      const springfield = await get(s, '/v1/geocode/forward', { query: '123 Main St, Springfield, IL' });
      assert.deepEqual(labels(springfield).slice(0, 1), ['locality:Springfield, IL US']);
      const nowhere = await get(s, '/v1/geocode/forward', { query: '20 W 34th St, Xqzvkville' });
      assert.deepEqual(nowhere.body.addresses, [], 'nothing in the address matches');
    });

    it('each layer answers only itself; fine layers and those the pack lacks answer nothing', async () => {
      const cases: Record<string, string> = {
        locality: 'honolulu',
        postalCode: '96813',
        county: 'honolulu county',
        state: 'hawaii',
        country: 'liechtenstein',
      };
      for (const [layer, query] of Object.entries(cases)) {
        const res = await get(s, '/v1/geocode/forward', { query, layers: layer });
        assertOk(res);
        assert.ok(res.body.addresses.length > 0, `${layer}: ${query}`);
        assert.ok(
          res.body.addresses.every((a: { layer: string }) => a.layer === layer),
          labels(res).join(' | '),
        );
      }
      for (const layer of [...FINE, 'fine']) {
        const res = await get(s, '/v1/geocode/forward', { query: 'honolulu', layers: layer });
        assertOk(res);
        assert.deepEqual(res.body.addresses, [], layer);
      }
      const coarse = await get(s, '/v1/geocode/forward', { query: 'honolulu', layers: 'coarse' });
      assert.equal(coarse.body.addresses[0].layer, 'locality');
      const two = await get(s, '/v1/geocode/forward', { query: 'hawaii', layers: 'country,state' });
      assert.equal(two.body.addresses[0].layer, 'state');
    });

    it('country filters results, in any case; lang (sent by the web SDK) is ignored', async () => {
      const us = await get(s, '/v1/geocode/forward', { query: 'paris', country: 'us', lang: 'en' });
      assert.ok(us.body.addresses.length > 1);
      assert.ok(us.body.addresses.every((a: { countryCode: string }) => a.countryCode === 'US'));
      assert.equal((await get(s, '/v1/geocode/forward', { query: 'paris' })).body.addresses[0].countryCode, 'FR');
      assert.deepEqual((await get(s, '/v1/geocode/forward', { query: 'honolulu', country: 'LI' })).body.addresses, []);
    });
  });

  describe('GET /v1/geocode/reverse', () => {
    it('a point in Honolulu: postal code, locality, county, state, country, with distances in meters', async () => {
      const res = await get(s, '/v1/geocode/reverse', { coordinates: HONOLULU });
      assertOk(res);
      const byLayer = new Map(res.body.addresses.map((a: { layer: string }) => [a.layer, a]));
      const city = byLayer.get('locality') as Record<string, unknown>;
      assert.equal(city.city, 'Honolulu');
      assert.ok(typeof city.distance === 'number' && city.distance < 3000, `distance ${city.distance}`);
      assert.match(String((byLayer.get('postalCode') as { postalCode: string }).postalCode), /^968\d\d$/);
      assert.equal((byLayer.get('county') as { county: string }).county, 'Honolulu County');
      assert.equal((byLayer.get('state') as { stateCode: string }).stateCode, 'HI');
      assert.equal((byLayer.get('country') as { countryCode: string }).countryCode, 'US');
      for (const a of res.body.addresses) assert.ok(Number.isInteger(a.distance), `${a.layer} distance`);
    });

    it('near a known city: Vaduz, Liechtenstein; a layer filter; open sea answers nothing', async () => {
      const vaduz = await get(s, '/v1/geocode/reverse', { coordinates: '47.141,9.521', layers: 'locality,country' });
      assert.deepEqual(
        vaduz.body.addresses.map((a: { layer: string }) => a.layer),
        ['locality', 'country'],
      );
      assert.equal(vaduz.body.addresses[0].city, 'Vaduz');
      assert.ok(vaduz.body.addresses[0].distance < 2000);
      assert.equal(vaduz.body.addresses[1].countryFlag, '🇱🇮');
      for (const layer of COARSE.filter((l) => l !== 'neighborhood')) {
        const res = await get(s, '/v1/geocode/reverse', { coordinates: HONOLULU, layers: layer });
        assert.deepEqual(
          res.body.addresses.map((a: { layer: string }) => a.layer),
          [layer],
          layer,
        );
      }
      assert.deepEqual(
        (await get(s, '/v1/geocode/reverse', { coordinates: HONOLULU, layers: 'fine' })).body.addresses,
        [],
      );
      assert.deepEqual((await get(s, '/v1/geocode/reverse', { coordinates: '0,0' })).body.addresses, []);
    });
  });

  describe('GET /v1/search/autocomplete', () => {
    it('completes prefixes and forgives a typo', async () => {
      for (const query of ['honol', 'hnolulu', 'Honolul']) {
        const res = await get(s, '/v1/search/autocomplete', { query });
        assertOk(res);
        assert.equal(res.body.addresses[0].city, 'Honolulu', query);
      }
    });

    it('near biases and gives distances; limit, layers, country and countryCode filter', async () => {
      const near = await get(s, '/v1/search/autocomplete', { query: 'paris', near: '33.66,-95.55' });
      assert.equal(near.body.addresses[0].formattedAddress, 'Paris, TX US');
      assert.ok(near.body.addresses[0].distance < 10_000);
      assert.equal((await get(s, '/v1/search/autocomplete', { query: 'paris' })).body.addresses[0].countryCode, 'FR');
      assert.equal((await get(s, '/v1/search/autocomplete', { query: 'san', limit: '3' })).body.addresses.length, 3);
      assert.equal((await get(s, '/v1/search/autocomplete', { query: 'san' })).body.addresses.length, 10);
      const zips = await get(s, '/v1/search/autocomplete', { query: '968', near: HONOLULU, layers: 'postalCode' });
      assert.ok(zips.body.addresses.length > 0);
      assert.ok(zips.body.addresses.every((a: { layer: string }) => a.layer === 'postalCode'));
      for (const param of ['country', 'countryCode']) {
        const res = await get(s, '/v1/search/autocomplete', { query: 'san', [param]: 'mx' });
        assert.ok(res.body.addresses.length > 0, param);
        assert.ok(
          res.body.addresses.every((a: { countryCode: string }) => a.countryCode === 'MX'),
          param,
        );
      }
      const web = await get(s, '/v1/search/autocomplete', { query: 'brooklyn roast', layers: 'address,place' });
      assertOk(web);
      assert.deepEqual(web.body.addresses, []);
    });
  });

  it('GET /v1/attribution needs no key and credits every source', async () => {
    const res = await s.request('GET', '/v1/attribution');
    assertOk(res);
    const texts = res.body.sources.map((x: { text: string }) => x.text).join('\n');
    assert.match(texts, /GeoNames/);
    assert.match(texts, /Census/);
    assert.match(texts, /country-coder/);
    for (const src of res.body.sources) assert.ok(src.name && src.licence && src.text, JSON.stringify(src));
    assert.ok(Array.isArray(res.body.notes));
  });

  it('rejects every bad parameter, naming it', async () => {
    const bad: Array<[string, Record<string, string>, string]> = [
      ['/v1/geocode/forward', {}, 'query'],
      ['/v1/geocode/forward', { query: ' ' }, 'query'],
      ['/v1/geocode/forward', { query: 'x'.repeat(513) }, 'query'],
      ['/v1/geocode/forward', { query: 'paris', layers: 'city' }, 'layers'],
      ['/v1/geocode/forward', { query: 'paris', country: 'USA' }, 'country'],
      ['/v1/geocode/forward', { query: 'paris', country: '1' }, 'country'],
      ['/v1/geocode/reverse', {}, 'coordinates'],
      ['/v1/geocode/reverse', { coordinates: '91,0' }, 'coordinates'],
      ['/v1/geocode/reverse', { coordinates: 'honolulu' }, 'coordinates'],
      ['/v1/geocode/reverse', { coordinates: HONOLULU, layers: 'locality,bogus' }, 'layers'],
      ['/v1/search/autocomplete', {}, 'query'],
      ['/v1/search/autocomplete', { query: 'par', near: '40.7' }, 'near'],
      ['/v1/search/autocomplete', { query: 'par', limit: '0' }, 'limit'],
      ['/v1/search/autocomplete', { query: 'par', limit: '101' }, 'limit'],
      ['/v1/search/autocomplete', { query: 'par', limit: 'ten' }, 'limit'],
      ['/v1/search/autocomplete', { query: 'par', layers: 'town' }, 'layers'],
      ['/v1/search/autocomplete', { query: 'par', country: 'FRA' }, 'country'],
      ['/v1/search/autocomplete', { query: 'par', countryCode: 'F' }, 'countryCode'],
      ['/v1/geocode/ip', { ip: 'nope' }, 'ip'],
      ['/v1/geocode/ip', { ip: '256.1.1.1' }, 'ip'],
    ];
    for (const [path, params, param] of bad) assertError(await get(s, path, params), 400, param);
    assertError(await s.request('GET', '/v1/geocode/forward?query=paris'), 401, 'Authorization');
  });
});

describe('a server without a geodata pack', () => {
  const srv = serverSuite();

  it('answers geocoding with a 503 that says how to build the pack, and attribution with a note', async () => {
    for (const [path, params] of [
      ['/v1/geocode/forward', { query: 'honolulu' }],
      ['/v1/geocode/reverse', { coordinates: HONOLULU }],
      ['/v1/geocode/ip', { ip: '8.8.8.8' }],
      ['/v1/search/autocomplete', { query: 'hono' }],
    ] as const) {
      assertError(await get(srv.s, path, params), 503, undefined, 'import world');
    }
    // Bad parameters are still reported as such.
    assertError(await get(srv.s, '/v1/geocode/reverse', {}), 400, 'coordinates');
    const credits = await srv.s.request('GET', '/v1/attribution');
    assertOk(credits);
    assert.deepEqual(credits.body.sources, []);
    assert.match(credits.body.notes[0], /import world/);
  });
});
