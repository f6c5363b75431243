import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { monthOf } from '../src/domain/projects/usage-meter.js';
import { assertError, assertOk } from './helpers/assertions.js';
import { runCli } from './helpers/cli.js';
import { get, startGeodataServer } from './helpers/geodata.js';
import { loadRadarJs } from './helpers/radar-sdk-js.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset, putCircle } from './helpers/tracking.js';

describe("the SDKs' other calls: autocomplete click, logs, region sync, CORS", () => {
  const clock = new ManualClock();
  let s: TestServer;
  const pk = () => s.keys.test.publishable;
  const post = (url: string, json: unknown, key = pk()) => s.request('POST', url, { key, json });
  const tenant = () => ({ projectId: s.projectId, live: false });

  before(async () => {
    s = await startServer({ clock });
  });
  after(() => s.close());

  describe('POST /v1/search/autocomplete/click', () => {
    it('answers 200 {meta} to what the autocomplete plugin sends, and counts it', async () => {
      const res = await fetch(`${s.url}/v1/search/autocomplete/click`, {
        method: 'POST',
        // radar-sdk-js 5.2: JSON, keepalive, the SDK's headers.
        headers: { authorization: pk(), 'content-type': 'application/json', 'x-radar-device-type': 'Web' },
        body: JSON.stringify({ sessionToken: '6f1c7a4e-2d1b-4f7e-9a55-0c3a1e2b3c4d', requestId: 'req-1', idx: 2 }),
        keepalive: true,
      });
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { meta: { code: 200 } });
      await s.deps.usage.flush();
      const rows = await s.deps.store.usage.monthTable(s.projectId, monthOf(clock.now()));
      const clicks = rows.find((r) => r.endpoint === 'POST /v1/search/autocomplete/click');
      assert.equal(clicks?.count, 1);
    });

    it('refuses a missing or impossible idx, naming it', async () => {
      assertError(await post('/v1/search/autocomplete/click', { sessionToken: 't', requestId: 'r' }), 400, 'idx');
      assertError(await post('/v1/search/autocomplete/click', { idx: -1 }), 400, 'idx');
      assertError(await post('/v1/search/autocomplete/click', { idx: 'first' }), 400, 'idx');
    });
  });

  describe('POST /v1/logs', () => {
    /** The iOS SDK's body: its _id, installId, deviceId, sessionId and the buffered lines. */
    const iosLogs = (deviceId: string, lines: Array<Record<string, unknown>>) => ({
      id: '65f0c0ffee0000000000abcd',
      installId: 'install-1',
      deviceId,
      sessionId: '1795300844',
      logs: lines,
    });

    it('keeps the lines per device, readable with `projects logs`', async () => {
      const res = await post(
        '/v1/logs',
        iosLogs('ios-dev-1', [
          { level: 'info', type: 'SDK_CALL', message: 'trackOnce()', createdAt: '2026-01-05T11:59:58.123+0000' },
          { level: 'error', type: 'SDK_ERROR', message: 'Location timeout', createdAt: '2026-01-05T11:59:59.000Z' },
        ]),
      );
      assertOk(res);
      const lines = await s.deps.store.deviceLogs.list(tenant(), 'ios-dev-1', 10);
      assert.deepEqual(
        lines.map((l) => [l.level, l.type, l.message, new Date(l.createdAt).toISOString()]),
        [
          ['info', 'SDK_CALL', 'trackOnce()', '2026-01-05T11:59:58.123Z'],
          ['error', 'SDK_ERROR', 'Location timeout', '2026-01-05T11:59:59.000Z'],
        ],
      );
      const cli = await runCli(['projects', 'logs', 'default', '--device', 'ios-dev-1'], {
        DATA_DIR: s.dataDir,
        DATABASE_URL: s.deps.config.databaseUrl ?? '',
      });
      assert.equal(cli.code, 0, cli.stderr);
      assert.deepEqual(cli.stdout.trim().split('\n'), [
        '2026-01-05T11:59:58.123Z\tinfo\tSDK_CALL\ttrackOnce()',
        '2026-01-05T11:59:59.000Z\terror\tSDK_ERROR\tLocation timeout',
      ]);
      const other = await runCli(['projects', 'logs', 'default', '--device', 'nobody'], {
        DATA_DIR: s.dataDir,
        DATABASE_URL: s.deps.config.databaseUrl ?? '',
      });
      assert.equal(other.stdout, '');
    });

    it('keeps only the newest 1,000 lines of a device, whatever other devices send', async () => {
      const batch = (from: number, n: number) =>
        Array.from({ length: n }, (_, i) => ({ level: 'debug', message: `line ${from + i}` }));
      assertOk(await post('/v1/logs', iosLogs('busy-dev', batch(0, 700))));
      assertOk(await post('/v1/logs', iosLogs('quiet-dev', batch(0, 3))));
      assertOk(await post('/v1/logs', iosLogs('busy-dev', batch(700, 700))));
      const kept = await s.deps.store.deviceLogs.list(tenant(), 'busy-dev', 5000);
      assert.equal(kept.length, 1000);
      assert.equal(kept[0]?.message, 'line 400');
      assert.equal(kept.at(-1)?.message, 'line 1399');
      assert.equal((await s.deps.store.deviceLogs.list(tenant(), 'quiet-dev', 5000)).length, 3);
    });

    it('refuses bad bodies naming the parameter, and keeps nothing of them', async () => {
      assertError(await post('/v1/logs', { deviceId: 'bad-dev' }), 400, 'logs');
      assertError(await post('/v1/logs', { deviceId: 'bad-dev', logs: 'hello' }), 400, 'logs');
      assertError(await post('/v1/logs', { logs: [{ message: 'x' }] }), 400, 'deviceId');
      assertError(
        await post('/v1/logs', { deviceId: 'bad-dev', logs: [{ message: 'fine' }, { message: 42 }] }),
        400,
        'logs',
        'logs[1].message',
      );
      assertError(
        await post('/v1/logs', { deviceId: 'bad-dev', logs: [{ message: 'x', createdAt: 'yesterday' }] }),
        400,
        'logs',
      );
      assertError(
        await post('/v1/logs', { deviceId: 'bad-dev', logs: Array.from({ length: 1001 }, () => ({ message: 'x' })) }),
        400,
        'logs',
      );
      assert.deepEqual(await s.deps.store.deviceLogs.list(tenant(), 'bad-dev', 10), []);
    });
  });

  describe('POST /v1/sync/region', () => {
    it('answers the geofences and beacons around the device and the region they cover, as iOS parses it', async () => {
      const here = offset(BROOKLYN, 20_000, 0);
      await putCircle(s, 'sync', 'near', offset(here, 300, 0), 100);
      await putCircle(s, 'sync', 'far', offset(here, 9000, 0), 100);
      const beacon = await s.request('PUT', '/v1/beacons/sync/b1', {
        key: s.keys.test.secret,
        json: {
          description: 'door',
          type: 'ibeacon',
          uuid: 'b9407f30-f5f8-466e-aff9-25556b57fe6d',
          major: '100',
          minor: '1',
          coordinates: offset(here, 50, 0),
        },
      });
      assertOk(beacon);
      const res = await post('/v1/sync/region', { latitude: here[1], longitude: here[0], userId: 'sync-user' });
      assertOk(res);
      assert.deepEqual(
        res.body.geofences.map((g: { externalId: string }) => g.externalId),
        ['near'],
      );
      const g = res.body.geofences[0];
      assert.equal(g.geometry.type, 'Polygon', 'with geometry, for the device to monitor');
      assert.equal(g.geometryCenter.type, 'Point');
      assert.equal(g.enabled, true);
      assert.deepEqual(
        res.body.beacons.map((b: { major: string; minor: string }) => [b.major, b.minor]),
        [['100', '1']],
      );
      assert.deepEqual(res.body.places, []);
      assert.deepEqual(res.body.region, { latitude: here[1], longitude: here[0], radius: 5000 });
    });

    it('refuses a missing or impossible coordinate, naming it', async () => {
      assertError(await post('/v1/sync/region', { longitude: 0 }), 400, 'latitude');
      assertError(await post('/v1/sync/region', { latitude: 0, longitude: 200 }), 400, 'longitude');
    });
  });

  describe('CORS preflights', () => {
    it('allow the headers the page asks for, its own included, before any key', async () => {
      const res = await fetch(`${s.url}/v1/events`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://127.0.0.1:9999',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type,x-radar-device-type,x-app-tenant,X-Trace-Id',
        },
      });
      assert.equal(res.status, 204);
      const allowed = (res.headers.get('access-control-allow-headers') ?? '').split(/,\s*/);
      for (const h of ['authorization', 'content-type', 'x-radar-device-type', 'x-app-tenant', 'x-trace-id'])
        assert.ok(allowed.includes(h), `${h} in ${allowed.join(',')}`);
      assert.equal(res.headers.get('access-control-allow-origin'), 'http://127.0.0.1:9999');
      assert.match(res.headers.get('vary') ?? '', /Access-Control-Request-Headers/);
      assert.match(res.headers.get('access-control-allow-methods') ?? '', /PUT/);
    });

    it('echo only header names, not other text', async () => {
      const res = await fetch(`${s.url}/v1/track`, {
        method: 'OPTIONS',
        headers: { 'access-control-request-headers': 'x-ok, bad name, x(y)' },
      });
      const allowed = (res.headers.get('access-control-allow-headers') ?? '').split(/,\s*/);
      assert.ok(allowed.includes('x-ok'));
      assert.ok(!allowed.includes('bad name') && !allowed.includes('x(y)'));
    });
  });
});

