import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { findInstalledPackage } from '../src/geodata/package-dir.js';
import { CHROMIUM_SKIP, type Chromium, launchChromium } from './helpers/chromium.js';
import { startGeodataServer } from './helpers/geodata.js';
import { ManualClock, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset, putCircle } from './helpers/tracking.js';

// The published radar-sdk-js, loaded by a page in real Chromium (Debian's package, driven through
// playwright-core) from another origin than the API's, so every call goes through CORS preflights
// exactly as on a customer's site.

const PAGE = `<!doctype html>
<meta charset="utf-8"><title>radar-sdk-js</title>
<script type="module">
  import Radar from '/radar.js';
  window.Radar = Radar;
  window.radarLoaded = true;
</script>`;

/** Serves the page and the SDK's browser bundle (`dist/radar.js`: ESM without imports) from node_modules. */
async function startStaticServer(): Promise<{ url: string; server: Server }> {
  const sdk = findInstalledPackage('radar-sdk-js');
  if (!sdk) throw new Error('radar-sdk-js is not installed: npm ci');
  const bundle = await readFile(join(sdk.dir, 'dist', 'radar.js'));
  const server = createServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    else if (req.url === '/radar.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    else res.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

// Functions passed to page.evaluate run in the page, where globalThis is the window (the project's
// TypeScript settings have no DOM types).

/** What a call made in the page gave: its result, or the SDK error's name and message. */
type Outcome<T> = { ok: true; value: T } | { ok: false; name: string; message: string };

describe('radar-sdk-js in headless Chromium against a running server', { skip: CHROMIUM_SKIP }, () => {
  let s: TestServer;
  let site: { url: string; server: Server };
  let browser: Chromium;
  let page: Page;
  const at = { latitude: BROOKLYN[1], longitude: BROOKLYN[0] };
  // The server's clock moves 30 s before each track, as a device tracking every half minute would (the
  // server takes one track a second per device).
  const clock = new ManualClock(Date.now());

  /** Runs `Radar.<method>(...args)` in the page. */
  const call = <T = any>(method: string, ...args: unknown[]): Promise<Outcome<T>> =>
    page.evaluate(
      async ([m, a]) => {
        const Radar = (globalThis as any).Radar;
        try {
          return { ok: true as const, value: JSON.parse(JSON.stringify((await Radar[m](...a)) ?? null)) };
        } catch (err) {
          const e = err as Error;
          return { ok: false as const, name: e.name, message: e.message };
        }
      },
      [method, args] as const,
    );
  const value = <T>(o: Outcome<T>): T => {
    if (!o.ok) assert.fail(`${o.name}: ${o.message}`);
    return o.value;
  };

  before(async () => {
    s = await startGeodataServer({ clock });
    await putCircle(s, 'store', 'web-1', BROOKLYN, 100, { metadata: { kind: 'flagship' } });
    site = await startStaticServer();
    browser = await launchChromium({
      // The device is far from the fence; calls given a position use that one instead.
      geolocation: { latitude: offset(BROOKLYN, 0, 5000)[1], longitude: BROOKLYN[0], accuracy: 15 },
      permissions: ['geolocation'],
    });
    page = browser.page;
    await page.goto(`${site.url}/`);
    await page.waitForFunction(() => (globalThis as any).radarLoaded === true, undefined, { timeout: 10_000 });
    await page.evaluate(
      ([key, host]) => {
        const Radar = (globalThis as any).Radar;
        Radar.initialize(key, { host, logLevel: 'none' });
        Radar.setUserId('web-user');
      },
      [s.keys.test.publishable, s.url] as const,
    );
  });
  after(async () => {
    await browser?.close();
    site?.server.close();
    await s?.close();
  });

  it('the page is on another origin than the API', () => {
    assert.notEqual(new URL(site.url).origin, new URL(s.url).origin);
  });

  it('trackOnce at a given position: user and events, the device ids of localStorage', async () => {
    clock.advance(30_000);
    const res = value(await call('trackOnce', { ...at, accuracy: 10 }));
    assert.match(res.user._id, /^[0-9a-f]{24}$/);
    assert.equal(res.user.userId, 'web-user');
    assert.deepEqual(res.user.location, { type: 'Point', coordinates: BROOKLYN });
    assert.deepEqual(
      res.events.map((e: { type: string }) => e.type),
      ['user.entered_geofence'],
    );
    assert.equal(res.events[0].geofence.externalId, 'web-1');
    assert.equal(res.user.geofences[0].tag, 'store');
    // The user the server stored is the SDK's device: same deviceId as the page keeps.
    const deviceId = await page.evaluate(() => (globalThis as any).localStorage.getItem('radar-deviceId'));
    const stored = await s.request('GET', '/v1/users/web-user', { key: s.keys.test.secret });
    assert.equal(stored.status, 200);
    assert.equal(stored.body.user.deviceId, deviceId);
    assert.equal(stored.body.user.deviceType, 'Web');
  });

  it('trackOnce without a position uses the browser geolocation', async () => {
    clock.advance(30_000);
    const res = value(await call('trackOnce'));
    const [lon, lat] = res.user.location.coordinates;
    assert.ok(Math.abs(lat - offset(BROOKLYN, 0, 5000)[1]) < 1e-6 && Math.abs(lon - BROOKLYN[0]) < 1e-6);
    assert.deepEqual(
      res.events.map((e: { type: string }) => e.type),
      ['user.exited_geofence'],
    );
  });

  it('getContext and searchGeofences: the fence, where the SDK reads it', async () => {
    const ctx = value(await call('getContext', at));
    assert.deepEqual(
      ctx.geofences.map((g: { externalId: string }) => g.externalId),
      ['web-1'],
    );
    // The world pack answers the regions.
    assert.equal(ctx.country?.code, 'US');
    assert.equal(ctx.state?.code, 'NY');
    const found = value(
      await call('searchGeofences', { near: at, radius: 1000, tags: ['store'], limit: 10, includeGeometry: true }),
    );
    assert.deepEqual(
      found.geofences.map((g: { externalId: string }) => g.externalId),
      ['web-1'],
    );
    assert.equal(found.geofences[0].geometry.type, 'Polygon');
  });

  it('forwardGeocode and autocomplete: addresses', async () => {
    const fwd = value(await call('forwardGeocode', { query: 'Brooklyn, NY' }));
    assert.ok(fwd.addresses.length > 0);
    assert.equal(fwd.addresses[0].stateCode, 'NY');
    const auto = value(await call('autocomplete', { query: 'Brookl', near: at, limit: 5 }));
    assert.ok(auto.addresses.some((a: { formattedAddress: string }) => /^Brooklyn/.test(a.formattedAddress)));
  });

  it('validateAddress: unverified where no OSM region is imported, not an error', async () => {
    const res = value(
      await call('validateAddress', {
        number: '20',
        street: 'Jay St',
        city: 'Brooklyn',
        stateCode: 'NY',
        postalCode: '11201',
        countryCode: 'US',
      }),
    );
    assert.equal(res.result.verificationStatus, 'unverified');
    assert.equal(res.address.postalCode, '11201');
    const bad = await call('validateAddress', { city: 'Brooklyn', stateCode: 'NY', postalCode: '11201' });
    assert.equal(bad.ok, false);
    assert.equal(!bad.ok && bad.name, 'RadarBadRequestError');
  });

  it('an error from the server reaches the page as the SDK error of its status', async () => {
    const bad = await call('forwardGeocode', { query: 'Brooklyn', layers: ['nonsense'] });
    assert.equal(bad.ok, false);
    assert.equal(!bad.ok && bad.name, 'RadarBadRequestError');
    assert.match(!bad.ok ? bad.message : '', /^layers/);
  });

  it('logConversion: the event the SDK reads', async (t) => {
    // Conversions (POST /v1/events) are served by a branch of their own; until it is merged, skip.
    const probe = await s.request('POST', '/v1/events', { key: s.keys.test.publishable, json: {} });
    if (probe.status === 404) return t.skip('POST /v1/events (conversions) is not served by this build');
    const res = value(await call('logConversion', { name: 'checkout', revenue: 12.5, metadata: { sku: 'A1' } }));
    assert.equal(res.event.type, 'checkout');
  });
});
