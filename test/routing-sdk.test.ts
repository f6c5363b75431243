// store-independent: the SDK's routing calls read the pack's road graphs, never the store
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { haversineMeters } from './helpers/fixtures.js';
import { startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, type LonLat, offset } from './helpers/tracking.js';

type ValueText = { value: number; text: string };
type SdkRoute = { distance: ValueText; duration?: ValueText; geometry?: { type: string; coordinates: LonLat[] } };
type SdkLocation = { latitude: number; longitude: number };
/** The routing part of radar-sdk-js 5.x (its declarations cannot be resolved under NodeNext). */
interface RadarSdk {
  initialize(publishableKey: string, options: Record<string, unknown>): void;
  distance(params: Record<string, unknown>): Promise<{ routes: Record<string, SdkRoute> }>;
  matrix(params: Record<string, unknown>): Promise<{
    origins: SdkLocation[];
    destinations: SdkLocation[];
    matrix: Array<Array<{ distance: ValueText; duration: ValueText; originIndex: number; destinationIndex: number }>>;
  }>;
}

/** radar-sdk-js reads `window.localStorage` and `navigator` under Node. */
function installBrowserShims(): void {
  const store = new Map<string, string>();
  (globalThis as Record<string, unknown>).window = {
    localStorage: {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => store.set(k, String(v)),
      removeItem: (k: string) => store.delete(k),
    },
  };
  Object.defineProperty(globalThis, 'navigator', {
    value: { onLine: true, permissions: { query: async () => ({ state: 'granted' }) } },
    configurable: true,
    writable: true,
  });
}

// No roads imported here: the routes are the estimate (straight line × detour at the mode's speed).
describe('radar-sdk-js 5.x Radar.distance and Radar.matrix against a running server', () => {
  let s: TestServer;
  let Radar: RadarSdk;
  const to = offset(BROOKLYN, 3000, 4000);
  const loc = (p: LonLat) => ({ latitude: p[1], longitude: p[0] });
  before(async () => {
    s = await startServer();
    installBrowserShims();
    Radar = (await import('radar-sdk-js')).default as RadarSdk;
    Radar.initialize(s.keys.test.publishable, { host: s.url, logLevel: 'none' });
  });
  after(() => s.close());

  it('distance: geodesic and one route per mode, in feet and minutes, with the line the SDK asks for', async () => {
    const res = await Radar.distance({
      origin: loc(BROOKLYN),
      destination: loc(to),
      modes: ['car', 'foot'],
      units: 'imperial',
      geometry: 'linestring',
    });
    const straightFeet = haversineMeters(BROOKLYN, to) * 3.28084;
    assert.ok(Math.abs(res.routes.geodesic!.distance.value - straightFeet) < 1);
    assert.ok(Math.abs(res.routes.car!.distance.value - straightFeet * 1.3) < 1);
    assert.match(res.routes.car!.distance.text, /^\d+(\.\d)? mi$/);
    assert.ok(res.routes.foot!.duration!.value > res.routes.car!.duration!.value);
    assert.equal(res.routes.car!.geometry?.type, 'LineString');
  });

  it('matrix: origins and destinations as Location lists, sent joined by |', async () => {
    const res = await Radar.matrix({
      origins: [loc(BROOKLYN), loc(to)],
      destinations: [loc(to), loc(BROOKLYN), loc(offset(BROOKLYN, 500, 0))],
      mode: 'bike',
      units: 'metric',
    });
    assert.equal(res.matrix.length, 2);
    assert.equal(res.matrix[0]!.length, 3);
    assert.equal(res.matrix[1]![2]!.originIndex, 1);
    assert.equal(res.matrix[1]![2]!.destinationIndex, 2);
    assert.equal(res.matrix[1]![1]!.distance.text, res.matrix[0]![0]!.distance.text);
    assert.equal(res.matrix[0]![1]!.distance.value, 0);
    assert.deepEqual(res.destinations[1], loc(BROOKLYN));
  });
});
