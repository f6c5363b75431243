import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newWebhook } from '../src/domain/webhooks/webhook.js';
import { assertOk } from './helpers/assertions.js';
import { freePort } from './helpers/free-port.js';
import { startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, putCircle, track, trackBody, typesOf } from './helpers/tracking.js';

/** One sample of the Prometheus text format. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

// Values as Go's ParseFloat reads them, which is what Prometheus uses: NaN in any letter case (prom-client
// prints `Nan` for the event-loop lag before its first sample, as a scrape right after start sees).
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|[Nn][Aa][Nn]|\+Inf|-Inf)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the text exposition format strictly: every line a comment (HELP/TYPE) or a sample. */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const m = SAMPLE.exec(line);
    assert.ok(m, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(LABEL)) labels[k!] = v!;
    samples.push({ name: m[1]!, labels, value: /^nan$/i.test(m[3]!) ? Number.NaN : Number(m[3]) });
  }
  return samples;
}

/** The value of the one sample named `name` whose labels include `labels` (0 when there is none). */
function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value ?? 0;
}

async function scrape(url: string): Promise<Sample[]> {
  const res = await fetch(`${url}/metrics`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parseMetrics(await res.text());
}

describe('metrics', () => {
  it('are off by default: GET /metrics is 404', async () => {
    const s = await startServer();
    try {
      const res = await s.request('GET', '/metrics');
      assert.equal(res.status, 404);
    } finally {
      await s.close();
    }
  });

  describe('with METRICS=on', () => {
    let s: TestServer;
    before(async () => {
      // The outbox is not sent here, so the deliveries of the webhook below stay pending.
      s = await startServer({ env: { METRICS: 'on', SEND_WEBHOOKS: 'off' } });
      const hook = newWebhook({ url: 'http://127.0.0.1:9/hook', live: false, types: null }, Date.now());
      await s.updateProject('default', (p) => ({ ...p, webhooks: [hook] }));
    });
    after(() => s?.close());

    it('serves the text format without a key, and its counts move with requests', async () => {
      const first = await scrape(s.url);
      assert.ok(sampleValue(first, 'nodejs_eventloop_lag_seconds') >= 0);
      assert.ok(first.some((x) => x.name === 'process_resident_memory_bytes'));
      const pendingBefore = sampleValue(first, 'whereabouts_webhook_deliveries_pending');

      await putCircle(s, 'store', 'one', BROOKLYN, 200);
      const entered = await track(s, trackBody('metrics-device', BROOKLYN));
      assertOk(entered);
      assert.deepEqual(typesOf(entered), ['user.entered_geofence']);
      // The same device again within the second: refused by the per-device limit.
      assert.equal((await track(s, trackBody('metrics-device', BROOKLYN))).status, 429);
      const user = await s.request('GET', '/v1/users/metrics-device', { key: s.keys.test.secret });
      assertOk(user);
      assert.equal((await s.request('GET', '/no/such/path')).status, 404);

      const second = await scrape(s.url);
      const requests = 'whereabouts_http_request_duration_seconds_count';
      const tracked = { method: 'POST', route: '/v1/track', status: '200' };
      assert.equal(sampleValue(second, requests, tracked) - sampleValue(first, requests, tracked), 1);
      assert.equal(sampleValue(second, requests, { method: 'POST', route: '/v1/track', status: '429' }), 1);
      // The route's pattern, not the URL: one series for every user.
      assert.equal(sampleValue(second, requests, { method: 'GET', route: '/v1/users/:id', status: '200' }), 1);
      assert.ok(!second.some((x) => x.labels.route?.includes('metrics-device')));
      assert.equal(sampleValue(second, requests, { route: 'unmatched', status: '404' }), 1);
      assert.ok(sampleValue(second, 'whereabouts_http_request_duration_seconds_sum', tracked) > 0);

      assert.equal(sampleValue(second, 'whereabouts_events_total', { type: 'user.entered_geofence' }), 1);
      assert.equal(sampleValue(second, 'whereabouts_rate_limited_total', { limit: 'device_per_second' }), 1);
      assert.equal(sampleValue(second, 'whereabouts_store_track_seconds_count'), 1);
      assert.ok(sampleValue(second, 'whereabouts_store_ping_seconds_count') >= 2);
      // The entry owes the webhook a delivery, not sent (SEND_WEBHOOKS=off).
      assert.equal(sampleValue(second, 'whereabouts_webhook_deliveries_pending') - pendingBefore, 1);
    });

    it('counts a refusal by the per-key limit apart from the per-device one', async () => {
      await s.updateProject('default', (p) => ({ ...p, limits: { ...p.limits, requestsPerSecond: 1 } }));
      try {
        const key = s.keys.test.secret;
        const statuses = [];
        for (let i = 0; i < 3; i++) statuses.push((await s.request('GET', '/v1/geofences', { key })).status);
        assert.ok(statuses.includes(429), statuses.join(' '));
        const samples = await scrape(s.url);
        assert.ok(sampleValue(samples, 'whereabouts_rate_limited_total', { limit: 'key_per_second' }) >= 1);
      } finally {
        await s.updateProject('default', (p) => ({ ...p, limits: { ...p.limits, requestsPerSecond: 1_000_000 } }));
      }
    });
  });

  it('with METRICS_PORT, serves them on a listener of their own and not on the API port', async () => {
    const port = await freePort();
    const s = await startServer({ env: { METRICS_PORT: String(port) } });
    try {
      assertOk(await s.request('GET', '/healthz'));
      const samples = await scrape(`http://127.0.0.1:${port}`);
      assert.equal(
        sampleValue(samples, 'whereabouts_http_request_duration_seconds_count', { route: '/healthz', status: '200' }),
        1,
      );
      assert.equal((await s.request('GET', '/metrics')).status, 404);
      assert.equal((await fetch(`http://127.0.0.1:${port}/other`)).status, 404);
    } finally {
      await s.close();
    }
    // Closed with the server.
    await assert.rejects(fetch(`http://127.0.0.1:${port}/metrics`));
  });
});