describe('country lists: country=US,CA in forward geocoding and autocomplete', () => {
  let s: TestServer;
  const codes = (res: { body: { addresses: Array<{ countryCode: string }> } }) =>
    new Set(res.body.addresses.map((a) => a.countryCode));
  before(async () => {
    s = await startGeodataServer();
  });
  after(() => s.close());

  it('forward: results in any of the countries, none elsewhere', async () => {
    const both = await get(s, '/v1/geocode/forward', { query: 'paris', country: 'us,FR' });
    assertOk(both);
    assert.deepEqual([...codes(both)].sort(), ['FR', 'US']);
    const one = await get(s, '/v1/geocode/forward', { query: 'paris', country: 'US' });
    assert.deepEqual([...codes(one)], ['US']);
  });

  it('autocomplete: country (mobile) and countryCode (web) both take lists', async () => {
    for (const param of ['country', 'countryCode']) {
      const res = await get(s, '/v1/search/autocomplete', { query: 'san', [param]: 'MX,US', limit: '20' });
      assertOk(res);
      const found = codes(res);
      assert.ok(found.size > 0 && [...found].every((c) => c === 'MX' || c === 'US'), [...found].join(','));
    }
  });

  it('autocomplete answers meta.requestId, which radar-sdk-js hands back for the click report', async () => {
    const res = await get(s, '/v1/search/autocomplete', { query: 'san', limit: '3' });
    assertOk(res);
    assert.equal(typeof res.body.meta.requestId, 'string');
    assert.equal(res.body.meta.requestId, res.headers.get('x-radar-request-id'));
    const Radar = await loadRadarJs(s.url, s.keys.test.publishable, BROOKLYN);
    const { requestId, addresses } = await Radar.autocomplete({ query: 'san', limit: 3 });
    assert.ok(addresses.length > 0);
    assert.match(requestId ?? '', /\S/, 'the SDK read it');
    assert.notEqual(requestId, res.body.meta.requestId, 'one per answer');
  });

  it('a code that is not one answers 400 naming the parameter', async () => {
    assertError(await get(s, '/v1/geocode/forward', { query: 'paris', country: 'US,FRA' }), 400, 'country');
    assertError(
      await get(s, '/v1/search/autocomplete', { query: 'san', countryCode: 'US,' + 'x' }),
      400,
      'countryCode',
    );
  });
});

