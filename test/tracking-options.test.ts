import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { loadRadarJs } from './helpers/radar-sdk-js.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, deviceIds, track, trackBody } from './helpers/tracking.js';

// The keys radar-sdk-ios reads (RadarTrackingOptions trackingOptionsFromDictionary:) and the extra ones
// radar-sdk-android reads (RadarTrackingOptions.fromJson).
const IOS_KEYS = [
  'desiredStoppedUpdateInterval',
  'desiredMovingUpdateInterval',
  'desiredSyncInterval',
  'desiredAccuracy',
  'stopDuration',
  'stopDistance',
  'startTrackingAfter',
  'stopTrackingAfter',
  'sync',
  'replay',
  'showBlueBar',
  'useStoppedGeofence',
  'stoppedGeofenceRadius',
  'useMovingGeofence',
  'movingGeofenceRadius',
  'syncGeofences',
  'useVisits',
  'useSignificantLocationChanges',
  'beacons',
].sort();
const ANDROID_ONLY = [
  'fastestStoppedUpdateInterval',
  'fastestMovingUpdateInterval',
  'syncGeofencesLimit',
  'foregroundServiceEnabled',
  'rampUpRadius',
];

const FULL = {
  desiredStoppedUpdateInterval: 120,
  desiredMovingUpdateInterval: 60,
  desiredSyncInterval: 30,
  desiredAccuracy: 'low',
  stopDuration: 200,
  stopDistance: 50,
  startTrackingAfter: null,
  stopTrackingAfter: '2031-01-02T03:04:05.000Z',
  sync: 'stopsAndExits',
  replay: 'all',
  useStoppedGeofence: true,
  stoppedGeofenceRadius: 200,
  syncGeofences: true,
  syncGeofencesLimit: 20,
  beacons: false,
};

