import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openPlaceLayer } from '../src/geodata/osm/places/place-layer.js';
import { assertError, assertOk } from './helpers/assertions.js';
import { haversineMeters } from './helpers/fixtures.js';
import { get } from './helpers/geodata.js';
import { type OsmTestPack, withOsmRegion } from './helpers/osm.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { type LonLat, offset, track, trackBody, typesOf } from './helpers/tracking.js';

// Places of the fixtures (ids derive from OSM element ids, so they are stable across imports).
const EL_CENTRO: LonLat = [-115.563, 32.792];
/** The Starbucks building at Imperial Ave / Main St, El Centro (way 310996603, brand:wikidata tagged). */
const STARBUCKS_EL_CENTRO = 'osm-w310996603';
const STARBUCKS_EL_CENTRO_AT: LonLat = [-115.570208, 32.791465];
/** A 7-Eleven store building in El Centro (way 597530240) beside its fuel canopy (way 597530239). */
const SEVEN_ELEVEN_STORE = 'osm-w597530240';
const SEVEN_ELEVEN_STORE_AT: LonLat = [-115.561789, 32.79609];
/** Two Waikiki Starbucks mapped as bare `name=Starbucks` cafes (2018, no brand tags): NSI name matching. */
const WAIKIKI: LonLat = [-157.831, 21.279];
const WAIKIKI_STARBUCKS = ['osm-n708318947', 'osm-n708318969'];
const WAIKIKI_STARBUCKS_AT: LonLat = [-157.830242, 21.279579];
/** Honolulu airport (relation 2815931, 12 km²) and a Starbucks mapped as a point inside its terminal. */
const HNL_AIRPORT = 'osm-r2815931';
const HNL_STARBUCKS = 'osm-n2906611001';
const HNL_STARBUCKS_AT: LonLat = [-157.9239544, 21.3335459];

interface WirePlace {
  _id: string;
  name: string;
  categories: string[];
  chain?: { name: string; slug: string; externalId?: string; metadata?: Record<string, unknown> };
  location: { type: 'Point'; coordinates: LonLat };
}

const near = ([lon, lat]: LonLat) => `${lat},${lon}`;

function assertNearestFirst(places: WirePlace[], from: LonLat): void {
  const d = places.map((p) => haversineMeters(from, p.location.coordinates));
  for (let i = 1; i < d.length; i++) assert.ok(d[i - 1]! <= d[i]! + 0.01, `place ${i} is nearer than place ${i - 1}`);
}

