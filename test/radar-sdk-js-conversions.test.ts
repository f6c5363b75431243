import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { installBrowserShims } from './helpers/browser-shims.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset } from './helpers/tracking.js';

interface SdkEvent {
  _id: string;
  type: string;
  createdAt: string;
  custom?: boolean;
  metadata?: Record<string, unknown>;
  user?: { _id: string; userId?: string };
}

/** The part of radar-sdk-js 5.x this file drives. */
interface RadarSdk {
  initialize(publishableKey: string, options: Record<string, unknown>): void;
  setUserId(userId?: string): void;
  trackOnce(params?: { latitude: number; longitude: number; accuracy?: number }): Promise<{ user: { _id: string } }>;
  logConversion(params: {
    name: string;
    revenue?: number;
    metadata?: Record<string, unknown>;
    createdAt?: Date | string;
  }): Promise<{ event: SdkEvent }>;
}

describe('radar-sdk-js 5.x: logConversion against a running server', () => {
  const clock = new ManualClock(Date.parse('2026-04-02T15:00:00.000Z'));
  let s: TestServer;
  let Radar: RadarSdk;
  const here = offset(BROOKLYN, 1500, 1500);

  before(async () => {
    s = await startServer({ clock });
    installBrowserShims(() => here);
    Radar = (await import('radar-sdk-js')).default as RadarSdk;
    Radar.initialize(s.keys.test.publishable, { host: s.url, logLevel: 'none' });
  });
  after(() => s.close());

  it('a tracked user logs a conversion: the event the SDK returns, stored and counted', async () => {
    Radar.setUserId('sdk-buyer');
    const tracked = await Radar.trackOnce({ latitude: here[1], longitude: here[0], accuracy: 10 });
    const res = await Radar.logConversion({
      name: 'checkout',
      revenue: 42.5,
      metadata: { sku: 'sku-1' },
      createdAt: new Date('2026-04-02T14:59:30.000Z'),
    });
    assert.ok(res.event, 'the SDK returns the event');
    assert.match(res.event._id, /^[0-9a-f]{24}$/);
    assert.equal(res.event.type, 'checkout');
    assert.equal(res.event.custom, true);
    assert.equal(res.event.createdAt, '2026-04-02T14:59:30.000Z');
    assert.deepEqual(res.event.metadata, { sku: 'sku-1', revenue: 42.5 });
    assert.equal(res.event.user?._id, tracked.user._id);
    assert.equal(res.event.user?.userId, 'sdk-buyer');

    const stored = await s.request('GET', `/v1/events/${res.event._id}`, { key: s.keys.test.secret });
    assert.equal(stored.body.event.type, 'checkout');
    const summary = await s.request('GET', '/v1/events/conversions?from=2026-04-01&to=2026-04-02', {
      key: s.keys.test.secret,
    });
    assert.deepEqual(summary.body.conversions, [{ name: 'checkout', day: '2026-04-02', count: 1, revenue: 42.5 }]);
  });

  it("a conversion for a user the server never saw rejects with the SDK's not-found error", async () => {
    Radar.setUserId('never-tracked');
    localStorage().removeItem('radar-deviceId');
    await assert.rejects(Radar.logConversion({ name: 'checkout' }), (err: Error) => {
      assert.equal(err.name, 'RadarNotFoundError');
      return true;
    });
  });
});

/** The shimmed `window.localStorage`, where the SDK keeps its ids. */
function localStorage(): { removeItem(key: string): void } {
  return (globalThis as unknown as { window: { localStorage: { removeItem(key: string): void } } }).window.localStorage;
}