describe('remote tracking options, SDK configuration and feature settings', () => {
  let s: TestServer;
  const clock = new ManualClock(Date.now());
  const deviceId = deviceIds(clock, 'options-device');
  const patch = (json: unknown, key = s.keys.test.secret) => s.request('PATCH', '/v1/settings', { key, json });
  const config = (platform?: string, key = s.keys.test.publishable) =>
    s.request('GET', '/v1/config?installId=i-1&sessionId=1795300844&locationAuthorization=GRANTED_FOREGROUND', {
      key,
      headers: platform ? { 'X-Radar-Device-Type': platform, 'X-Radar-Config': 'true' } : {},
    });
  const settings = async () => {
    const res = await s.request('GET', '/v1/settings', { key: s.keys.test.secret });
    const { meta: _meta, ...rest } = res.body;
    return rest;
  };

  before(async () => {
    s = await startServer({ clock });
  });
  after(() => s.close());

  it('unset: /v1/config and a track answer meta with the code alone, as before', async () => {
    const res = await config('iOS');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { meta: { code: 200 } });
    const t = await track(s, trackBody(deviceId(), BROOKLYN));
    assert.deepEqual(t.body.meta, { code: 200 });
    assert.equal('trackingOptions' in (await settings()), false);
  });

  it("a preset expands to each SDK's own preset, in /v1/config and in every track's meta", async () => {
    const res = await patch({ trackingOptions: 'responsive' });
    assert.equal(res.status, 200);
    assert.equal(res.body.trackingOptions, 'responsive');

    const ios = (await config('iOS')).body.meta.trackingOptions;
    assert.deepEqual(Object.keys(ios).sort(), IOS_KEYS);
    assert.equal(ios.desiredStoppedUpdateInterval, 0);
    assert.equal(ios.desiredMovingUpdateInterval, 150);
    assert.equal(ios.desiredAccuracy, 'medium');
    assert.equal(ios.replay, 'stops');
    assert.equal(ios.sync, 'all');
    assert.equal(ios.useStoppedGeofence, true);
    assert.equal(ios.stoppedGeofenceRadius, 100);
    assert.equal(ios.useVisits, true);
    assert.equal(ios.useSignificantLocationChanges, true);
    assert.equal(ios.startTrackingAfter, null);

    const android = (await config('Android')).body.meta.trackingOptions;
    for (const k of ANDROID_ONLY) assert.ok(k in android, k);
    assert.equal(android.fastestMovingUpdateInterval, 30);
    assert.equal(android.useMovingGeofence, true, "Android's responsive preset differs from iOS's here");
    assert.equal(android.syncGeofencesLimit, 10);

    // A replayed Android track: the platform comes from the body.
    const t = await track(
      s,
      trackBody(deviceId(), BROOKLYN, { deviceType: 'Android', trackingOptions: { desiredAccuracy: 'high' } }),
    );
    assert.equal(t.status, 200);
    assert.deepEqual(t.body.meta.trackingOptions, android);
    const replay = await s.request('POST', '/v1/track/replay', {
      key: s.keys.test.publishable,
      json: { replays: [trackBody(deviceId(), BROOKLYN, { deviceType: 'iOS', replayed: true })] },
    });
    assert.equal(replay.status, 200);
    assert.deepEqual(replay.body.meta.trackingOptions, ios);
  });

  it('a full options object is checked field by field and answered as given', async () => {
    const res = await patch({ trackingOptions: FULL });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.trackingOptions, FULL);
    assert.deepEqual((await config('iOS')).body.meta.trackingOptions, FULL);
    assert.deepEqual((await config('Android')).body.meta.trackingOptions, FULL);

    const refused: Array<[unknown, RegExp]> = [
      ['fast', /^trackingOptions must be one of continuous, responsive, efficient/],
      [{ ...FULL, desiredAccuracy: 'ultra' }, /^trackingOptions\.desiredAccuracy must be one of high, medium, low/],
      [{ ...FULL, desiredSyncInterval: -5 }, /^trackingOptions\.desiredSyncInterval must be a whole number/],
      [{ ...FULL, stopDistance: '50' }, /^trackingOptions\.stopDistance must be a whole number/],
      [{ ...FULL, useVisits: 'yes' }, /^trackingOptions\.useVisits must be true or false/],
      [{ ...FULL, stopTrackingAfter: 'tomorrow' }, /^trackingOptions\.stopTrackingAfter must be an ISO 8601 date/],
      [{ ...FULL, warpDrive: true }, /^trackingOptions\.warpDrive is not a tracking option/],
      [{ desiredAccuracy: 'high' }, /^trackingOptions\.desiredStoppedUpdateInterval is required/],
      [[1, 2], /^trackingOptions must be one of/],
    ];
    const before = await settings();
    for (const [value, message] of refused) {
      // With a valid field beside it: a refused PATCH changes nothing at all.
      const bad = await patch({ trackingOptions: value, chainMappings: { starbucks: 'changed' } });
      assert.equal(bad.status, 400, JSON.stringify(value));
      assert.equal(bad.body.meta.param, 'trackingOptions');
      assert.match(bad.body.meta.message, message);
    }
    assert.deepEqual(await settings(), before);
    assert.deepEqual((await config('iOS')).body.meta.trackingOptions, FULL);
  });

  it('sdkConfiguration and featureSettings in the names and types the SDKs parse', async () => {
    const res = await patch({
      sdkConfiguration: {
        logLevel: 'debug',
        startTrackingOnInitialize: true,
        trackOnceOnAppOpen: true,
        useLocationMetadata: false,
        remoteTrackingOptions: [
          { type: 'onTrip', trackingOptions: 'continuous' },
          { type: 'inGeofence', trackingOptions: 'efficient', geofenceTags: ['store'] },
        ],
      },
      featureSettings: {
        useRadarKVStore: true,
        useRadarModifiedBeacon: false,
        radarLowPowerManagerDesiredAccuracy: 3000,
        radarLowPowerManagerDistanceFilter: 3000,
      },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.sdkConfiguration.remoteTrackingOptions[1], {
      type: 'inGeofence',
      trackingOptions: 'efficient',
      geofenceTags: ['store'],
    });
    const meta = (await config('iOS')).body.meta;
    assert.equal(meta.sdkConfiguration.logLevel, 'debug');
    assert.equal(meta.sdkConfiguration.startTrackingOnInitialize, true);
    assert.equal(meta.sdkConfiguration.trackOnceOnAppOpen, true);
    assert.equal(meta.sdkConfiguration.useLocationMetadata, false);
    const [onTrip, inGeofence] = meta.sdkConfiguration.remoteTrackingOptions;
    assert.equal(onTrip.type, 'onTrip');
    assert.equal(onTrip.trackingOptions.desiredAccuracy, 'high', 'a preset is expanded inside too');
    assert.equal(onTrip.trackingOptions.desiredMovingUpdateInterval, 30);
    assert.deepEqual(inGeofence.geofenceTags, ['store']);
    assert.equal(inGeofence.trackingOptions.useVisits, true);
    assert.deepEqual(meta.featureSettings, {
      useRadarKVStore: true,
      useRadarModifiedBeacon: false,
      radarLowPowerManagerDesiredAccuracy: 3000,
      radarLowPowerManagerDistanceFilter: 3000,
    });
    const t = await track(s, trackBody(deviceId(), BROOKLYN, { deviceType: 'iOS' }));
    assert.deepEqual(t.body.meta.sdkConfiguration, meta.sdkConfiguration);
    assert.deepEqual(t.body.meta.featureSettings, meta.featureSettings);

    const before = await settings();
    const refused: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ sdkConfiguration: { logLevel: 'loud' } }, 'sdkConfiguration', /^sdkConfiguration\.logLevel must be one of/],
      [
        { sdkConfiguration: { trackOnceOnAppOpen: 'yes' } },
        'sdkConfiguration',
        /trackOnceOnAppOpen must be true or false/,
      ],
      [{ sdkConfiguration: 'on' }, 'sdkConfiguration', /^sdkConfiguration must be an object/],
      [
        { sdkConfiguration: { remoteTrackingOptions: [{ type: 'sometimes', trackingOptions: 'efficient' }] } },
        'sdkConfiguration',
        /^sdkConfiguration\.remoteTrackingOptions\[0\]\.type must be one of default, onTrip, inGeofence/,
      ],
      [
        { sdkConfiguration: { remoteTrackingOptions: [{ type: 'default', trackingOptions: { desiredAccuracy: 1 } }] } },
        'sdkConfiguration',
        /^sdkConfiguration\.remoteTrackingOptions\[0\]\.trackingOptions\.desiredAccuracy must be one of/,
      ],
      [
        { featureSettings: { useRadarKVStore: 'x' } },
        'featureSettings',
        /^featureSettings\.useRadarKVStore must be true or false/,
      ],
      [{ featureSettings: { nested: { a: 1 } } }, 'featureSettings', /^featureSettings\.nested must be true, false/],
    ];
    for (const [json, param, message] of refused) {
      const bad = await patch({ ...json, trackingOptions: 'efficient' });
      assert.equal(bad.status, 400, JSON.stringify(json));
      assert.equal(bad.body.meta.param, param);
      assert.match(bad.body.meta.message, message);
    }
    assert.deepEqual(await settings(), before);
  });

  it('per environment: the live key sees none of the test settings; null removes one', async () => {
    assert.deepEqual((await config('iOS', s.keys.live.publishable)).body, { meta: { code: 200 } });
    const res = await patch({ trackingOptions: null, featureSettings: null });
    assert.equal(res.status, 200);
    assert.equal('trackingOptions' in res.body, false);
    const meta = (await config('iOS')).body.meta;
    assert.equal('trackingOptions' in meta, false);
    assert.equal('featureSettings' in meta, false);
    assert.equal(meta.sdkConfiguration.logLevel, 'debug', 'kept');
  });

  it('the CLI sets them per environment, seen by the running server at once', async () => {
    const env = { DATA_DIR: s.dataDir, DATABASE_URL: s.deps.config.databaseUrl ?? '' };
    const bad = await runCli(['projects', 'set', 'default', '--tracking-options', 'sporadic', '--env', 'live'], env);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--tracking-options: trackingOptions must be one of continuous, responsive, efficient/);
    const ok = await runCli(
      [
        'projects',
        'set',
        'default',
        '--tracking-options',
        'efficient',
        '--feature-settings',
        '{"useRadarKVStore":true}',
        '--env',
        'live',
      ],
      env,
    );
    assert.equal(ok.code, 0, ok.stderr);
    const live = (await config('Android', s.keys.live.publishable)).body.meta;
    assert.equal(live.trackingOptions.desiredStoppedUpdateInterval, 3600, "Android's efficient preset");
    assert.equal(live.trackingOptions.rampUpRadius, 200);
    assert.deepEqual(live.featureSettings, { useRadarKVStore: true });
    assert.equal('trackingOptions' in (await config('Android')).body.meta, false, 'test environment untouched');
  });

  it('published radar-sdk-js: trackOnce gets meta.trackingOptions (iOS shape for the web)', async () => {
    assert.equal((await patch({ trackingOptions: 'continuous' })).status, 200);
    const Radar = await loadRadarJs(s.url, s.keys.test.publishable, BROOKLYN);
    clock.advance(2000);
    const res = await Radar.trackOnce({ latitude: BROOKLYN[1], longitude: BROOKLYN[0], accuracy: 10 });
    assert.match(res.user._id, /^[0-9a-f]{24}$/);
    const options = res.response.meta.trackingOptions;
    assert.deepEqual(Object.keys(options).sort(), IOS_KEYS);
    assert.equal(options.showBlueBar, true);
    assert.equal(options.desiredStoppedUpdateInterval, 30);
  });
});
