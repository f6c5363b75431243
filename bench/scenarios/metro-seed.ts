/**
 * Synthetic metro data for the tracking, context and search benches, written straight into the
 * server's SQLite file (another process; the server notices through `onExternalChange`). Fences:
 * 60% circles and 40% star polygons of 5–50 vertices, 50–500 m; in each metro 70% spread over a
 * 1.1° x 0.8° box, 30% clustered around its center. Each metro holds 100,000 fences (about three
 * fences over a typical point): New York first, then nine more US metros, so a million fences keep a
 * realistic density instead of thirty fences over every point. Deterministic (mulberry32).
 */

import type { Geofence } from '../../src/domain/geofences/geofence.js';
import { buildGeofenceShape } from '../../src/domain/geofences/geofence-shape.js';
import { hashKey } from '../../src/domain/projects/keys.js';
import type { Tenant } from '../../src/domain/tenant.js';
import type { User } from '../../src/domain/users/user.js';
import type { Position } from '../../src/geo/types.js';
import { announceBulkLoad, insertGeofences, insertUsers } from '../../src/storage/postgres/bulk-load.js';
import { writeTransaction } from '../../src/storage/sqlite/open-database.js';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import { seededRandom } from '../../test/helpers/seeded-random.js';
import { benchDatabaseUrl, pgTenantOfKey, withBenchStore } from '../lib/bench-database.js';

export const random = seededRandom(42);
const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

const M_PER_DEG = 111_195;
/** Metro centers, `[lon, lat]`: New York (Midtown), Boston, Philadelphia, Washington, Chicago, Los Angeles, San Francisco, Houston, Atlanta, Seattle. */
const METROS: Position[] = [
  [-73.985, 40.755],
  [-71.06, 42.36],
  [-75.16, 39.95],
  [-77.04, 38.9],
  [-87.63, 41.88],
  [-118.24, 34.05],
  [-122.42, 37.77],
  [-95.37, 29.76],
  [-84.39, 33.75],
  [-122.33, 47.61],
];
/** Fences per metro. */
export const FENCES_PER_METRO = 100_000;

/** A random `[lon, lat]` in metro `m` (0 = New York): 30% around its center, 70% anywhere in its box. */
export function metroPoint(m = 0): Position {
  const [lon, lat] = METROS[m % METROS.length]!;
  const mPerDegLon = M_PER_DEG * Math.cos((lat * Math.PI) / 180);
  if (random() < 0.3) return [lon + (gauss() * 15_000) / mPerDegLon, lat + (gauss() * 15_000) / M_PER_DEG];
  return [lon - 0.515 + random() * 1.1, lat - 0.355 + random() * 0.8];
}

/** A random point in one of the metros that `fenceCount` fences fill. */
export function anyMetroPoint(fenceCount: number): Position {
  return metroPoint(Math.floor(random() * Math.max(1, Math.ceil(fenceCount / FENCES_PER_METRO))));
}

const offset = (p: Position, dx: number, dy: number): Position => [
  p[0] + dx / (M_PER_DEG * Math.cos((p[1] * Math.PI) / 180)),
  p[1] + dy / M_PER_DEG,
];

/** The tenant a key belongs to, read from the server's store. */
export async function tenantOfKey(dataDir: string, key: string): Promise<Tenant> {
  if (benchDatabaseUrl()) return pgTenantOfKey(key);
  const store = SqliteStore.open(dataDir);
  try {
    const resolved = await store.projects.resolveKey(hashKey(key));
    if (!resolved) throw new Error('bench key does not resolve');
    return { projectId: resolved.project.id, live: resolved.live };
  } finally {
    await store.close();
  }
}

/** The id of the `i`th seeded fence. */
export function fenceId(i: number): string {
  return `bench${i.toString(16).padStart(19, '0')}`;
}

