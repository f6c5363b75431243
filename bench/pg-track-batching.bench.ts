/**
 * Design probe for issue 4: what PostgreSQL spends per track when K tracks share one transaction, as
 * the server's grouped track transactions do (track-groups.ts). It sends the server's own prepared
 * statements (`trackBeginSql`, `wb_track_read`, `trackWriteSql`) in its two round trips (locks and
 * reads; writes and COMMIT), K tracks' statements in each, for devices already stored (so reads find
 * a user and writes update it), and reads the PostgreSQL processes' CPU from /proc. No HTTP and no
 * track logic: the API's own share is measured by `npm run bench -- track --store postgres`.
 *
 *   node --import tsx bench/pg-track-batching.bench.ts [K,K,...]   (default 1,4,16,1,4,16)
 *
 * Uses the bench database (BENCH_DATABASE_URL, schema `bench`, recreated), as `npm run bench` does.
 */
import fs from 'node:fs';
import type pg from 'pg';
import type { LocationEvent } from '../src/domain/events/event.js';
import { newId } from '../src/domain/ids.js';
import type { Tenant } from '../src/domain/tenant.js';
import type { User } from '../src/domain/users/user.js';
import { createPool, migrate } from '../src/storage/postgres/open-pool.js';
import { trackBeginSql, trackWriteSql } from '../src/storage/postgres/postgres-user-store.js';
import { ensurePrepared, execute } from '../src/storage/postgres/prepared-statements.js';
import { lit, runBatch } from '../src/storage/postgres/sql-batch.js';
import { freshBenchDatabase } from './lib/bench-database.js';

const DEVICES = 20_000;
const CONNECTIONS = 8;
const SECONDS = 10;
const tenant: Tenant = { projectId: 'batching-probe', live: false };
const userIds = Array.from({ length: DEVICES }, () => newId());

/** Device `i`'s user as a track leaves it: 3-4 memberships, the bench's document size (~700 bytes). */
function trackedUser(i: number, now: number): User {
  return {
    id: userIds[i]!,
    projectId: tenant.projectId,
    live: tenant.live,
    userId: null,
    deviceId: `device-${i}`,
    installId: null,
    description: null,
    metadata: null,
    location: [-74 + Math.random() * 0.5, 40.7 + Math.random() * 0.3],
    locationAccuracy: 20,
    foreground: true,
    stopped: false,
    deviceType: 'Web',
    ip: '127.0.0.1',
    geofences: Array.from({ length: 3 + (i % 2) }, () => ({
      geofenceId: `fence${Math.floor(Math.random() * 100_000)}`,
      enteredAt: now,
      dwelled: false,
    })),
    state: {},
    createdAt: now,
    updatedAt: now,
  };
}

/** An entry per membership (~520 bytes each, as the track bench's). */
function entries(user: User, now: number): LocationEvent[] {
  return user.geofences.map((m) => ({
    id: newId(),
    projectId: user.projectId,
    live: user.live,
    type: 'user.entered_geofence',
    createdAt: now,
    actualCreatedAt: now,
    user: { id: user.id, userId: null, deviceId: user.deviceId, metadata: null },
    location: user.location!,
    locationAccuracy: 20,
    confidence: 2,
    replayed: false,
    geofence: { _id: m.geofenceId, description: 'Fence 1234', tag: 'store', externalId: '1234', metadata: { n: 1 } },
  }));
}

let nextDevice = 0;

/** K tracks of distinct devices in one transaction, locked as the server locks a group. */
async function transaction(c: pg.PoolClient, k: number): Promise<void> {
  const devices = Array.from({ length: k }, () => nextDevice++ % DEVICES).sort((a, b) => a - b);
  const scope = `${tenant.projectId}|${tenant.live}`;
  const first = [
    'BEGIN',
    trackBeginSql(
      tenant,
      devices.map((i) => `${scope}|d|device-${i}`),
    ),
  ];
  for (const i of devices) {
    first.push(execute('wb_track_read', [lit(tenant.projectId), lit(tenant.live), lit(`device-${i}`), 'NULL']));
  }
  await runBatch(c, first);
  const now = Date.now();
  const writes = devices.map((i) => {
    const user = trackedUser(i, now);
    return trackWriteSql(tenant, user, entries(user, now));
  });
  await runBatch(c, [...writes, 'COMMIT']);
}

/** CPU time of every PostgreSQL process, in clock ticks (1/100 s). */
function postgresTicks(): number {
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ticks;
}

async function run(pool: pg.Pool, k: number, seconds: number): Promise<string> {
  let tracks = 0;
  const stopAt = Date.now() + seconds * 1000;
  const ticks = postgresTicks();
  const client = process.cpuUsage();
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const c = await pool.connect();
      try {
        await ensurePrepared(c);
        while (Date.now() < stopAt) {
          await transaction(c, k);
          tracks += k;
        }
      } finally {
        c.release();
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  const pgMicros = ((postgresTicks() - ticks) * 10_000) / tracks;
  const used = process.cpuUsage(client);
  const clientMicros = (used.user + used.system) / tracks;
  return `| ${k} | ${Math.round(tracks / elapsed)} | ${Math.round(pgMicros)} | ${Math.round(clientMicros)} |`;
}

const ks = (process.argv[2] ?? '1,4,16,1,4,16').split(',').map(Number);
const { DATABASE_URL } = await freshBenchDatabase();
const pool = createPool(DATABASE_URL!, CONNECTIONS + 2);
try {
  await migrate(pool);
  // Every device's user stored before the clock starts: the rows measure updates of known users.
  const c = await pool.connect();
  try {
    await ensurePrepared(c);
    while (nextDevice < DEVICES) await transaction(c, 16);
  } finally {
    c.release();
  }
  console.log(`${CONNECTIONS} connections, ${DEVICES.toLocaleString('en-US')} known devices, ${SECONDS} s a row`);
  console.log('| tracks per transaction | tracks/s | PostgreSQL CPU µs/track | client CPU µs/track |');
  console.log('|---:|---:|---:|---:|');
  for (const k of ks) console.log(await run(pool, k, SECONDS));
} finally {
  await pool.end();
}
