import type { ApiResponse, TestServer } from './server.js';

export type LonLat = [number, number];

/** Brooklyn, where most tracking tests happen. `[lon, lat]`. */
export const BROOKLYN: LonLat = [-73.9867, 40.7039];

/** The point `east` and `north` meters from `p` (flat approximation, good to a few cm under 2 km). */
export function offset(p: LonLat, east: number, north: number): LonLat {
  const mPerDegLat = 111_195.08;
  return [p[0] + east / (mPerDegLat * Math.cos((p[1] * Math.PI) / 180)), p[1] + north / mPerDegLat];
}

/** A track body at `p` with accuracy 10 m unless told otherwise. */
export function trackBody(deviceId: string, p: LonLat, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { deviceId, latitude: p[1], longitude: p[0], accuracy: 10, ...extra };
}

export function track(
  s: TestServer,
  body: Record<string, unknown>,
  key = s.keys.test.publishable,
): Promise<ApiResponse> {
  return s.request('POST', '/v1/track', { key, json: body });
}

/** Creates (or replaces) a circle fence and returns its `_id`. */
export async function putCircle(
  s: TestServer,
  tag: string,
  externalId: string,
  center: LonLat,
  radius: number,
  extra: Record<string, unknown> = {},
  key = s.keys.test.secret,
): Promise<string> {
  const res = await s.request('PUT', `/v1/geofences/${tag}/${externalId}`, {
    key,
    json: { description: `${tag} ${externalId}`, type: 'circle', coordinates: center, radius, ...extra },
  });
  if (res.status !== 200) throw new Error(`geofence upsert failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.geofence._id;
}

/** The event types of a track response, in order. */
export function typesOf(res: ApiResponse): string[] {
  return (res.body.events as Array<{ type: string }>).map((e) => e.type);
}

/**
 * A maker of fresh device ids (`<prefix>-1`, `<prefix>-2` …) that first moves `clock` 2 s on, past the
 * per-device track rate limit, so every test's device tracks at once.
 */
export function deviceIds(clock: { advance(ms: number): void }, prefix: string): () => string {
  let n = 0;
  return () => {
    clock.advance(2000);
    return `${prefix}-${++n}`;
  };
}
