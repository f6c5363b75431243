// store-independent: the map reads the geodata pack (world and the imported Oʻahu extract), never the store
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { CHROMIUM_SKIP, type Chromium, launchChromium } from './helpers/chromium.js';
import { osmServerSuite } from './helpers/osm-server.js';

// MapLibre GL JS, loaded from the server itself (/maps/lib), draws the server's style in real Chromium
// (Debian's package through playwright-core); so does radar-sdk-js's map (Radar.ui.map from the maps
// plugin), pointed at the server by `host` alone. Screenshots go to docs/ for the README.
const OAHU = 'honolulu-oahu-hi-2018.osm.pbf';
const WAIKIKI = { lng: -157.8465, lat: 21.2935 };
const DOCS = fileURLToPath(new URL('../docs/', import.meta.url));
/** `MAP_SCREENSHOTS=1` rewrites the README's screenshots in docs/; a plain test run leaves the tree as it is. */
const SCREENSHOTS = process.env.MAP_SCREENSHOTS === '1';

/** radar-sdk-js and its maps plugin as one browser module; `maplibre-gl` is the server's copy, loaded first. */
async function radarBundle(): Promise<string> {
  const out = await build({
    stdin: {
      contents: `import Radar from 'radar-sdk-js';
        import { createMapsPlugin } from '@radarlabs/plugin-maps';
        Radar.registerPlugin(createMapsPlugin());
        window.Radar = Radar;`,
      resolveDir: fileURLToPath(new URL('..', import.meta.url)),
    },
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'maplibre-from-server',
        setup(b) {
          b.onResolve({ filter: /^maplibre-gl$/ }, () => ({ path: 'maplibre-gl', namespace: 'shim' }));
          b.onLoad({ filter: /.*/, namespace: 'shim' }, () => ({
            contents: `const m = globalThis.maplibregl; export default m;
              export const { Map, AttributionControl, NavigationControl, LngLatBounds, Marker, Popup } = m;`,
          }));
        },
      },
    ],
  });
  return out.outputFiles[0]!.text;
}

function page(api: string): string {
  return `<!doctype html><meta charset="utf-8"><title>map</title>
<link rel="stylesheet" href="${api}/maps/lib/maplibre-gl.css">
<style>body{margin:0} #map{width:800px;height:500px} #radar{width:600px;height:400px}</style>
<div id="map"></div><div id="radar"></div>
<script src="${api}/maps/lib/maplibre-gl.js"></script>
<script type="module" src="/radar-bundle.js"></script>`;
}