function makeFence(tenant: Tenant, i: number, createdAt: number): { fence: Geofence; center: Position } {
  const center = metroPoint(Math.floor(i / FENCES_PER_METRO));
  const radius = 50 + random() * 450;
  let shape: ReturnType<typeof buildGeofenceShape>;
  const type = random() < 0.6 ? 'circle' : 'polygon';
  if (type === 'circle') {
    shape = buildGeofenceShape('circle', center, Math.round(radius));
  } else {
    const n = 5 + Math.floor(random() * 46);
    const angles = Array.from({ length: n }, (_, k) => ((k + 0.8 * random()) * 2 * Math.PI) / n);
    // Star-shaped around the center with strictly increasing angles: always a simple ring.
    const ring = angles.map((a) => {
      const r = radius * (0.6 + 0.4 * random());
      return offset(center, Math.cos(a) * r, Math.sin(a) * r);
    });
    ring.push(ring[0]!);
    shape = buildGeofenceShape('polygon', ring, undefined);
  }
  const fence: Geofence = {
    id: fenceId(i),
    projectId: tenant.projectId,
    live: tenant.live,
    tag: i % 10 === 0 ? 'office' : 'store',
    externalId: String(i),
    description: `Fence ${i}`,
    type,
    ...shape,
    mode: null,
    metadata: { chain: i % 3 === 0 ? 'a' : 'b', n: i },
    userId: null,
    enabled: true,
    disableAfter: null,
    deleteAfter: null,
    stopDetection: null,
    dwellThreshold: i % 4 === 0 ? 10 : null,
    createdAt,
    updatedAt: createdAt,
  };
  // The generating center lies inside both shapes (the star is star-shaped around it).
  return { fence, center };
}

/** A fence just written and a point inside it: a track there enters it once the server has it indexed. */
export interface SeedProbe {
  id: string;
  inside: Position;
}

/** Writes fences `from` to `to - 1` for the tenant, 10,000 per transaction; returns a probe of the last. */
export async function seedGeofences(dataDir: string, tenant: Tenant, from: number, to: number): Promise<SeedProbe> {
  const t0 = Date.now() - to;
  let probe: SeedProbe | undefined;
  if (benchDatabaseUrl()) {
    await withBenchStore(async (pg) => {
      for (let start = from; start < to; start += 10_000) {
        const made = Array.from({ length: Math.min(to, start + 10_000) - start }, (_, k) =>
          makeFence(tenant, start + k, t0 + start + k),
        );
        await insertGeofences(
          pg,
          tenant,
          made.map((m) => m.fence),
        );
        const last = made[made.length - 1]!;
        probe = { id: last.fence.id, inside: last.center };
      }
      await announceBulkLoad(pg, tenant, 'geofences');
    });
    if (!probe) throw new Error('seedGeofences wrote nothing');
    return probe;
  }
  const store = SqliteStore.open(dataDir);
  try {
    for (let start = from; start < to; start += 10_000) {
      // 10,000 upserts to a transaction (each upsert writes synchronously, a savepoint inside it).
      const upserts: Promise<unknown>[] = [];
      writeTransaction(store.db, () => {
        for (let i = start; i < Math.min(to, start + 10_000); i++) {
          const { fence, center } = makeFence(tenant, i, t0 + i);
          upserts.push(store.geofences.upsert(fence, t0));
          probe = { id: fence.id, inside: center };
        }
      });
      await Promise.all(upserts);
    }
  } finally {
    await store.close();
  }
  if (!probe) throw new Error('seedGeofences wrote nothing');
  return probe;
}

/** Writes `count` located users (metadata role driver/rider) for the tenant. */
export async function seedUsers(dataDir: string, tenant: Tenant, count: number): Promise<void> {
  const now = Date.now();
  if (benchDatabaseUrl()) {
    await withBenchStore(async (pg) => {
      for (let start = 0; start < count; start += 10_000) {
        const batch = Array.from({ length: Math.min(count, start + 10_000) - start }, (_, k) =>
          makeUser(tenant, start + k, now),
        );
        await insertUsers(pg, tenant, batch);
      }
      await announceBulkLoad(pg, tenant, 'users');
    });
    return;
  }
  const store = SqliteStore.open(dataDir);
  try {
    writeTransaction(store.db, () => {
      for (let i = 0; i < count; i++) void store.users.save(makeUser(tenant, i, now));
    });
  } finally {
    await store.close();
  }
}

function makeUser(tenant: Tenant, i: number, now: number): User {
  return {
    id: `benchuser${i.toString(16).padStart(15, '0')}`,
    projectId: tenant.projectId,
    live: tenant.live,
    userId: `bench-user-${i}`,
    deviceId: `bench-device-${i}`,
    installId: null,
    description: null,
    metadata: { role: i % 2 === 0 ? 'driver' : 'rider' },
    location: metroPoint(),
    locationAccuracy: 10,
    foreground: true,
    stopped: false,
    deviceType: 'iOS',
    ip: null,
    geofences: [],
    state: {},
    createdAt: now,
    updatedAt: now + i,
  };
}
