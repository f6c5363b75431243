import type { Store } from '../../domain/ports/store.js';
import type { Project } from '../../domain/projects/project.js';
import type { Tenant } from '../../domain/tenant.js';
import { presentEvent } from '../../http/presenters/event-presenter.js';
import { presentGeofence } from '../../http/presenters/geofence-presenter.js';
import { presentTrip } from '../../http/presenters/trip-presenter.js';
import { presentUser } from '../../http/presenters/user-presenter.js';

export const EXPORT_KINDS = ['events', 'users', 'trips', 'locations'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** One page of records as the API lists them, and the time the export has reached (for progress). */
export interface ExportPage {
  records: Array<Record<string, unknown>>;
  /** The sort time of the page's oldest record: the export goes from `to` back to `from`. */
  reached: number;
}

/** Rows read from the store per page: one page is all an export holds in memory. */
export const PAGE_SIZE = 500;

/**
 * The records of one kind whose time is in [from, to), newest first, a page at a time, each printed
 * as the API's list prints it: events (`createdAt`, as GET /v1/events), users (`updatedAt`, as GET
 * /v1/users), trips (`createdAt`, as GET /v1/trips?sortBy=createdAt&includeLocations=true) and
 * locations: the points tracked on trips (`updatedAt`), which with each user's latest location and
 * each event's location is the location history the store keeps.
 */
export async function* exportPages(
  store: Store,
  project: Project,
  tenant: Tenant,
  kind: ExportKind,
  from: number,
  to: number,
  now: number,
  pageSize = PAGE_SIZE,
): AsyncGenerator<ExportPage> {
  // Cursors are exclusive: `after: from - 1` keeps a record made at `from` exactly.
  let before = to;
  const after = from - 1;
  if (kind === 'trips' || kind === 'locations') {
    // As GET /v1/trips does before listing: stale active trips read as expired.
    await store.trips.expireStale(tenant, now - project.tripExpiryMinutes * 60_000);
  }
  for (;;) {
    let records: Array<Record<string, unknown>>;
    let times: number[];
    let hasMore: boolean;
    if (kind === 'events') {
      const page = await store.events.list(tenant, { limit: pageSize, before, after });
      records = page.items.map((e) => presentEvent(e) as Record<string, unknown>);
      times = page.items.map((e) => e.createdAt);
      hasMore = page.hasMore;
    } else if (kind === 'users') {
      const page = await store.users.list(tenant, { limit: pageSize, before, after });
      // The fences a user is in, read once per page (as GET /v1/users reads them once per answer).
      const fences = new Map<string, unknown>();
      for (const u of page.items)
        for (const m of u.geofences) {
          if (fences.has(m.geofenceId)) continue;
          const g = await store.geofences.get(tenant, m.geofenceId);
          fences.set(m.geofenceId, g === null ? null : presentGeofence(g, now, { geometry: false }));
        }
      records = page.items.map(
        (u) =>
          presentUser(
            u,
            u.geofences.map((m) => fences.get(m.geofenceId)).filter((g) => g !== null),
          ) as Record<string, unknown>,
      );
      times = page.items.map((u) => u.updatedAt);
      hasMore = page.hasMore;
    } else {
      // Trips by creation time; a trip's points come with it (locations: those inside the range).
      const page = await store.trips.list(tenant, {
        limit: pageSize,
        sortBy: 'createdAt',
        createdBefore: before,
        ...(kind === 'trips' ? { createdAfter: after } : {}),
      });
      const paths = await store.trips.locations(
        tenant,
        page.items.map((t) => t.id),
      );
      times = page.items.map((t) => t.createdAt);
      hasMore = page.hasMore;
      if (kind === 'trips')
        records = page.items.map((t) => presentTrip(t, paths.get(t.id) ?? []) as Record<string, unknown>);
      else {
        records = [];
        for (const t of page.items)
          for (const l of paths.get(t.id) ?? []) {
            if (l.updatedAt < from || l.updatedAt >= to) continue;
            records.push({
              tripId: t.id,
              tripExternalId: t.externalId,
              userId: t.userId ?? null,
              longitude: l.coordinates[0],
              latitude: l.coordinates[1],
              updatedAt: new Date(l.updatedAt).toISOString(),
            });
          }
      }
    }
    const reached = times.length ? times[times.length - 1]! : from;
    yield { records, reached: Math.max(from, reached) };
    if (!hasMore || times.length === 0) return;
    before = reached;
  }
}