describe('beacon exits without ranging: farther than the sync radius plus the accuracy', () => {
  const clock = new ManualClock();
  let s: TestServer;
  const uuid = 'f7826da6-4fa2-4e98-8024-bc5b71e0893e';
  const at = offset(BROOKLYN, -9000, -9000);
  const trackAt = (p: [number, number], extra: Record<string, unknown> = {}) => {
    clock.advance(60_000);
    return s.request('POST', '/v1/track', {
      key: s.keys.test.publishable,
      json: { deviceId: 'beacon-walker', latitude: p[1], longitude: p[0], accuracy: 50, ...extra },
    });
  };
  const types = (res: { body: { events: Array<{ type: string }> } }) => res.body.events.map((e) => e.type);

  before(async () => {
    s = await startServer({ clock });
    const put = await s.request('PUT', '/v1/beacons/lobby/door', {
      key: s.keys.test.secret,
      json: { description: 'door', type: 'ibeacon', uuid, major: '1', minor: '2', coordinates: at },
    });
    assertOk(put);
  });
  after(() => s.close());

  it('stays in while within 1 km plus accuracy, exits once beyond, with a duration', async () => {
    const entered = await trackAt(at, { beacons: [{ uuid, major: '1', minor: '2', rssi: -60 }] });
    assert.deepEqual(types(entered), ['user.entered_beacon']);
    // 1,040 m away with a 50 m accuracy: possibly still near, nothing changes.
    const near = await trackAt(offset(at, 1040, 0));
    assert.deepEqual(types(near), []);
    assert.equal(near.body.user.beacons.length, 1);
    // 1,100 m away: beyond 1,000 + 50 m.
    const gone = await trackAt(offset(at, 1100, 0));
    assert.deepEqual(types(gone), ['user.exited_beacon']);
    assert.equal(gone.body.events[0].beacon.description, 'door');
    assert.equal(gone.body.events[0].duration, 2);
    assert.deepEqual(gone.body.user.beacons, []);
    // Gone for good: a later silent track exits nothing more.
    assert.deepEqual(types(await trackAt(offset(at, 3000, 0))), []);
  });
});
