import { sharedTestPack } from '../../src/geodata/test-pack.js';
import type { ApiResponse, TestServer } from './server.js';
import { startServer } from './server.js';

/** A test server on the world pack every test shares (GEODATA_DIR; built once per run, read-only). */
export async function startGeodataServer(opts: Parameters<typeof startServer>[0] = {}): Promise<TestServer> {
  const pack = await sharedTestPack();
  return startServer({ ...opts, env: { GEODATA_DIR: pack.dataDir, ...opts.env } });
}

/** GET with the test publishable key and a query built from `params` (encoded as radar-sdk-js does). */
export function get(s: TestServer, path: string, params: Record<string, string> = {}, key = s.keys.test.publishable) {
  const qs = new URLSearchParams(params).toString().replace(/\+/g, '%20');
  return s.request('GET', qs ? `${path}?${qs}` : path, { key });
}

/** The `layer:formattedAddress` of each address of a geocoding response, for readable assertions. */
export function labels(res: ApiResponse): string[] {
  return (res.body.addresses as Array<{ layer: string; formattedAddress: string }>).map(
    (a) => `${a.layer}:${a.formattedAddress}`,
  );
}

/** Turns the Regions feature on or off through PATCH /v1/settings, as an operator's back end would. */
export async function setRegions(s: TestServer, on: boolean): Promise<void> {
  const res = await s.request('PATCH', '/v1/settings', {
    key: s.keys.test.secret,
    json: { features: { regions: on } },
  });
  if (res.status !== 200) throw new Error(`PATCH /v1/settings failed: ${res.status} ${JSON.stringify(res.body)}`);
}
