import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, assertOk } from './helpers/assertions.js';
import { type ApiResponse, ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, track, trackBody } from './helpers/tracking.js';

/**
 * A track refused for what it carries uses up none of its device's windows (1/s, 180/h, 1,000/d)
 * and none of the project's usage, whether it is refused before the limit is counted (its body's
 * parameters, its size, its content type) or after (its `tripOptions`, read inside the track). Each
 * refusal is followed by a valid track of the same device at the same instant: had the refusal been
 * counted, the 1/s window would answer that one 429.
 */
describe('refused tracks cost the device and the project nothing', () => {
  let s: TestServer;
  const clock = new ManualClock();
  const PER_KEY = 5;
  let n = 0;
  const device = () => `dev-refused-${n++}`;
  const usage = () => s.deps.usage.monthTotal(s.projectId, clock.now());

  before(async () => {
    s = await startServer({ clock, requestsPerSecond: PER_KEY });
  });
  after(() => s.close());

  /** Sends `refuse` (expecting `status`), then a valid track of the device: accepted, and the only one counted. */
  async function refusedThenAccepted(
    deviceId: string,
    status: number,
    refuse: () => Promise<ApiResponse>,
    param?: string,
  ): Promise<void> {
    const before = await usage();
    assertError(await refuse(), status, param);
    assert.equal(await usage(), before, 'a refused track is no usage');
    const ok = await track(s, trackBody(deviceId, BROOKLYN));
    assertOk(ok);
    assert.equal(ok.headers.get('ratelimit-limit'), '1');
    assert.equal(ok.headers.get('ratelimit-remaining'), '0');
    assert.equal(await usage(), before + 1, 'the accepted track is counted once');
    assertError(await track(s, trackBody(deviceId, BROOKLYN)), 429);
    clock.advance(1000);
  }

  it('400 for a body parameter', async () => {
    const d = device();
    await refusedThenAccepted(d, 400, () => track(s, trackBody(d, BROOKLYN, { latitude: 91 })), 'latitude');
  });

  it('400 for tripOptions, found inside the track after the device was counted', async () => {
    const d = device();
    const bad = () => track(s, trackBody(d, BROOKLYN, { tripOptions: { externalId: 'trip', mode: 'plane' } }));
    // The refused track's answer says what is left: the window it took is back.
    const refused = await bad();
    assertError(refused, 400, 'tripOptions.mode');
    assert.equal(refused.headers.get('ratelimit-remaining'), '1');
    await refusedThenAccepted(d, 400, bad, 'tripOptions.mode');
    // Nothing of the refused tracks was kept: no trip.
    const trip = await s.request('GET', '/v1/trips/trip', { key: s.keys.test.secret });
    assertError(trip, 404);
  });

  it('400 for tripOptions in a replay', async () => {
    const d = device();
    const replays = [
      trackBody(d, BROOKLYN, { updatedAt: new Date(clock.now() - 60_000).toISOString() }),
      trackBody(d, BROOKLYN, { tripOptions: { externalId: 'replayed-trip', mode: 'plane' } }),
    ];
    await refusedThenAccepted(
      d,
      400,
      () => s.request('POST', '/v1/track/replay', { key: s.keys.test.publishable, json: { replays } }),
      'tripOptions.mode',
    );
  });

  it('413 for a body over the size limit', async () => {
    const d = device();
    const huge = trackBody(d, BROOKLYN, { padding: 'x'.repeat(s.deps.config.bodyLimitBytes) });
    await refusedThenAccepted(d, 413, () => track(s, huge), 'body');
  });

  it('415 for a body in a content type the API does not read', async () => {
    const d = device();
    const xml = async (): Promise<ApiResponse> => {
      const res = await fetch(`${s.url}/v1/track`, {
        method: 'POST',
        headers: { authorization: s.keys.test.publishable, 'content-type': 'application/xml' },
        body: JSON.stringify(trackBody(d, BROOKLYN)),
      });
      return { status: res.status, headers: res.headers, body: await res.json() };
    };
    await refusedThenAccepted(d, 415, xml);
  });

  it('181 refused tracks in an hour, then a valid one: accepted, not 429', async () => {
    const d = device();
    const before = await usage();
    for (let i = 0; i < 181; i++) {
      const res = await track(s, trackBody(d, BROOKLYN, { tripOptions: { externalId: 'e', mode: 'plane' } }));
      assert.equal(res.status, 400, `refusal ${i}: ${JSON.stringify(res.body)}`);
      clock.advance(1000);
    }
    const ok = await track(s, trackBody(d, BROOKLYN));
    assertOk(ok);
    assert.equal(await usage(), before + 1);
    // The hour counts the accepted track alone: 179 more fit, a second apart.
    for (let i = 0; i < 179; i++) {
      clock.advance(1000);
      assertOk(await track(s, trackBody(d, BROOKLYN)));
    }
    clock.advance(1000);
    const full = await track(s, trackBody(d, BROOKLYN));
    assertError(full, 429);
    assert.match(full.body.meta.message, /180 tracks per hour per device/);
    clock.advance(3_600_000);
  });

  it('two tracks of a device sent at once: one passes the 1/s window, whatever the store', async () => {
    const d = device();
    const [a, b] = await Promise.all([track(s, trackBody(d, BROOKLYN)), track(s, trackBody(d, BROOKLYN))]);
    assert.deepEqual([a.status, b.status].sort(), [200, 429]);
    clock.advance(1000);
  });

  it('a flood of bad requests on one key meets the per-key 429, and is no usage', async () => {
    const before = await usage();
    const statuses: number[] = [];
    for (let i = 0; i < PER_KEY + 2; i++)
      statuses.push((await s.request('GET', '/v1/users?limit=0', { key: s.keys.test.secret })).status);
    assert.deepEqual(statuses, [...Array(PER_KEY).fill(400), 429, 429]);
    assert.equal(await usage(), before);
    clock.advance(1000);
    assertOk(await s.request('GET', '/v1/users', { key: s.keys.test.secret }));
    assert.equal(await usage(), before + 1);
  });
});
