import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import type { ExportFormat } from '../src/cli/export/export-formats.js';
import type { ExportKind } from '../src/cli/export/export-sources.js';
import { exportRequest, runExport } from '../src/cli/export-command.js';
import { ManualClock, startServer, type TestServer } from './helpers/server.js';
import { BROOKLYN, offset, putCircle, track, trackBody } from './helpers/tracking.js';

type Rec = Record<string, unknown>;

describe('export: events, users, trips and locations as NDJSON, CSV and Parquet', () => {
  const clock = new ManualClock();
  let s: TestServer;
  let dir: string;
  const center = offset(BROOKLYN, 2000, -3000);
  const silent = { write: () => true, isTTY: false };
  const api = async (url: string, key: string): Promise<Rec[]> => {
    const res = await s.request('GET', url, { key: s.keys.test.secret });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body[key] as Rec[];
  };
  /** Exports `kind` in `format` a few rows a page (so paging is crossed) and reads the file back. */
  const exported = async (kind: ExportKind, format: ExportFormat, range: string[] = []): Promise<Rec[]> => {
    const out = path.join(dir, `${kind}.${format}`);
    const project = (await s.deps.services.projects.find('default'))!;
    const req = exportRequest(
      ['default', kind],
      { format, out, ...Object.fromEntries(range.map((r) => r.split('='))) },
      clock.now(),
    );
    await runExport(s.deps.store, project, req, silent, { pageSize: 4, now: clock.now() });
    if (format === 'ndjson')
      return fs
        .readFileSync(out, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Rec);
    if (format === 'csv') return parse(fs.readFileSync(out), { columns: true }) as Rec[];
    return (await parquetReadObjects({ file: await asyncBufferFromFile(out) })) as Rec[];
  };

  before(async () => {
    s = await startServer({ clock });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-export-'));
    await putCircle(s, 'store', 'one', center, 200);
    // Ten users, each in and out of the fence (events), on a trip whose points are the locations.
    for (let i = 0; i < 10; i++) {
      for (const [j, p] of [center, offset(center, 2000, 0), offset(center, 4000, 0)].entries()) {
        clock.advance(30_000);
        const res = await track(
          s,
          trackBody(`export-${i}`, offset(p, i * 5, 0), {
            userId: `export-user-${i}`,
            metadata: { note: 'a "quoted", comma\nline' },
            ...(j === 0 ? { tripOptions: { externalId: `export-trip-${i}` } } : {}),
          }),
        );
        assert.equal(res.status, 200, JSON.stringify(res.body));
      }
    }
  });
  after(async () => {
    await s?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('NDJSON records equal the API lists, in their order', async () => {
    const events = await api('/v1/events?limit=1000', 'events');
    assert.ok(events.length >= 20, `${events.length} events`);
    assert.deepEqual(await exported('events', 'ndjson'), events);
    assert.deepEqual(await exported('users', 'ndjson'), await api('/v1/users?limit=1000', 'users'));
    const trips = await api('/v1/trips?limit=1000&sortBy=createdAt&includeLocations=true', 'trips');
    assert.equal(trips.length, 10);
    assert.deepEqual(await exported('trips', 'ndjson'), trips);
  });

  it('CSV and Parquet read back to the API lists: flat columns and the whole record', async () => {
    const events = await api('/v1/events?limit=1000', 'events');
    for (const format of ['csv', 'parquet'] as const) {
      const rows = await exported('events', format);
      assert.deepEqual(
        rows.map((r) => JSON.parse(r.record as string)),
        events,
        format,
      );
      const [row] = rows;
      const first = events[0] as { _id: string; type: string; location: { coordinates: number[] } };
      assert.equal(row!._id, first._id);
      assert.equal(row!.type, first.type);
      // Parquet keeps numbers as numbers; CSV cells are text.
      assert.equal(Number(row!.latitude), first.location.coordinates[1]);
      if (format === 'parquet') assert.equal(typeof row!.latitude, 'number');
    }
    const users = await api('/v1/users?limit=1000', 'users');
    assert.deepEqual(
      (await exported('users', 'parquet')).map((r) => JSON.parse(r.record as string)),
      users,
    );
  });

  it('locations are the points tracked on trips, as the trips list shows them', async () => {
    const trips = (await api('/v1/trips?limit=1000&sortBy=createdAt&includeLocations=true', 'trips')) as Array<{
      _id: string;
      locations: Array<{ coordinates: number[]; updatedAt: string }>;
    }>;
    const want = trips.flatMap((t) =>
      t.locations.map((l) => ({
        tripId: t._id,
        latitude: l.coordinates[1],
        longitude: l.coordinates[0],
        updatedAt: l.updatedAt,
      })),
    );
    assert.ok(want.length >= 20, `${want.length} points`);
    const got = (await exported('locations', 'parquet')).map((r) => ({
      tripId: r.tripId,
      latitude: r.latitude,
      longitude: r.longitude,
      updatedAt: r.updatedAt,
    }));
    const key = (p: { tripId: unknown; updatedAt: unknown }) => `${p.tripId} ${p.updatedAt}`;
    assert.deepEqual(
      got.sort((a, b) => key(a).localeCompare(key(b))),
      want.sort((a, b) => key(a).localeCompare(key(b))),
    );
  });

  it('--from and --to bound the rows; bad flags are refused naming the flag', async () => {
    const events = (await api('/v1/events?limit=1000', 'events')) as Array<{ createdAt: string }>;
    const times = events.map((e) => e.createdAt).sort();
    const from = times[5]!;
    const to = times[15]!;
    const got = (await exported('events', 'ndjson', [`from=${from}`, `to=${to}`])) as Array<{ createdAt: string }>;
    assert.deepEqual(
      got.map((e) => e.createdAt).sort(),
      times.filter((t) => t >= from && t < to),
    );
    assert.throws(() => exportRequest(['default', 'places'], { out: 'x' }, 0), /must be one of events, users/);
    assert.throws(() => exportRequest(['default', 'events'], { out: 'x', from: 'soon' }, 0), /^Error: --from must be/);
    assert.throws(() => exportRequest(['default', 'events'], { out: 'x', format: 'xml' }, 0), /^Error: --format/);
    assert.throws(() => exportRequest(['default', 'events'], {}, 0), /^Error: --out/);
  });
});
