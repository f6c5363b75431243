import assert from 'node:assert/strict';
import { haversineMeters } from './fixtures.js';
import type { ApiResponse, ManualClock, TestServer } from './server.js';
import { type LonLat, track, trackBody } from './tracking.js';

/** The estimate router's profile, restated here so the tests check the documented numbers. */
const PROFILES = { car: { detour: 1.3, kmh: 40 }, bike: { detour: 1.25, kmh: 15 }, foot: { detour: 1.2, kmh: 5 } };

/** The ETA the estimate router gives from `from` to `to`: meters (whole) and minutes (2 decimals). */
export function expectedEta(
  from: LonLat,
  to: LonLat,
  mode: keyof typeof PROFILES = 'car',
): { distance: number; duration: number } {
  const p = PROFILES[mode];
  const meters = haversineMeters(from, to) * p.detour;
  return { distance: Math.round(meters), duration: Math.round((meters / ((p.kmh * 1000) / 60)) * 100) / 100 };
}

/** Tracks after moving the clock 30 s on, so per-device limits (1/s, 180/h) never refuse a test's track. */
export async function trackLater(
  s: TestServer,
  clock: ManualClock,
  deviceId: string,
  p: LonLat,
  extra: Record<string, unknown> = {},
): Promise<ApiResponse> {
  clock.advance(30_000);
  const res = await track(s, trackBody(deviceId, p, extra));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res;
}

export function startTrip(
  s: TestServer,
  body: Record<string, unknown>,
  key = s.keys.test.publishable,
): Promise<ApiResponse> {
  return s.request('POST', '/v1/trips', { key, json: body });
}

export function patchTrip(
  s: TestServer,
  id: string,
  body: Record<string, unknown>,
  key = s.keys.test.publishable,
): Promise<ApiResponse> {
  return s.request('PATCH', `/v1/trips/${encodeURIComponent(id)}`, { key, json: body });
}

export function updateTrip(
  s: TestServer,
  externalId: string,
  body: Record<string, unknown>,
  key = s.keys.test.publishable,
): Promise<ApiResponse> {
  return s.request('PATCH', `/v1/trips/${encodeURIComponent(externalId)}/update`, { key, json: body });
}

export function getTrip(s: TestServer, id: string, key = s.keys.test.secret): Promise<ApiResponse> {
  return s.request('GET', `/v1/trips/${encodeURIComponent(id)}`, { key });
}

export function listTrips(s: TestServer, query = '', key = s.keys.test.secret): Promise<ApiResponse> {
  return s.request('GET', `/v1/trips${query ? `?${query}` : ''}`, { key });
}

/** The trip events of a response, as `type` or `type:status` for stops. */
export function tripEventsOf(res: ApiResponse): string[] {
  return (res.body.events as Array<{ type: string; trip?: { status: string } }>)
    .filter((e) => e.type.endsWith('_trip') || e.type.includes('trip_destination'))
    .map((e) => (e.type === 'user.stopped_trip' ? `${e.type}:${e.trip?.status}` : e.type));
}
