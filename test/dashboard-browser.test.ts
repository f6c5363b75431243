import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { ensureDashboardBuilt } from '../src/dashboard/build.js';
import { newWebhook } from '../src/domain/webhooks/webhook.js';
import { CHROMIUM_SKIP, type Chromium, launchChromium } from './helpers/chromium.js';
import { withOsmRegion } from './helpers/osm.js';
import { startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, type LonLat, offset } from './helpers/tracking.js';

// The dashboard walked as a person would, in real Chromium (Debian's package through playwright-core)
// against a running server: each step asserts on what the page shows. Set DASHBOARD_SCREENSHOTS=1 to
// write the README's screenshots into docs/.
const SCREENSHOTS = process.env.DASHBOARD_SCREENSHOTS === '1';
// The screenshots are taken on Oʻahu's imported extract, so the maps have streets behind the geofences:
// the store on Kapiolani Boulevard, the simulator driving along it (17° south of east); the test itself,
// in Brooklyn on a server without a geodata pack, draws on the plain background.
const HOME: LonLat = SCREENSHOTS ? [-157.8446, 21.2944] : BROOKLYN;
const ALONG: [number, number] = SCREENSHOTS ? [0.956, -0.292] : [1, 0];
const STORE = SCREENSHOTS ? 'Kapiolani store' : 'Brooklyn store';

const RADIUS = 150;

