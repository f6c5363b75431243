import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { setRegions, startGeodataServer } from './helpers/geodata.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { type LonLat, track, trackBody, typesOf } from './helpers/tracking.js';

const STATELINE_NV: LonLat = [-119.94, 38.9625];
const SOUTH_LAKE_TAHOE_CA: LonLat = [-119.9772, 38.9399];
const VADUZ: LonLat = [9.521, 47.141];
const BUCHS_CH: LonLat = [9.4781, 47.1667];
const PACIFIC: LonLat = [-150, 20];

interface Region {
  _id: string;
  type: string;
  code: string;
  name: string;
}
const regionOf = (res: { body: { events: Array<{ type: string; region?: Region }> } }, type: string) =>
  res.body.events.find((e) => e.type === type)?.region;

describe('Regions feature settings', () => {
  let s: TestServer;
  const settings = (json?: unknown) =>
    s.request(json === undefined ? 'GET' : 'PATCH', '/v1/settings', { key: s.keys.test.secret, json });
  before(async () => {
    s = await startServer();
  });
  after(() => s.close());

  it('GET /v1/settings shows the project features; PATCH turns one on and keeps the rest', async () => {
    assert.deepEqual((await settings()).body.features, { places: false, regions: false, insights: false });
    const on = await settings({ features: { regions: true } });
    assertOk(on);
    assert.deepEqual(on.body.features, { places: false, regions: true, insights: false });
    assert.deepEqual(on.body.placeFilters, { chain: [], category: [] });
    // Features are the project's: the live keys see the change too.
    const live = await s.request('GET', '/v1/settings', { key: s.keys.live.secret });
    assert.equal(live.body.features.regions, true);
    const form = await s.request('PATCH', '/v1/settings', {
      key: s.keys.test.secret,
      form: { features: '{"insights":"true","regions":false}' },
    });
    assert.deepEqual(form.body.features, { places: false, regions: false, insights: true });
    assert.deepEqual((await settings({ features: {} })).body.features, form.body.features);
  });

  it('rejects bad features, naming the parameter', async () => {
    assertError(await settings({ features: 'yes' }), 400, 'features');
    assertError(await settings({ features: [true] }), 400, 'features');
    assertError(await settings({ features: { regions: 'maybe' } }), 400, 'features', 'features.regions');
    assertError(await settings({ features: { geofencing: true } }), 400, 'features', 'geofencing');
    assert.equal((await settings()).body.features.regions, false, 'a refused PATCH changes nothing');
  });
});

describe('Regions on track', () => {
  let s: TestServer;
  const clock = new ManualClock();
  const trackAt = (deviceId: string, p: LonLat) => {
    clock.advance(60_000);
    return track(s, trackBody(deviceId, p));
  };
  before(async () => {
    s = await startGeodataServer({ clock });
  });
  after(() => s.close());

  it('is off by default: no region fields, no region events', async () => {
    const res = await trackAt('off', STATELINE_NV);
    assertOk(res);
    for (const f of ['country', 'state', 'dma', 'postalCode']) assert.equal(res.body.user[f], undefined, f);
    assert.deepEqual(typesOf(res), []);
  });

  it('fills user.country/state/postalCode and enters each region on the first update', async () => {
    await setRegions(s, true);
    const res = await trackAt('tahoe', STATELINE_NV);
    assertOk(res);
    const { user } = res.body;
    assert.deepEqual(user.country, {
      _id: 'country:US',
      type: 'country',
      code: 'US',
      name: 'United States',
      flag: '🇺🇸',
    });
    assert.deepEqual(user.state, { _id: 'state:US-NV', type: 'state', code: 'NV', name: 'Nevada' });
    assert.equal(user.postalCode.type, 'postalCode');
    assert.equal(user.postalCode.code, '89449');
    assert.equal(user.postalCode.name, '89449');
    assert.equal(user.dma, undefined, 'no DMA without an operator import');
    assert.deepEqual(typesOf(res), [
      'user.entered_region_country',
      'user.entered_region_state',
      'user.entered_region_postal_code',
    ]);
    const event = res.body.events[1];
    assert.deepEqual(event.region, user.state);
    assert.equal(event.confidence, 3);
    assert.deepEqual(event.location, { type: 'Point', coordinates: STATELINE_NV });
    assert.equal(event.user._id, user._id);
  });

  it('crossing the state line exits Nevada and enters California, with the minutes spent', async () => {
    const res = await trackAt('tahoe', SOUTH_LAKE_TAHOE_CA);
    assertOk(res);
    assert.deepEqual(typesOf(res), [
      'user.exited_region_state',
      'user.exited_region_postal_code',
      'user.entered_region_state',
      'user.entered_region_postal_code',
    ]);
    assert.equal(regionOf(res, 'user.exited_region_state')?.code, 'NV');
    assert.equal(regionOf(res, 'user.entered_region_state')?.code, 'CA');
    assert.equal(regionOf(res, 'user.entered_region_postal_code')?.code, '96150');
    const exit = res.body.events[0];
    assert.equal(exit.duration, 1, 'one minute between the two updates');
    assert.equal(res.body.user.state.code, 'CA');
    const stored = await s.deps.store.users.get({ projectId: s.projectId, live: false }, res.body.user._id);
    const kept = stored?.state.regions as Record<string, Region & { enteredAt: number }>;
    assert.equal(kept.state?._id, 'state:US-CA');
    assert.equal(kept.country?.enteredAt, clock.now() - 60_000, 'the country was entered on the first update');
  });

  it('staying put emits nothing; open sea exits every region', async () => {
    assert.deepEqual(typesOf(await trackAt('tahoe', SOUTH_LAKE_TAHOE_CA)), []);
    const sea = await trackAt('tahoe', PACIFIC);
    assert.deepEqual(typesOf(sea), [
      'user.exited_region_country',
      'user.exited_region_state',
      'user.exited_region_postal_code',
    ]);
    assert.equal(sea.body.user.country, undefined);
  });

  it('crossing a border changes country and admin-1 state (Vaduz to Buchs)', async () => {
    await trackAt('rhine', VADUZ);
    const res = await trackAt('rhine', BUCHS_CH);
    assert.deepEqual(typesOf(res), [
      'user.exited_region_country',
      'user.exited_region_state',
      'user.entered_region_country',
      'user.entered_region_state',
    ]);
    assert.equal(regionOf(res, 'user.exited_region_country')?._id, 'country:LI');
    assert.equal(res.body.user.country.code, 'CH');
    assert.equal(res.body.user.state._id, 'state:CH-SG');
    assert.equal(res.body.user.postalCode, undefined, 'ZIP codes are US only');
  });

  it('turned off again: no fields and no events', async () => {
    await setRegions(s, false);
    const res = await trackAt('rhine', VADUZ);
    assert.equal(res.body.user.country, undefined);
    assert.deepEqual(typesOf(res), []);
  });
});

describe('Regions without a geodata pack', () => {
  it('track still works and leaves the region fields out', async () => {
    const s = await startServer();
    try {
      await setRegions(s, true);
      const res = await track(s, trackBody('bare', STATELINE_NV));
      assertOk(res);
      assert.equal(res.body.user.country, undefined);
      assert.deepEqual(typesOf(res), []);
    } finally {
      await s.close();
    }
  });
});
