// store-independent: forward, reverse and autocomplete over imported extracts read only the geodata pack
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openPlaceLayer } from '../src/geodata/osm/places/place-layer.js';
import { assertError, assertOk } from './helpers/assertions.js';
import { haversineMeters } from './helpers/fixtures.js';
import { get, labels } from './helpers/geodata.js';
import { osmServerSuite } from './helpers/osm-server.js';

// Queens Village (2016): 32k addresses with NYC's hyphenated numbers, postcodes tagged, no addr:city.
const QUEENS = 'queens-village-ny-2016.osm.pbf';
const ADDRESS = { number: '89-12', lat: 40.7285663, lon: -73.7437464 }; // 89-12 Springfield Boulevard, 11427
const NEAR = '40.7200,-73.7500';

type Address = Record<string, unknown> & { layer: string; latitude: number; longitude: number };

describe('geocoding with an imported OSM region (Queens)', () => {
  const osm = osmServerSuite([QUEENS]);
  // A place of the region to look up: the first with a plain name of two words or more (the places layer
  // decides which POIs are places, so the name is read from it rather than written here).
  const placeName = async (): Promise<string | undefined> => {
    const layer = await openPlaceLayer(join(osm.pack.dataDir, 'pack', 'osm', osm.pack.imports[0]!.region!));
    for (let i = 0; layer && i < layer.count; i++) {
      const { name } = layer.record(i);
      if (/^[A-Za-z][A-Za-z' ]{5,40}$/.test(name) && name.includes(' ')) return name;
    }
    return undefined;
  };
  const first = async (path: string, params: Record<string, string>): Promise<Address> => {
    const res = await get(osm.s, path, params);
    assertOk(res);
    assert.ok(res.body.addresses.length > 0, `no result for ${JSON.stringify(params)}`);
    return res.body.addresses[0];
  };

  it('the import counts addresses, streets and intersections', (t) => {
    if (osm.skipped(t)) return;
    const counts = osm.pack.imports[0]!.counts;
    assert.ok(counts.addresses! > 30_000, JSON.stringify(counts));
    assert.ok(counts.streets! > 100 && counts.intersections! > 500, JSON.stringify(counts));
  });

  describe('GET /v1/geocode/forward', () => {
    it('an existing address is exact, in the US convention, with number, street and areas', async (t) => {
      if (osm.skipped(t)) return;
      const a = await first('/v1/geocode/forward', { query: '89-12 Springfield Boulevard, Queens Village, NY 11427' });
      assert.equal(a.layer, 'address');
      assert.equal(a.confidence, 'exact');
      assert.equal(a.addressLabel, '89-12 Springfield Blvd');
      assert.match(String(a.formattedAddress), /^89-12 Springfield Blvd, [A-Za-z ]+, NY 11427 US$/);
      assert.equal(a.number, '89-12');
      assert.equal(a.street, 'Springfield Blvd');
      assert.equal(a.postalCode, '11427');
      assert.equal(a.stateCode, 'NY');
      assert.equal(a.countryCode, 'US');
      assert.match(String(a.county), /^Queens/);
      assert.equal(a.borough, 'Queens');
      assert.ok(haversineMeters([a.longitude, a.latitude], [ADDRESS.lon, ADDRESS.lat]) < 1);
      assert.deepEqual(a.geometry, { type: 'Point', coordinates: [a.longitude, a.latitude] });
    });

    it('abbreviated, lower-case and one-typo street names find the same address', async (t) => {
      if (osm.skipped(t)) return;
      for (const query of ['89-12 springfield blvd', '89-12 Sprinfield Blvd, NY', '89-12 Springfield Bl 11427']) {
        const a = await first('/v1/geocode/forward', { query });
        assert.equal(a.addressLabel, '89-12 Springfield Blvd', query);
      }
    });

    it('a number between known numbers of the street is interpolated, on the same side', async (t) => {
      if (osm.skipped(t)) return;
      // 194th Street has 100-01 and 100-11 (odd side) but no 100-07.
      const a = await first('/v1/geocode/forward', { query: '100-07 194th Street, Queens, NY' });
      assert.equal(a.confidence, 'interpolated');
      assert.equal(a.layer, 'address');
      assert.equal(a.addressLabel, '100-07 194th St');
      const lo = await first('/v1/geocode/forward', { query: '100-01 194th Street' });
      const hi = await first('/v1/geocode/forward', { query: '100-11 194th Street' });
      const span = haversineMeters([lo.longitude, lo.latitude], [hi.longitude, hi.latitude]);
      const fromLo = haversineMeters([lo.longitude, lo.latitude], [a.longitude, a.latitude]);
      assert.ok(fromLo > 0 && fromLo < span, `${fromLo} m of ${span} m`);
    });

    it('a number beyond the street, or a street alone, falls back to the street', async (t) => {
      if (osm.skipped(t)) return;
      const beyond = await first('/v1/geocode/forward', { query: '999-99 Springfield Blvd, Queens Village' });
      assert.equal(beyond.layer, 'street');
      assert.equal(beyond.confidence, 'fallback');
      assert.equal(beyond.addressLabel, 'Springfield Blvd');
      const street = await first('/v1/geocode/forward', { query: 'Springfield Boulevard, Queens Village, NY' });
      assert.equal(street.layer, 'street');
      assert.equal(street.confidence, 'fallback');
    });

    it('an unknown street falls back to the locality or postcode', async (t) => {
      if (osm.skipped(t)) return;
      const a = await first('/v1/geocode/forward', { query: '12 Nowhere Road, Queens Village, NY' });
      assert.equal(a.confidence, 'fallback');
      assert.equal(a.layer, 'locality');
      assert.equal(a.city, 'Queens Village');
      const zip = await first('/v1/geocode/forward', { query: '12 Nowhere Road, NY 11427' });
      assert.equal(zip.layer, 'postalCode');
      assert.equal(zip.confidence, 'fallback');
    });

    it('a postcode that contradicts the address drops it', async (t) => {
      if (osm.skipped(t)) return;
      const a = await first('/v1/geocode/forward', { query: '89-12 Springfield Blvd, NY 96813' });
      assert.notEqual(a.layer, 'address');
    });

    it('two streets that meet are an intersection, in either order', async (t) => {
      if (osm.skipped(t)) return;
      const a = await first('/v1/geocode/forward', { query: 'Springfield Blvd & Jamaica Ave' });
      assert.equal(a.layer, 'intersection');
      assert.equal(a.confidence, 'exact');
      assert.equal(a.addressLabel, 'Springfield Blvd & Jamaica Ave');
      const b = await first('/v1/geocode/forward', { query: 'jamaica avenue and springfield boulevard, queens' });
      assert.equal(b.layer, 'intersection');
      assert.ok(haversineMeters([a.longitude, a.latitude], [b.longitude, b.latitude]) < 150);
    });

    it('layers keeps fine results to the layers asked for; world names still answer', async (t) => {
      if (osm.skipped(t)) return;
      const street = await first('/v1/geocode/forward', { query: '89-12 Springfield Blvd', layers: 'street' });
      assert.equal(street.layer, 'street');
      const none = await get(osm.s, '/v1/geocode/forward', {
        query: 'Springfield Blvd & Jamaica Ave',
        layers: 'address',
      });
      assertOk(none);
      assert.ok(
        none.body.addresses.every((x: Address) => x.layer !== 'intersection'),
        labels(none).join(' | '),
      );
      const honolulu = await first('/v1/geocode/forward', { query: 'honolulu' });
      assert.equal(honolulu.formattedAddress, 'Honolulu, HI US');
      assert.equal(honolulu.confidence, 'exact');
      const elsewhere = await get(osm.s, '/v1/geocode/forward', { query: '89-12 Springfield Blvd', country: 'CA' });
      assert.ok(elsewhere.body.addresses.every((x: Address) => x.layer !== 'address'));
    });

    it('a place by its whole name is exact (layer place)', async (t) => {
      if (osm.skipped(t)) return;
      const name = await placeName();
      if (!name) return t.skip('the region has no places');
      const res = await get(osm.s, '/v1/geocode/forward', { query: name, layers: 'place' });
      assertOk(res);
      const [a] = res.body.addresses;
      assert.equal(a.layer, 'place');
      assert.equal(a.confidence, 'exact');
      assert.equal(a.placeLabel, name);
    });
  });

  describe('GET /v1/geocode/reverse', () => {
    it('a point at an address is that address, distance in meters, then the coarse layers', async (t) => {
      if (osm.skipped(t)) return;
      const res = await get(osm.s, '/v1/geocode/reverse', { coordinates: `${ADDRESS.lat},${ADDRESS.lon}` });
      assertOk(res);
      const [a, ...rest] = res.body.addresses as Address[];
      assert.equal(a!.layer, 'address');
      assert.equal(a!.addressLabel, '89-12 Springfield Blvd');
      assert.equal(a!.distance, 0);
      assert.ok(rest.some((x) => x.layer === 'locality'));
      assert.ok(rest.some((x) => x.layer === 'state' && x.stateCode === 'NY'));
    });

    it('a point 20 m off finds the address 20 m away', async (t) => {
      if (osm.skipped(t)) return;
      const lat = ADDRESS.lat + 20 / 111_320;
      const a = await first('/v1/geocode/reverse', { coordinates: `${lat},${ADDRESS.lon}`, layers: 'address' });
      assert.equal(a.layer, 'address');
      assert.ok(Math.abs(Number(a.distance) - 20) <= 15, String(a.distance));
    });

    it('layers=street gives the street line nearest the point; intersection the nearest crossing', async (t) => {
      if (osm.skipped(t)) return;
      const coordinates = `${ADDRESS.lat},${ADDRESS.lon}`;
      const street = await first('/v1/geocode/reverse', { coordinates, layers: 'street' });
      assert.equal(street.layer, 'street');
      assert.equal(street.addressLabel, 'Springfield Blvd');
      assert.ok(Number(street.distance) < 60, String(street.distance));
      const x = await first('/v1/geocode/reverse', { coordinates, layers: 'intersection' });
      assert.equal(x.layer, 'intersection');
      assert.match(String(x.addressLabel), /Springfield Blvd/);
      assert.ok(Number(x.distance) <= 200);
    });

    it('away from any address it falls back to the street, and far from streets to the locality', async (t) => {
      if (osm.skipped(t)) return;
      // The middle of Cross Island Parkway near Belmont: roads but no addresses within 100 m.
      const res = await get(osm.s, '/v1/geocode/reverse', { coordinates: '40.7105,-73.7270', layers: 'fine' });
      assertOk(res);
      for (const a of res.body.addresses as Address[]) assert.notEqual(a.layer, 'address');
      const sea = await get(osm.s, '/v1/geocode/reverse', {
        coordinates: '40.60,-73.75',
        layers: 'address,street,locality',
      });
      assertOk(sea);
      assert.ok(
        (sea.body.addresses as Address[]).every((a) => a.layer === 'locality'),
        labels(sea).join(' | '),
      );
    });
  });

  describe('GET /v1/search/autocomplete', () => {
    it('completes a number and the start of a street to the address, with distance from near', async (t) => {
      if (osm.skipped(t)) return;
      const a = await first('/v1/search/autocomplete', { query: '89-12 Springf', near: NEAR });
      assert.equal(a.layer, 'address');
      assert.equal(a.addressLabel, '89-12 Springfield Blvd');
      assert.equal(typeof a.distance, 'number');
      const full = await first('/v1/search/autocomplete', { query: '89-12 Springfield Boul', near: NEAR });
      assert.equal(full.addressLabel, '89-12 Springfield Blvd');
    });

    it('completes street names, tolerating a typo, ranked by near', async (t) => {
      if (osm.skipped(t)) return;
      const street = await first('/v1/search/autocomplete', { query: 'Springfield B', near: NEAR, layers: 'street' });
      assert.equal(street.layer, 'street');
      assert.equal(street.addressLabel, 'Springfield Blvd');
      const typo = await first('/v1/search/autocomplete', { query: 'Sprinfgield', near: NEAR, layers: 'street' });
      assert.equal(typo.addressLabel, 'Springfield Blvd');
    });

    it('completes the second street of an intersection, naming the typed street first', async (t) => {
      if (osm.skipped(t)) return;
      const a = await first('/v1/search/autocomplete', { query: 'Springfield Blvd & Jama', near: NEAR });
      assert.equal(a.layer, 'intersection');
      assert.equal(a.addressLabel, 'Springfield Blvd & Jamaica Ave');
      const res = await get(osm.s, '/v1/search/autocomplete', {
        query: 'jamaica avenue and',
        near: NEAR,
        layers: 'intersection',
      });
      assertOk(res);
      assert.ok(res.body.addresses.length > 1, labels(res).join(' | '));
      assert.ok((res.body.addresses as Address[]).every((x) => String(x.addressLabel).startsWith('Jamaica Ave & ')));
    });

    it('near ranks the closer of the addresses that share a prefix first', async (t) => {
      if (osm.skipped(t)) return;
      const res = await get(osm.s, '/v1/search/autocomplete', { query: '89-1', near: `${ADDRESS.lat},${ADDRESS.lon}` });
      assertOk(res);
      const d = (res.body.addresses as Address[]).map((a) => Number(a.distance));
      assert.ok(d.length === 10, labels(res).join(' | '));
      assert.deepEqual(
        d,
        [...d].sort((x, y) => x - y),
      );
    });

    it('layers, limit and country filter the completions', async (t) => {
      if (osm.skipped(t)) return;
      const res = await get(osm.s, '/v1/search/autocomplete', {
        query: '89-1',
        near: NEAR,
        limit: '3',
        layers: 'address',
      });
      assertOk(res);
      assert.equal(res.body.addresses.length, 3);
      assert.ok(res.body.addresses.every((a: Address) => a.layer === 'address'));
      const ca = await get(osm.s, '/v1/search/autocomplete', { query: '89-12 Springf', near: NEAR, country: 'CA' });
      assertOk(ca);
      assert.ok(
        ca.body.addresses.every((a: Address) => a.countryCode === 'CA'),
        labels(ca).join(' | '),
      );
      const coarse = await get(osm.s, '/v1/search/autocomplete', {
        query: 'Springfield',
        near: NEAR,
        layers: 'coarse',
      });
      assert.ok(coarse.body.addresses.every((a: Address) => a.layer !== 'street'));
    });

    it('a town typed in full comes before streets named after it', async (t) => {
      if (osm.skipped(t)) return;
      const res = await get(osm.s, '/v1/search/autocomplete', { query: 'Jamaica', near: NEAR });
      assertOk(res);
      assert.equal(res.body.addresses[0].layer, 'locality');
      assert.ok(
        (res.body.addresses as Address[]).some((a) => a.layer === 'street' && a.addressLabel === 'Jamaica Ave'),
        labels(res).join(' | '),
      );
    });

    it('places complete by name with placeLabel', async (t) => {
      if (osm.skipped(t)) return;
      const name = await placeName();
      if (!name) return t.skip('the region has no places');
      const typed = name.slice(0, Math.max(4, name.length - 3));
      const res = await get(osm.s, '/v1/search/autocomplete', { query: typed, near: NEAR, layers: 'place' });
      assertOk(res);
      assert.ok(res.body.addresses.length > 0, typed);
      assert.ok(
        (res.body.addresses as Address[]).every((a) => a.layer === 'place' && typeof a.placeLabel === 'string'),
      );
      assert.ok(
        (res.body.addresses as Address[]).some((a) => a.placeLabel === name),
        labels(res).join(' | '),
      );
    });
  });

  it('rejects bad parameters with the param and a message starting with it', async (t) => {
    if (osm.skipped(t)) return;
    const bad: [string, Record<string, string>, string][] = [
      ['/v1/geocode/forward', {}, 'query'],
      ['/v1/geocode/forward', { query: 'x'.repeat(513) }, 'query'],
      ['/v1/geocode/forward', { query: '89-12 Springfield Blvd', layers: 'house' }, 'layers'],
      ['/v1/geocode/forward', { query: '89-12 Springfield Blvd', country: 'USA' }, 'country'],
      ['/v1/geocode/reverse', {}, 'coordinates'],
      ['/v1/geocode/reverse', { coordinates: '40.72,-190' }, 'coordinates'],
      ['/v1/geocode/reverse', { coordinates: NEAR, layers: 'address,building' }, 'layers'],
      ['/v1/search/autocomplete', {}, 'query'],
      ['/v1/search/autocomplete', { query: '89-1', near: '40.72' }, 'near'],
      ['/v1/search/autocomplete', { query: '89-1', limit: '0' }, 'limit'],
      ['/v1/search/autocomplete', { query: '89-1', limit: '101' }, 'limit'],
      ['/v1/search/autocomplete', { query: '89-1', layers: 'streets' }, 'layers'],
      ['/v1/search/autocomplete', { query: '89-1', country: 'U' }, 'country'],
      ['/v1/search/autocomplete', { query: '89-1', countryCode: 'USA' }, 'countryCode'],
    ];
    for (const [path, params, param] of bad) assertError(await get(osm.s, path, params), 400, param);
  });
});