describe('the dashboard in headless Chromium', { skip: CHROMIUM_SKIP }, () => {
  let s: TestServer;
  let browser: Chromium;
  let page: Page;
  let removePack: (() => Promise<void>) | undefined;

  const open = async (p: Page, hash: string) => {
    await p.goto(`${s.url}/dashboard#/${hash}`);
  };
  const signIn = async (p: Page, secret: string, publishable = '') => {
    // After a refused key the form is still there, as a person would find it.
    if (!(await p.getByLabel('Secret key').isVisible())) await p.goto(`${s.url}/dashboard`);
    await p.getByLabel('Secret key').fill(secret);
    await p.getByLabel(/Publishable key/).fill(publishable);
    await p.getByRole('button', { name: 'Sign in' }).click();
  };
  /** Waits for the page's map, then clicks it at `at` ([lon, lat]) where MapLibre projects it. */
  const clickMap = async (p: Page, at: LonLat) => {
    await p.locator('.map[data-ready="true"]').waitFor();
    const xy = await p.evaluate(([lon, lat]) => {
      const m = (globalThis as any).whereaboutsMap;
      const pt = m.project([lon, lat]);
      const box = m.getCanvas().getBoundingClientRect();
      return { x: box.left + pt.x, y: box.top + pt.y };
    }, at);
    await p.mouse.click(xy.x, xy.y);
  };
  /** Zooms the page's map on `at`, as a person would before drawing (at zoom 16 a pixel is 0.9 m here). */
  const zoomTo = async (p: Page, at: LonLat, zoom: number) => {
    await p.locator('.map[data-ready="true"]').waitFor();
    await p.evaluate(([center, z]) => (globalThis as any).whereaboutsMap.jumpTo({ center, zoom: z }), [
      at,
      zoom,
    ] as const);
  };
  const shot = async (p: Page, name: string) => {
    if (!SCREENSHOTS) return;
    await mkdir('docs', { recursive: true });
    // Once MapLibre has drawn what it was given (GeoJSON is cut on a worker, after setData returns).
    await p.waitForFunction(() => (globalThis as any).whereaboutsMap?.loaded() === true);
    await p.waitForTimeout(300);
    await p.screenshot({ path: join('docs', `dashboard-${name}.png`) });
  };

  before(async () => {
    await ensureDashboardBuilt();
    let geodataDir: string | undefined;
    if (SCREENSHOTS) {
      const pack = await withOsmRegion('honolulu-oahu-hi-2018.osm.pbf');
      if ('skip' in pack) throw new Error(`DASHBOARD_SCREENSHOTS needs the Oʻahu extract: ${pack.skip}`);
      removePack = pack.remove;
      geodataDir = pack.dataDir;
    }
    s = await startServer(geodataDir ? { env: { GEODATA_DIR: geodataDir } } : {});
    // The first tile cuts the world layers (seconds on a busy machine): before the pages ask for them.
    if (SCREENSHOTS) await fetch(`${s.url}/maps/tiles/0/0/0.pbf?key=${s.keys.test.publishable}`);
    browser = await launchChromium({
      // A smaller window draws faster (the map renders on the CPU); the screenshots take a larger one.
      viewport: SCREENSHOTS ? { width: 1280, height: 800 } : { width: 1000, height: 640 },
      acceptDownloads: true,
    });
    // The screenshots draw a full base map in software (no GPU): slower on a busy machine.
    browser.context.setDefaultTimeout(SCREENSHOTS ? 30_000 : 10_000);
    page = browser.page;
  });
  after(async () => {
    await browser?.close();
    await s?.close();
    await removePack?.();
  });

  it('refuses a wrong key with a clear message, and a publishable key as the sign-in key', async () => {
    await signIn(page, `prj_test_sk_${'0'.repeat(40)}`);
    await assert.doesNotReject(page.getByRole('alert').filter({ hasText: 'That key is not valid' }).waitFor());
    await signIn(page, s.keys.test.publishable);
    await page.getByRole('alert').filter({ hasText: 'That is a publishable key' }).waitFor();
    assert.equal(await page.getByRole('navigation', { name: 'Pages' }).count(), 0, 'not signed in');
    // The dashboard's files are served without a key; nothing else under /dashboard is.
    assert.equal(
      (await fetch(`${s.url}/dashboard/app.js`)).headers.get('content-type'),
      'text/javascript; charset=utf-8',
    );
    assert.equal((await fetch(`${s.url}/dashboard/build.ts`)).status, 404);
  });

  it('signs in and draws a circle geofence on the map', async () => {
    await signIn(page, s.keys.test.secret, s.keys.test.publishable);
    await page.getByRole('navigation', { name: 'Pages' }).waitFor();
    await page.getByRole('link', { name: 'Geofences' }).click();
    await zoomTo(page, HOME, 16);
    await clickMap(page, HOME);
    await clickMap(page, offset(HOME, RADIUS, 0));
    await page.getByLabel('Description').fill(STORE);
    await page.getByLabel('Tag', { exact: true }).fill('store');
    await page.getByLabel('External id').fill('bk-1');
    const radius = Number(await page.getByLabel('Radius (m)').inputValue());
    assert.ok(Math.abs(radius - RADIUS) <= 3, `the second click set the radius by the edge (${radius} m)`);
    const typed = async (label: string) => Number(await page.getByLabel(label, { exact: true }).inputValue());
    assert.ok(Math.abs((await typed('Latitude')) - HOME[1]) < 1e-4, 'the first click shows as the latitude');
    assert.ok(Math.abs((await typed('Longitude')) - HOME[0]) < 1e-4, 'and as the longitude');
    await shot(page, 'geofence-editor');
    await page.getByRole('button', { name: 'Save geofence' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Saved geofence "${STORE}" (store/bk-1)` })
      .waitFor();
    await page.getByRole('list', { name: 'Geofences' }).getByText(STORE).waitFor();
    const stored = await s.request('GET', '/v1/geofences/store/bk-1', { key: s.keys.test.secret });
    assert.equal(stored.body.geofence.type, 'circle');
    assert.equal(stored.body.geofence.geometryRadius, radius);
    const [lon, lat] = stored.body.geofence.geometryCenter.coordinates;
    assert.ok(Math.abs(lon - HOME[0]) < 1e-4 && Math.abs(lat - HOME[1]) < 1e-4, 'centred where clicked');
  });

  it('imports a CSV of 500 geofences and reports exactly the 3 bad rows', async () => {
    const bad = new Map([
      [100, 'latitude'],
      [250, 'radius'],
      [400, 'type'],
    ]);
    const lines = ['tag,externalId,description,type,latitude,longitude,radius'];
    for (let row = 1; row <= 500; row++) {
      // A grid north of the store, clear of the simulator's drive.
      const [lon, lat] = offset(HOME, ((row % 25) - 12) * 250, (Math.floor(row / 25) + 3) * 250);
      const cells = ['imported', `g-${row}`, `Imported ${row}`, 'circle', lat.toFixed(6), lon.toFixed(6), '50'];
      if (bad.get(row) === 'latitude') cells[4] = 'north';
      if (bad.get(row) === 'radius') cells[6] = '-5';
      if (bad.get(row) === 'type') cells[3] = 'hexagon';
      lines.push(cells.join(','));
    }
    await page.getByLabel('Geofences file').setInputFiles({
      name: 'fences.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`${lines.join('\n')}\n`),
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const summary = page.locator('.import-summary');
    await summary.waitFor();
    assert.match(await summary.innerText(), /Created 497, updated 0, refused 3 rows/);
    const rows = await page
      .locator('.import-errors tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) =>
          Array.from(tr.querySelectorAll('td'), (td) => (td as { textContent: string | null }).textContent ?? ''),
        ),
      );
    assert.deepEqual(
      rows.map((r) => Number(r[0])),
      [...bad.keys()],
    );
    for (const [, param, message] of rows) assert.ok(message?.startsWith(param!), `"${message}" names ${param}`);
  });

  let events: Page | undefined;
  it('runs the simulator through the circle: the page shows the entry and the exit', async () => {
    // The live stream, open in a second tab (its own session: signed in again) before the drive.
    events = await browser.context.newPage();
    await signIn(events, s.keys.test.secret);
    await open(events, 'events');
    await events.getByRole('status').filter({ hasText: 'Live stream: connected' }).waitFor();
    await open(page, 'simulator');
    // A track typed by hand first, from the default device (the drive's device has its own rate).
    const [lon, lat] = offset(HOME, 0, -1000);
    await page.getByLabel('Latitude', { exact: true }).fill(lat.toFixed(5));
    await page.getByLabel('Longitude', { exact: true }).fill(lon.toFixed(5));
    await page.getByRole('button', { name: 'Send track' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Sent a track at ${lat.toFixed(5)}, ${lon.toFixed(5)}.` })
      .waitFor();
    await page.getByLabel('Device id').fill('sim-phone');
    await page.getByLabel('Drive between two clicks').check();
    // 200 m between tracks (one every 1.1 s): -400, -200, 0 (inside), 200 (out by 50 m), 400.
    await page.getByLabel('Speed (km/h)').fill(String(Math.round((200 / 1.1) * 3.6)));
    // The map first fits the project's geofences; the person zooms after that.
    await page.locator('.map[data-fitted]').waitFor();
    await zoomTo(page, HOME, 15);
    await clickMap(page, offset(HOME, -400 * ALONG[0], -400 * ALONG[1]));
    await clickMap(page, offset(HOME, 400 * ALONG[0], 400 * ALONG[1]));
    await page
      .getByRole('status')
      .filter({ hasText: /Arrived after \d+ tracks/ })
      .waitFor({ timeout: 30_000 });
    await shot(page, 'simulator');
    const seen = await page.locator('.sim-event').allInnerTexts();
    assert.deepEqual(
      seen.map((x) => x.trim()).filter((x) => x.includes(STORE)),
      [`user.entered_geofence (${STORE})`, `user.exited_geofence (${STORE})`].reverse(),
      'newest first',
    );
  });

  it('shows the entry and exit in the live event stream', async () => {
    assert.ok(events, 'the stream tab was opened by the simulator test');
    const store = events.locator('.event-rows tr', { hasText: STORE });
    await store.filter({ hasText: 'user.exited_geofence' }).waitFor();
    assert.deepEqual(await store.locator('.event-type').allInnerTexts(), [
      'user.exited_geofence',
      'user.entered_geofence',
    ]);
    await events.close();
  });

  it("opens the user's location history and moves through it with the time slider", async () => {
    await open(page, 'users');
    await page.getByLabel(/Search by user id/).fill('sim-phone');
    await page
      .getByRole('link', { name: /^[0-9a-f]{24}$|sim-phone/ })
      .first()
      .click();
    await page.getByRole('heading', { name: /^User / }).waitFor();
    const slider = page.getByLabel(/Time: up to fix/);
    await slider.waitFor();
    const label = page.locator('label[for="history-time"]');
    const [, , total] = /up to fix (\d+) of (\d+)/.exec(await label.innerText())!;
    // The two geofence events and the last location (the events' own locations).
    assert.ok(Number(total) >= 3, `history of ${total} fixes`);
    assert.match(await label.innerText(), new RegExp(`up to fix ${total} of ${total}`));
    await slider.focus();
    await page.keyboard.press('Home');
    assert.match(await label.innerText(), new RegExp(`up to fix 1 of ${total}`));
    assert.match(await page.locator('.history-at').innerText(), /user\.entered_geofence/);
    await page.keyboard.press('End');
    await page
      .getByRole('list', { name: "The user's events" })
      .getByRole('listitem')
      .filter({ hasText: 'user.exited_geofence' })
      .filter({ hasText: STORE })
      .waitFor();
    await page.locator('.map[data-ready="true"]').waitFor();
    await shot(page, 'user-history');
  });

  it("shows an active trip's ETA on the Trips page", async () => {
    const started = await s.request('POST', '/v1/trips', {
      key: s.keys.test.publishable,
      json: {
        deviceId: 'sim-phone',
        externalId: 'delivery-1',
        destinationGeofenceTag: 'store',
        destinationGeofenceExternalId: 'bk-1',
        mode: 'car',
        scheduledArrivalAt: new Date(Date.now() - 60_000).toISOString(),
      },
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const eta = started.body.trip.eta;
    assert.ok(eta, 'the API gave the trip an ETA');
    await open(page, 'trips');
    const row = page.locator('table.trips').first().locator('tr', { hasText: 'delivery-1' });
    await row.waitFor();
    assert.equal(
      await row.locator('.eta').innerText(),
      `${Math.round(eta.duration)} min, ${Math.round(eta.distance)} m`,
    );
    assert.match(await row.innerText(), /late by \d+ min/);
    await open(page, 'map');
    await page.locator('.map[data-ready="true"]').waitFor();
    // The simulator's two devices: the one typed for and the one driven.
    await page.getByText(/\d+ geofences, 2 users, 1 active trips/).waitFor();
    await shot(page, 'map');
    // A user whose track causes an event appears at once, from the live stream (the poll is 30 s).
    await page.getByText('Following the live event stream.').waitFor();
    const entered = await s.request('POST', '/v1/track', {
      key: s.keys.test.publishable,
      json: { deviceId: 'map-phone', latitude: HOME[1], longitude: HOME[0], accuracy: 10 },
    });
    assert.ok(entered.body.events?.length > 0, 'the track caused an event');
    await page.getByText(/\d+ geofences, 3 users, 1 active trips/).waitFor();
  });
  it("shows the webhooks and the month's usage on the Settings page", async () => {
    const hook = newWebhook(
      { url: 'http://127.0.0.1:9/hook', live: false, types: ['user.entered_geofence'] },
      Date.now(),
    );
    await s.updateProject('default', (p) => ({ ...p, webhooks: [hook] }));
    await open(page, 'settings');
    const row = page.locator('table.webhooks tr', { hasText: hook.url });
    await row.waitFor();
    assert.match(await row.innerText(), new RegExp(`user\\.entered_geofence[\\s\\S]*…${hook.secret.slice(-4)}`));
    // The simulator's tracks (at least five) are counted, and drawn as a bar of the chart.
    const [, total] = /([\d,]+) requests in \d{4}-\d{2}/.exec(await page.locator('.usage-total').innerText()) ?? [];
    assert.ok(Number(total?.replace(/,/g, '')) >= 5, `usage total ${total}`);
    await page.locator('.usage-chart title', { hasText: /^POST \/v1\/track: \d+$/ }).waitFor({ state: 'attached' });
  });
});