describe('the map in headless Chromium against a running server (Oʻahu imported)', { skip: CHROMIUM_SKIP }, () => {
  const osm = osmServerSuite([OAHU]);
  let site: Server;
  let browser: Chromium;
  let p: Page;

  before(async () => {
    if (osm.skip) return;
    const bundle = await radarBundle();
    const html = page(osm.s.url);
    site = createServer((req, res) => {
      if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(html);
      else if (req.url === '/radar-bundle.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      else res.writeHead(404).end();
    });
    await new Promise<void>((ok) => site.listen(0, '127.0.0.1', ok));
    browser = await launchChromium({
      // WebGL through SwiftShader (software), as a machine without a GPU has it.
      args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-first-run'],
      viewport: { width: 800, height: 900 },
    });
    p = browser.page;
    await p.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
    await p.waitForFunction(() => (globalThis as any).Radar && (globalThis as any).maplibregl, undefined, {
      timeout: 20_000,
    });
  });
  after(async () => {
    await browser?.close();
    site?.close();
  });

  /** Moves the plain MapLibre map and resolves once it has drawn everything (`idle`). */
  const showAt = (center: { lng: number; lat: number }, zoom: number) =>
    p.evaluate(
      ([c, z, api, key]) =>
        new Promise<void>((resolve, reject) => {
          const g = globalThis as any;
          setTimeout(() => reject(new Error('map did not become idle in 60 s')), 60_000);
          if (!g.testMap) {
            g.testMap = new g.maplibregl.Map({
              container: 'map',
              style: `${api}/maps/styles/radar-default-v1?key=${key}`,
              center: c,
              zoom: z,
              fadeDuration: 0,
            });
            g.mapErrors = [];
            g.testMap.on('error', (e: any) => g.mapErrors.push(String(e.error?.message ?? e)));
          } else g.testMap.jumpTo({ center: c, zoom: z });
          g.testMap.once('idle', () => resolve());
        }),
      [center, zoom, osm.s.url, osm.s.keys.test.publishable] as const,
    );

  /** Rendered features of some style layers: per layer, how many and their names. */
  const rendered = (layers: string[]) =>
    p.evaluate((ids) => {
      const map = (globalThis as any).testMap;
      const out: Record<string, { count: number; names: string[] }> = {};
      for (const id of ids) {
        const fs = map.queryRenderedFeatures({ layers: [id] });
        out[id] = { count: fs.length, names: fs.map((f: any) => f.properties.name).filter(Boolean) };
      }
      return { out, errors: (globalThis as any).mapErrors ?? [] };
    }, layers);

  it('draws named roads, water and places over Honolulu at zoom 14', async (t) => {
    if (osm.skipped(t)) return;
    await showAt(WAIKIKI, 14);
    const { out, errors } = await rendered(['roads-major', 'roads-minor', 'road-labels', 'water', 'places', 'land-us']);
    assert.deepEqual(errors, []);
    assert.ok(out['roads-major']!.count + out['roads-minor']!.count > 50, JSON.stringify(out));
    const roadNames = out['road-labels']!.names;
    assert.ok(roadNames.length >= 3 && roadNames.includes('Ala Moana Boulevard'), roadNames.join());
    assert.ok(out.water!.count > 0 && out.water!.names.includes('Ala Wai Canal'), out.water!.names.join());
    assert.ok(out.places!.count >= 5, `places: ${out.places!.names.join()}`);
    assert.ok(out['land-us']!.count > 0, 'the island drawn as land');
    if (SCREENSHOTS) await p.locator('#map').screenshot({ path: join(DOCS, 'map-honolulu.png') });
  });

  it('draws country borders and labels over the Atlantic at zoom 3', async (t) => {
    if (osm.skipped(t)) return;
    await showAt({ lng: -40, lat: 35 }, 3);
    const { out, errors } = await rendered(['country-borders', 'country-labels', 'land']);
    assert.deepEqual(errors, []);
    assert.ok(out['country-borders']!.count > 10, JSON.stringify(out['country-borders']!.count));
    const names = out['country-labels']!.names;
    assert.ok(names.length >= 8, names.join());
    for (const n of ['Spain', 'Portugal', 'Morocco']) assert.ok(names.includes(n), names.join());
    if (SCREENSHOTS) await p.locator('#map').screenshot({ path: join(DOCS, 'map-atlantic.png') });
  });

  it('draws radar-sdk-js’s own map against the server with only the host changed', async (t) => {
    if (osm.skipped(t)) return;
    const out = await p.evaluate(
      ([host, key, c]) =>
        new Promise<{ roads: number; style: string; errors: string[] }>((resolve, reject) => {
          const Radar = (globalThis as any).Radar;
          Radar.initialize(key, { host, logLevel: 'none' });
          const map = Radar.ui.map({ container: 'radar', center: c, zoom: 14, fadeDuration: 0 });
          const errors: string[] = [];
          map.on('error', (e: any) => errors.push(String(e.error?.message ?? e)));
          setTimeout(() => reject(new Error('Radar map did not become idle in 60 s')), 60_000);
          map.once('idle', () =>
            resolve({
              roads: map.queryRenderedFeatures({ layers: ['roads-minor', 'roads-major'] }).length,
              style: map.getStyle().name,
              errors,
            }),
          );
        }),
      [osm.s.url, osm.s.keys.test.publishable, WAIKIKI] as const,
    );
    assert.deepEqual(out.errors, []);
    assert.equal(out.style, 'radar-default-v1');
    assert.ok(out.roads > 50, `roads drawn: ${out.roads}`);
  });
});