describe('Places over imported OSM regions', () => {
  let pack: OsmTestPack | { skip: string };
  let s: TestServer;
  const clock = new ManualClock();
  before(async () => {
    pack = await withOsmRegion('imperial-county-ca-2024.osm.pbf', 'honolulu-oahu-hi-2018.osm.pbf');
    if ('skip' in pack) return;
    s = await startServer({ clock, env: { GEODATA_DIR: pack.dataDir } });
  });
  after(async () => {
    await s?.close();
    if (pack && !('skip' in pack)) await pack.remove();
  });
  const skipped = (t: { skip(m: string): void }) => {
    if ('skip' in pack) {
      t.skip(pack.skip);
      return true;
    }
    return false;
  };
  const search = (params: Record<string, string>, key = s.keys.test.publishable) =>
    get(s, '/v1/search/places', params, key);
  const settings = (json: Record<string, unknown>, key = s.keys.test.secret) =>
    s.request('PATCH', '/v1/settings', { key, json });

  it('the import counts places and chains', (t) => {
    if (skipped(t)) return;
    const [imperial, oahu] = (pack as OsmTestPack).imports;
    assert.ok(imperial!.counts.places! > 1000, JSON.stringify(imperial!.counts));
    assert.ok(imperial!.counts.chainPlaces! > 250, JSON.stringify(imperial!.counts));
    assert.ok(oahu!.counts.chainPlaces! > 300, JSON.stringify(oahu!.counts));
  });

  it('finds Starbucks near El Centro by chain slug, nearest first, in the spec shape', async (t) => {
    if (skipped(t)) return;
    const res = await search({ chains: 'starbucks', near: near(EL_CENTRO), radius: '5000' });
    assertOk(res);
    const places = res.body.places as WirePlace[];
    assert.ok(places.length >= 3, JSON.stringify(places));
    assert.equal(places[0]!._id, STARBUCKS_EL_CENTRO);
    assert.deepEqual(Object.keys(places[0]!).sort(), ['_id', 'categories', 'chain', 'location', 'name']);
    assert.deepEqual(places[0]!.chain, { name: 'Starbucks', slug: 'starbucks' });
    assert.deepEqual(places[0]!.categories, ['coffee-shop', 'food-beverage']);
    assert.equal(places[0]!.location.type, 'Point');
    assert.ok(haversineMeters(places[0]!.location.coordinates, STARBUCKS_EL_CENTRO_AT) < 5);
    assert.ok(places.every((p) => p.chain?.slug === 'starbucks'));
    assertNearestFirst(places, EL_CENTRO);
    assert.ok(places.every((p) => haversineMeters(EL_CENTRO, p.location.coordinates) <= 5000));
  });

  it('finds 7-Eleven stores and fuel stations near El Centro; limit and radius bound the answer', async (t) => {
    if (skipped(t)) return;
    const res = await search({ chains: '7-eleven', near: near(EL_CENTRO), radius: '3000', limit: '100' });
    assertOk(res);
    const places = res.body.places as WirePlace[];
    assert.ok(places.length >= 6, `${places.length} 7-Elevens`);
    assert.ok(places.some((p) => p._id === SEVEN_ELEVEN_STORE));
    assert.ok(places.some((p) => p.categories.includes('gas-station')));
    assert.ok(places.some((p) => p.categories.includes('convenience-store')));
    assert.ok(places.every((p) => p.chain?.name === '7-Eleven'));
    assertNearestFirst(places, EL_CENTRO);
    const two = await search({ chains: '7-eleven', near: near(EL_CENTRO), radius: '3000', limit: '2' });
    assert.deepEqual(
      (two.body.places as WirePlace[]).map((p) => p._id),
      places.slice(0, 2).map((p) => p._id),
    );
    const small = await search({ chains: '7-eleven,starbucks', near: near(EL_CENTRO), radius: '100' });
    assert.deepEqual(small.body.places, []);
  });

  it("finds a chain by its brand name's plain slug (sonic, staples, att) as well as by its qualified slug", async (t) => {
    if (skipped(t)) return;
    if ('skip' in pack) return;
    // The brands whose catalogue slug carries a Q-id in Imperial County (another brand of the same name
    // took the plain slug worldwide), read from the imported layer.
    const layer = await openPlaceLayer(join(pack.dataDir, 'pack', 'osm', pack.imports[0]!.region!));
    const wanted = new Map([
      ['sonic', 'Sonic'],
      ['staples', 'Staples'],
      ['att', 'AT&T'],
    ]);
    const found = new Map<string, { id: string; slug: string; at: LonLat }>();
    for (let i = 0; layer && i < layer.count; i++) {
      const r = layer.record(i);
      for (const [plain, name] of wanted)
        if (r.chain?.name === name && !found.has(plain))
          found.set(plain, { id: r.id, slug: r.chain.slug, at: [r.lon, r.lat] });
    }
    assert.deepEqual(
      [...found.keys()].sort(),
      [...wanted.keys()].sort(),
      'Imperial has a Sonic, a Staples and an AT&T',
    );
    for (const [plain, place] of found) {
      assert.match(place.slug, /-q\d+$/, `${plain}: the catalogue slug is qualified (${place.slug})`);
      for (const slug of [plain, place.slug]) {
        const res = await search({ chains: slug, near: near(place.at), radius: '200' });
        assertOk(res);
        const ids = (res.body.places as WirePlace[]).map((p) => p._id);
        assert.ok(ids.includes(place.id), `chains=${slug} finds ${place.id}: ${ids.join()}`);
        assert.ok(
          (res.body.places as WirePlace[]).every((p) => p.chain?.slug === place.slug),
          slug,
        );
      }
    }
    // `at-and-t` (AT&T slugified with its "and") finds it too; a made-up brand finds nothing.
    const att = found.get('att')!;
    const res = await search({ chains: 'at-and-t', near: near(att.at), radius: '200' });
    assert.ok((res.body.places as WirePlace[]).some((p) => p._id === att.id));
    assert.deepEqual((await search({ chains: 'sonicx', near: near(att.at), radius: '200' })).body.places, []);
  });

  it('matches Honolulu Starbucks by name through name-suggestion-index (no brand tags in 2018)', async (t) => {
    if (skipped(t)) return;
    const res = await search({ chains: 'starbucks', near: near(WAIKIKI), radius: '1000' });
    assertOk(res);
    const ids = (res.body.places as WirePlace[]).map((p) => p._id);
    assert.deepEqual(ids.slice(0, 2).sort(), [...WAIKIKI_STARBUCKS].sort());
  });

  it('searches by category (hierarchical) and by group', async (t) => {
    if (skipped(t)) return;
    const coffee = await search({ categories: 'coffee-shop', near: near(EL_CENTRO), radius: '5000', limit: '100' });
    assertOk(coffee);
    const cafes = coffee.body.places as WirePlace[];
    assert.ok(cafes.some((p) => p._id === STARBUCKS_EL_CENTRO));
    assert.ok(cafes.every((p) => p.categories.includes('coffee-shop')));
    const food = await search({ categories: 'food-beverage', near: near(EL_CENTRO), radius: '2000', limit: '100' });
    const foods = food.body.places as WirePlace[];
    assert.ok(foods.length > cafes.filter((p) => haversineMeters(EL_CENTRO, p.location.coordinates) <= 2000).length);
    assert.ok(foods.some((p) => p.categories.includes('fast-food-restaurant')));
    assert.ok(foods.every((p) => p.categories.includes('food-beverage')));

    const fuel = await search({ groups: 'fuel', near: near(EL_CENTRO), radius: '3000', limit: '100' });
    assertOk(fuel);
    const stations = fuel.body.places as WirePlace[];
    assert.ok(stations.length > 3);
    assert.ok(
      stations.every((p) => p.categories.includes('gas-station') || p.categories.includes('ev-charging-station')),
    );
    // Chains, categories and groups add up: any of them lets a place in.
    const both = await search({ groups: 'coffee', chains: '7-eleven', near: near(EL_CENTRO), radius: '1000' });
    const kinds = new Set((both.body.places as WirePlace[]).map((p) => p.chain?.slug));
    assert.ok(kinds.has('starbucks') && kinds.has('7-eleven'), JSON.stringify([...kinds]));
  });

  it('filters by chainMetadata (types inferred) and shows chainMappings as externalId', async (t) => {
    if (skipped(t)) return;
    const p = await s.createProject('chain-settings');
    assertOk(
      await settings(
        {
          chainMetadata: { starbucks: { driveThru: true, tier: 2 }, '7-eleven': { driveThru: false } },
          chainMappings: { starbucks: 'sbux-001' },
        },
        p.keys.test.secret,
      ),
    );
    const base = { chains: 'starbucks,7-eleven', near: near(EL_CENTRO), radius: '3000', limit: '100' };
    const all = await search(base, p.keys.test.publishable);
    const sb = (all.body.places as WirePlace[]).find((x) => x.chain?.slug === 'starbucks')!;
    assert.deepEqual(sb.chain, {
      name: 'Starbucks',
      slug: 'starbucks',
      externalId: 'sbux-001',
      metadata: { driveThru: true, tier: 2 },
    });
    const drive = await search({ ...base, 'chainMetadata[driveThru]': 'true' }, p.keys.test.publishable);
    assertOk(drive);
    const slugs = new Set((drive.body.places as WirePlace[]).map((x) => x.chain?.slug));
    assert.deepEqual([...slugs], ['starbucks']);
    const tier = await search({ ...base, 'chainMetadata[tier]': '2' }, p.keys.test.publishable);
    assert.ok((tier.body.places as WirePlace[]).every((x) => x.chain?.slug === 'starbucks'));
    const none = await search({ ...base, 'chainMetadata[tier]': '3' }, p.keys.test.publishable);
    assert.deepEqual(none.body.places, []);
    // Another project's settings do not leak.
    const other = await search(base);
    assert.ok((other.body.places as WirePlace[]).every((x) => x.chain?.externalId === undefined));
  });

  it('filters by country, as the mobile SDKs send it (country=), across the Calexico–Mexicali border', async (t) => {
    if (skipped(t)) return;
    // The extract reaches a little into Mexicali; the border here runs at about 32.66° N.
    const q = { categories: 'gas-station', near: near([-115.49, 32.665]), radius: '10000', limit: '100' };
    const ids = (res: { body: { places: WirePlace[] } }) => res.body.places.map((p) => p._id).sort();
    const all = await search(q);
    const mx = await search({ ...q, country: 'mx' });
    const us = await search({ ...q, countryCodes: 'US' });
    for (const r of [all, mx, us]) assertOk(r);
    assert.ok(all.body.places.length < 100, 'the whole answer, so the parts must add up to it');
    assert.ok(mx.body.places.length > 0 && us.body.places.length > 0, `${ids(mx)} | ${ids(us)}`);
    for (const p of mx.body.places as WirePlace[]) assert.ok(p.location.coordinates[1] < 32.67, `${p._id} in Mexico`);
    for (const p of us.body.places as WirePlace[]) assert.ok(p.location.coordinates[1] > 32.65, `${p._id} in the US`);
    assert.deepEqual([...ids(mx), ...ids(us)].sort(), ids(all));
    assert.deepEqual(ids(await search({ ...q, country: 'US,MX' })), ids(all));
    assertNearestFirst(mx.body.places, [-115.49, 32.665]);
    assert.deepEqual((await search({ ...q, country: 'CA' })).body.places, []);
    assertError(await search({ ...q, country: 'USA' }), 400, 'country');
    assertError(await search({ ...q, countryCodes: 'U1' }), 400, 'countryCodes');
  });

  it('hands iOS region sync the places around the device when Places is on, through the place filters', async (t) => {
    if (skipped(t)) return;
    const sync = (key: string) =>
      s.request('POST', '/v1/sync/region', {
        key,
        json: { latitude: EL_CENTRO[1], longitude: EL_CENTRO[0], userId: 'sync-user' },
      });
    const off = await s.createProject('sync-places-off');
    const none = await sync(off.keys.test.publishable);
    assertOk(none);
    assert.deepEqual(none.body.places, [], 'no Places feature, no places');

    const on = await s.createProject('sync-places-on');
    assertOk(await settings({ features: { places: true } }, on.keys.test.secret));
    const res = await sync(on.keys.test.publishable);
    assertOk(res);
    const places = res.body.places as WirePlace[];
    assert.equal(places.length, 100, 'El Centro has more places within 5 km than one sync hands over');
    for (const p of places) {
      // RadarPlace (iOS) drops the whole list if one place lacks a string _id or name.
      assert.equal(typeof p._id, 'string');
      assert.equal(typeof p.name, 'string');
      assert.ok(p.name.length > 0);
      assert.ok(Array.isArray(p.categories));
      assert.equal(p.location.coordinates.length, 2);
    }
    assertNearestFirst(places, EL_CENTRO);
    const farthest = haversineMeters(EL_CENTRO, places[99]!.location.coordinates);
    assert.ok(Math.abs(res.body.region.radius - Math.max(100, farthest)) < 1, 'the region ends at the farthest place');
    assert.deepEqual([res.body.region.latitude, res.body.region.longitude], [EL_CENTRO[1], EL_CENTRO[0]]);

    assertOk(await settings({ placeFilters: { chain: ['starbucks'], category: [] } }, on.keys.test.secret));
    const filtered = await sync(on.keys.test.publishable);
    const starbucks = filtered.body.places as WirePlace[];
    assert.ok(starbucks.length >= 3 && starbucks.length < 100, `${starbucks.length}`);
    assert.ok(starbucks.every((p) => p.chain?.slug === 'starbucks'));
    assert.equal(filtered.body.region.radius, 5000, 'a short list covers the whole 5 km');
  });

  it('rejects bad parameters, naming each', async (t) => {
    if (skipped(t)) return;
    const ok = { chains: 'starbucks', near: near(EL_CENTRO) };
    assertError(await search({ chains: 'starbucks' }), 400, 'near');
    assertError(await search({ ...ok, near: '32.7' }), 400, 'near', 'latitude,longitude');
    assertError(await search({ ...ok, near: '95,-115' }), 400, 'near');
    assertError(await search({ near: near(EL_CENTRO) }), 400, 'chains', 'at least one');
    assertError(await search({ near: near(EL_CENTRO), chains: ' , ' }), 400, 'chains', 'at least one');
    assertError(await search({ ...ok, radius: '99' }), 400, 'radius');
    assertError(await search({ ...ok, radius: '10001' }), 400, 'radius');
    assertError(await search({ ...ok, radius: 'far' }), 400, 'radius');
    assertError(await search({ ...ok, limit: '0' }), 400, 'limit');
    assertError(await search({ ...ok, limit: '101' }), 400, 'limit');
    assertError(await search({ ...ok, limit: '2.5' }), 400, 'limit');
    assertError(await search({ near: near(EL_CENTRO), categories: 'coffee' }), 400, 'categories', '"coffee"');
    assertError(await search({ near: near(EL_CENTRO), groups: 'snacks' }), 400, 'groups', '"snacks"');
    assertError(await search({ ...ok, chainMetadata: '[1]' }), 400, 'chainMetadata');
    assertError(await search({ ...ok, chainMetadata: 'not json' }), 400, 'chainMetadata');
    const secretOnly = await s.request('GET', `/v1/search/places?chains=starbucks&near=${near(EL_CENTRO)}`, {});
    assert.equal(secretOnly.status, 401);
  });

  it('with Places off, track and context say nothing about places', async (t) => {
    if (skipped(t)) return;
    const p = await s.createProject('places-off');
    const res = await track(s, trackBody('off-1', STARBUCKS_EL_CENTRO_AT), p.keys.test.publishable);
    assertOk(res);
    assert.equal(res.body.user.place, undefined);
    assert.equal(res.body.user.topChains, undefined);
    assert.deepEqual(
      typesOf(res).filter((x) => x.includes('place')),
      [],
    );
    const ctx = await get(s, '/v1/context', { coordinates: near(STARBUCKS_EL_CENTRO_AT) }, p.keys.test.publishable);
    assertOk(ctx);
    assert.equal(ctx.body.context.place, undefined);
  });

  it('track enters and exits places with confidence, alternates and duration, and keeps topChains', async (t) => {
    if (skipped(t)) return;
    const p = await s.createProject('places-on');
    const key = p.keys.test.publishable;
    assertOk(await settings({ features: { places: true }, chainMappings: { starbucks: 'SB' } }, p.keys.test.secret));

    const enter = await track(s, trackBody('visitor', STARBUCKS_EL_CENTRO_AT), key);
    assertOk(enter);
    assert.equal(enter.body.user.place._id, STARBUCKS_EL_CENTRO);
    assert.equal(enter.body.user.place.chain.externalId, 'SB');
    const entered = enter.body.events.find((e: { type: string }) => e.type === 'user.entered_place');
    assert.ok(entered, JSON.stringify(typesOf(enter)));
    assert.equal(entered.place._id, STARBUCKS_EL_CENTRO);
    assert.equal(entered.place.name, 'Starbucks');
    assert.equal(entered.confidence, 3, 'inside the building with a 10 m fix');
    assert.ok(Array.isArray(entered.alternatePlaces));
    assert.deepEqual(entered.location.coordinates, STARBUCKS_EL_CENTRO_AT);
    assert.deepEqual(enter.body.user.topChains, [{ name: 'Starbucks', slug: 'starbucks', externalId: 'SB' }]);

    // Staying put: no new events; a few meters of jitter do not leave the place.
    clock.advance(5 * 60_000);
    const stay = await track(s, trackBody('visitor', offset(STARBUCKS_EL_CENTRO_AT, 3, -2)), key);
    assert.deepEqual(
      typesOf(stay).filter((x) => x.includes('place')),
      [],
    );
    assert.equal(stay.body.user.place._id, STARBUCKS_EL_CENTRO);

    // Walking to the 7-Eleven: exit the Starbucks (12 minutes after entering), enter the store.
    clock.advance(7 * 60_000);
    const move = await track(s, trackBody('visitor', SEVEN_ELEVEN_STORE_AT), key);
    assertOk(move);
    assert.deepEqual(
      typesOf(move).filter((x) => x.includes('place')),
      ['user.exited_place', 'user.entered_place'],
    );
    const exited = move.body.events.find((e: { type: string }) => e.type === 'user.exited_place');
    assert.equal(exited.place._id, STARBUCKS_EL_CENTRO);
    assert.equal(exited.duration, 12);
    assert.equal(move.body.user.place._id, SEVEN_ELEVEN_STORE);
    const record = await s.request('GET', `/v1/users/${move.body.user._id}`, { key: p.keys.test.secret });
    assertOk(record);
    assert.equal(record.body.user.place._id, SEVEN_ELEVEN_STORE, 'the user record shows the current place');
    assert.deepEqual(
      move.body.user.topChains.map((c: { slug: string }) => c.slug),
      ['7-eleven', 'starbucks'],
      'ties go to the most recent visit',
    );

    // Far from any place: exit only, and user.place is gone.
    clock.advance(60_000);
    const away = await track(s, trackBody('visitor', [-115.6, 32.9]), key);
    assert.deepEqual(
      typesOf(away).filter((x) => x.includes('place')),
      ['user.exited_place'],
    );
    assert.equal(away.body.user.place, undefined);
    const left = await s.request('GET', `/v1/users/${move.body.user._id}`, { key: p.keys.test.secret });
    assert.equal(left.body.user.place, undefined);

    // A cell-tower fix (500 m) cannot tell one shop from the next: no entry, no place.
    clock.advance(60_000);
    const cell = await track(s, trackBody('visitor', STARBUCKS_EL_CENTRO_AT, { accuracy: 500 }), key);
    assert.deepEqual(
      typesOf(cell).filter((x) => x.includes('place')),
      [],
    );
    assert.equal(cell.body.user.place, undefined);

    // A coarse fix near a point place is low confidence.
    const coarse = await track(s, trackBody('coarse', offset(WAIKIKI_STARBUCKS_AT, 25, 0), { accuracy: 150 }), key);
    const low = coarse.body.events.find((e: { type: string }) => e.type === 'user.entered_place');
    assert.ok(low, JSON.stringify(typesOf(coarse)));
    assert.equal(low.confidence, 1);

    const ctx = await get(s, '/v1/context', { coordinates: near(STARBUCKS_EL_CENTRO_AT) }, key);
    assertOk(ctx);
    assert.equal(ctx.body.context.place._id, STARBUCKS_EL_CENTRO);
    assert.equal(ctx.body.context.place.chain.externalId, 'SB');
  });

  it('a shop beats the broad area around it (an airport, a campus, a mall)', async (t) => {
    if (skipped(t)) return;
    const p = await s.createProject('broad-areas');
    const key = p.keys.test.publishable;
    assertOk(await settings({ features: { places: true } }, p.keys.test.secret));
    const apron = await track(s, trackBody('flyer', offset(HNL_STARBUCKS_AT, 0, -600)), key);
    assert.equal(apron.body.user.place?._id, HNL_AIRPORT, JSON.stringify(apron.body.user.place));
    const inAirport = apron.body.events.find((e: { type: string }) => e.type === 'user.entered_place');
    assert.equal(inAirport.confidence, 2, 'inside a broad area');
    assert.ok(inAirport.place.categories.includes('airport'));
    clock.advance(30 * 60_000);
    const coffee = await track(s, trackBody('flyer', HNL_STARBUCKS_AT), key);
    assert.deepEqual(
      typesOf(coffee).filter((x) => x.includes('place')),
      ['user.exited_place', 'user.entered_place'],
    );
    assert.equal(coffee.body.user.place._id, HNL_STARBUCKS);
    const ctx = await get(s, '/v1/context', { coordinates: near(HNL_STARBUCKS_AT) }, key);
    assert.equal(ctx.body.context.place._id, HNL_STARBUCKS);
  });

  it('placeFilters limit entry and exit events to the chains and categories named', async (t) => {
    if (skipped(t)) return;
    const p = await s.createProject('place-filters');
    const key = p.keys.test.publishable;
    assertOk(
      await settings(
        { features: { places: true }, placeFilters: { chain: ['7-eleven'], category: ['bank'] } },
        p.keys.test.secret,
      ),
    );
    const cafe = await track(s, trackBody('filtered', STARBUCKS_EL_CENTRO_AT), key);
    assert.equal(cafe.body.user.place._id, STARBUCKS_EL_CENTRO, 'user.place is still answered');
    assert.deepEqual(
      typesOf(cafe).filter((x) => x.includes('place')),
      [],
    );
    clock.advance(60_000);
    const store = await track(s, trackBody('filtered', SEVEN_ELEVEN_STORE_AT), key);
    assert.deepEqual(
      typesOf(store).filter((x) => x.includes('place')),
      ['user.entered_place'],
      'no exit for a place whose entry was filtered out',
    );
    clock.advance(60_000);
    const gone = await track(s, trackBody('filtered', [-115.6, 32.9]), key);
    assert.deepEqual(
      typesOf(gone).filter((x) => x.includes('place')),
      ['user.exited_place'],
    );
  });
});
