import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newWebhook } from '../src/domain/webhooks/webhook.js';
import { assertError, assertIsoMs, assertOk } from './helpers/assertions.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset, putCircle, track, trackBody } from './helpers/tracking.js';

describe('GET /v1/webhooks, /v1/webhooks/deliveries and /v1/usage: what the Settings page shows', () => {
  const clock = new ManualClock(Date.parse('2026-03-10T12:00:00.000Z'));
  let s: TestServer;
  const center = offset(BROOKLYN, 1500, -800);
  // Nothing listens on port 9: with the sender off the deliveries stay pending, in the log all the same.
  const testHook = newWebhook({ url: 'http://127.0.0.1:9/test', live: false, types: null }, clock.now());
  const liveHook = newWebhook({ url: 'http://127.0.0.1:9/live', live: true, types: null }, clock.now());

  before(async () => {
    s = await startServer({ clock, env: { SEND_WEBHOOKS: 'off' } });
    await s.updateProject('default', (p) => ({ ...p, webhooks: [testHook, liveHook] }));
    await putCircle(s, 'admin', 'shop', center, 200);
  });
  after(() => s.close());

  it("lists the environment's webhooks with their secret cut to its last four characters", async () => {
    const res = await s.request('GET', '/v1/webhooks', { key: s.keys.test.secret });
    assertOk(res);
    assert.equal(res.body.webhooks.length, 1, 'only the test environment’s webhook');
    const [w] = res.body.webhooks;
    assert.equal(w._id, testHook.id);
    assert.equal(w.url, testHook.url);
    assert.equal(w.secret, `…${testHook.secret.slice(-4)}`);
    assert.ok(!JSON.stringify(res.body).includes(testHook.secret));
    assertIsoMs(w.createdAt);
    const live = await s.request('GET', '/v1/webhooks', { key: s.keys.live.secret });
    assert.deepEqual(
      live.body.webhooks.map((x: { _id: string }) => x._id),
      [liveHook.id],
    );
    assertError(await s.request('GET', '/v1/webhooks', { key: s.keys.test.publishable }), 403);
  });

  it('shows the deliveries an entry owes, per webhook, and refuses bad parameters', async () => {
    const res = await track(s, trackBody('admin-dev', center));
    const entered = res.body.events.find((e: { type: string }) => e.type === 'user.entered_geofence');
    assert.ok(entered, 'the track entered the circle');
    const log = await s.request('GET', `/v1/webhooks/deliveries?webhookId=${testHook.id}&limit=5`, {
      key: s.keys.test.secret,
    });
    assertOk(log);
    const row = log.body.deliveries.find((d: { eventId: string }) => d.eventId === entered._id);
    assert.ok(row, 'the entry is in the log');
    assert.equal(row.webhookId, testHook.id);
    assert.equal(row.target, 'webhook');
    assert.equal(row.status, 'pending');
    assertIsoMs(row.createdAt);
    // The live key sees its own (empty) log, never the test environment's.
    const live = await s.request('GET', '/v1/webhooks/deliveries', { key: s.keys.live.secret });
    assert.deepEqual(live.body.deliveries, []);
    assertError(await s.request('GET', '/v1/webhooks/deliveries?limit=0', { key: s.keys.test.secret }), 400, 'limit');
    assertError(
      await s.request('GET', `/v1/webhooks/deliveries?webhookId=${liveHook.id}`, { key: s.keys.test.secret }),
      400,
      'webhookId',
    );
  });

  it("counts this month's requests per endpoint for the key's environment, and refuses a bad month", async () => {
    for (let i = 0; i < 3; i++) assertOk(await s.request('GET', '/v1/config', { key: s.keys.test.publishable }));
    assertOk(await s.request('GET', '/v1/config', { key: s.keys.live.publishable }));
    const res = await s.request('GET', '/v1/usage', { key: s.keys.test.secret });
    assertOk(res);
    assert.equal(res.body.month, '2026-03');
    const count = (endpoint: string) =>
      res.body.endpoints.find((r: { endpoint: string }) => r.endpoint === endpoint)?.count;
    assert.equal(count('GET /v1/config'), 3);
    assert.equal(count('POST /v1/track'), 1);
    assert.equal(count('GET /v1/webhooks'), 1, 'the refused publishable-key call is not counted');
    assert.equal(
      res.body.total,
      res.body.endpoints.reduce((n: number, r: { count: number }) => n + r.count, 0),
    );
    const other = await s.request('GET', '/v1/usage?month=2026-02', { key: s.keys.test.secret });
    assert.deepEqual(other.body.endpoints, []);
    assertError(await s.request('GET', '/v1/usage?month=2026-13', { key: s.keys.test.secret }), 400, 'month');
    assertError(await s.request('GET', '/v1/usage?month=March', { key: s.keys.test.secret }), 400, 'month');
  });
});
