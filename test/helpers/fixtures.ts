import assert from 'node:assert/strict';
import type { LocationEvent } from '../../src/domain/events/event.js';
import type { Geofence } from '../../src/domain/geofences/geofence.js';
import { buildGeofenceShape } from '../../src/domain/geofences/geofence-shape.js';
import type { Tenant } from '../../src/domain/tenant.js';
import type { Trip } from '../../src/domain/trips/trip.js';
import type { User } from '../../src/domain/users/user.js';
import type { TestServer } from './server.js';

type Position = [number, number];

/** A closed, counter-clockwise square ring of side `size` degrees with its south-west corner at `[lon, lat]`. */
export function square(lon: number, lat: number, size = 0.01): Position[] {
  return [
    [lon, lat],
    [lon + size, lat],
    [lon + size, lat + size],
    [lon, lat + size],
    [lon, lat],
  ];
}

/** A closed ring from `lon` east over the antimeridian to `-lon` (`lon` > 0), between 1° S and 1° N. */
export function acrossAntimeridian(lon: number): Position[] {
  return [
    [lon, -1],
    [-lon, -1],
    [-lon, 1],
    [lon, 1],
    [lon, -1],
  ];
}

/** A valid circle upsert body, centred in Brooklyn unless told otherwise. */
export function circleBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { description: 'A circle', type: 'circle', coordinates: [-73.9867, 40.7039], radius: 100, ...extra };
}

/** Great-circle distance in meters (haversine), computed here rather than borrowed from src/geo. */
export function haversineMeters(a: Position, b: Position): number {
  const rad = Math.PI / 180;
  const dLat = (b[1] - a[1]) * rad;
  const dLon = (b[0] - a[0]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * rad) * Math.cos(b[1] * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * A stored 100 m circle fence (tag `store`, externalId `1`, centred in Manhattan) with every optional
 * field empty, as the store holds it; `fields` override any of it.
 */
export function makeCircleGeofence(tenant: Tenant, fields: Partial<Geofence> & { id: string }): Geofence {
  return {
    projectId: tenant.projectId,
    live: tenant.live,
    tag: 'store',
    externalId: '1',
    description: 'one',
    type: 'circle',
    ...buildGeofenceShape('circle', [-73.99, 40.7], 100),
    mode: null,
    metadata: null,
    userId: null,
    enabled: true,
    disableAfter: null,
    deleteAfter: null,
    stopDetection: null,
    dwellThreshold: null,
    createdAt: 1,
    updatedAt: 1,
    ...fields,
  };
}

/** A user record as track would store it (tests here may create users through the store). */
export function makeUser(tenant: Tenant, fields: Partial<User> & { id: string; updatedAt: number }): User {
  return {
    projectId: tenant.projectId,
    live: tenant.live,
    userId: null,
    deviceId: null,
    installId: null,
    description: null,
    metadata: null,
    location: [-73.9867, 40.7039],
    locationAccuracy: 10,
    foreground: true,
    stopped: false,
    deviceType: 'Web',
    ip: null,
    geofences: [],
    state: {},
    createdAt: fields.updatedAt,
    ...fields,
  };
}

/** A stored entry event of `u`, at its `updatedAt` and location, as the store holds events. */
export function makeEvent(u: User, id: string): LocationEvent {
  return {
    id,
    projectId: u.projectId,
    live: u.live,
    type: 'user.entered_geofence',
    createdAt: u.updatedAt,
    actualCreatedAt: u.updatedAt,
    user: { id: u.id, userId: u.userId, deviceId: u.deviceId, metadata: u.metadata },
    location: u.location!,
    locationAccuracy: 10,
    confidence: 3,
  };
}

/** A stored started car trip (externalId `ext-<id>`, no owner, destination or ETA); `fields` override any of it. */
export function makeTrip(tenant: Tenant, fields: Partial<Trip> & { id: string }): Trip {
  return {
    projectId: tenant.projectId,
    live: tenant.live,
    externalId: `ext-${fields.id}`,
    userPk: null,
    userId: null,
    deviceId: null,
    metadata: null,
    mode: 'car',
    destinationGeofenceTag: null,
    destinationGeofenceExternalId: null,
    destinationLocation: null,
    approachingThreshold: null,
    scheduledArrivalAt: null,
    eta: null,
    status: 'started',
    createdAt: 1000,
    startedAt: 1000,
    updatedAt: 1000,
    arrivedAt: null,
    completedAt: null,
    ...fields,
  };
}

/**
 * Pages through a list endpoint with `limit` and the before-cursor set to the last item's time, the
 * way a client does, and returns every item in the order served. Fails on a page over `limit`, but
 * for one that is a single run of equal times.
 */
export async function pageThrough(
  s: TestServer,
  key: string,
  opts: { path: string; field: string; timeField: string; cursor: string; limit: number; query?: string },
): Promise<Array<Record<string, unknown>>> {
  const all: Array<Record<string, unknown>> = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const qs = new URLSearchParams({ limit: String(opts.limit) });
    if (cursor) qs.set(opts.cursor, cursor);
    const res = await s.request('GET', `${opts.path}?${qs}${opts.query ? `&${opts.query}` : ''}`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const items = res.body[opts.field] as Array<Record<string, unknown>>;
    // The one page allowed over the limit is a single run of equal times (see cutPage): cursors are
    // bare datetimes, so such a run cannot be split; concurrent writes on a fast store make one.
    const oneRun = items.every((it) => it[opts.timeField] === items[0]?.[opts.timeField]);
    assert.ok(items.length <= opts.limit || oneRun, `page of ${items.length} items is over the limit ${opts.limit}`);
    all.push(...items);
    if (!res.body.meta.hasMore) return all;
    assert.ok(items.length > 0, 'hasMore with an empty page');
    cursor = items[items.length - 1]![opts.timeField] as string;
  }
  throw new Error('pagination did not end');
}

/** Asserts items are sorted newest first by an ISO time field. */
export function assertNewestFirst(items: Array<Record<string, unknown>>, timeField: string): void {
  for (let i = 1; i < items.length; i++) {
    const prev = Date.parse(items[i - 1]![timeField] as string);
    const cur = Date.parse(items[i]![timeField] as string);
    assert.ok(
      prev >= cur,
      `item ${i} (${items[i]![timeField]}) is newer than item ${i - 1} (${items[i - 1]![timeField]})`,
    );
  }
}

/** Asserts each id appears exactly once in `items` and nothing else does. */
export function assertExactlyOnce(items: Array<Record<string, unknown>>, ids: Iterable<string>): void {
  const seen = new Map<string, number>();
  for (const it of items) seen.set(it._id as string, (seen.get(it._id as string) ?? 0) + 1);
  const repeated = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  assert.deepEqual(repeated, [], 'records repeated across pages');
  const expected = new Set(ids);
  const missing = [...expected].filter((id) => !seen.has(id));
  assert.deepEqual(missing, [], 'records skipped by pagination');
  const extra = [...seen.keys()].filter((id) => !expected.has(id));
  assert.deepEqual(extra, [], 'unexpected records in the pages');
}
