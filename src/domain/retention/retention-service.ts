import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../clock.js';
import type { DeliveryStore } from '../ports/delivery-store.js';
import type { EventStore } from '../ports/event-store.js';
import type { ProjectStore } from '../ports/project-store.js';
import type { TripStore } from '../ports/trip-store.js';
import type { UserStore } from '../ports/user-store.js';
import type { Tenant } from '../tenant.js';
import { retentionOf } from './retention.js';

const DAY_MS = 86_400_000;

/** Rows removed in one statement: small enough that a track waiting on the write lock hardly notices. */
const BATCH = 500;

export interface SweepCounts {
  events: number;
  trips: number;
  users: number;
}

/**
 * Removes what each project's retention policy no longer keeps (`RetentionPolicy`). Called periodically by the
 * composition root; a backlog (a policy just shortened, a server that was down) goes in batches with
 * the event loop's other work between them. Users go one by one through `users.delete`, as
 * `DELETE /v1/users/:id` removes them, so every cache and index of users follows.
 */
export class RetentionService {
  #running: Promise<SweepCounts> | null = null;

  constructor(
    private readonly stores: {
      projects: ProjectStore;
      events: EventStore;
      trips: TripStore;
      users: UserStore;
      deliveries: DeliveryStore;
    },
    private readonly clock: Clock,
  ) {}

  /**
   * One pass over every project, `batch` rows a statement; a call while one runs joins it instead of
   * starting another.
   */
  sweep(batch = BATCH): Promise<SweepCounts> {
    this.#running ??= this.#sweep(batch).finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #sweep(batch: number): Promise<SweepCounts> {
    const counts: SweepCounts = { events: 0, trips: 0, users: 0 };
    const now = this.clock.now();
    for (const project of await this.stores.projects.list()) {
      const policy = retentionOf(project);
      for (const live of [false, true]) {
        const tenant: Tenant = { projectId: project.id, live };
        if (policy.eventsDays !== null) {
          const before = now - policy.eventsDays * DAY_MS;
          counts.events += await drain(batch, (n) => this.stores.events.deleteCreatedBefore(tenant, before, n));
          // Webhook deliveries are kept as long as the events they carried.
          await drain(batch, (n) => this.stores.deliveries.deleteCreatedBefore(tenant, before, n));
        }
        if (policy.tripsDays !== null) {
          const before = now - policy.tripsDays * DAY_MS;
          // An abandoned trip is active until read; once past both its expiry window and the policy,
          // it expires (as a read would have done long ago) and goes with the stopped ones.
          await this.stores.trips.expireStale(tenant, Math.min(now - project.tripExpiryMinutes * 60_000, before - 1));
          counts.trips += await drain(batch, (n) => this.stores.trips.deleteStoppedBefore(tenant, before, n));
        }
        if (policy.usersDays !== null) {
          const before = now - policy.usersDays * DAY_MS;
          counts.users += await drain(batch, (n) => this.#deleteUsers(tenant, before, n));
        }
      }
    }
    return counts;
  }

  async #deleteUsers(tenant: Tenant, before: number, limit: number): Promise<Batch> {
    const ids = await this.stores.users.idsUpdatedBefore(tenant, before, limit);
    let removed = 0;
    for (const id of ids) if (await this.stores.users.delete(tenant, id)) removed++;
    return { removed, full: ids.length === limit };
  }
}

/** What one batch removed, and whether it found a full batch to remove (so there may be more). */
interface Batch {
  removed: number;
  full: boolean;
}

/**
 * Runs `batch` until one finds less than a full batch, yielding the event loop between batches. A
 * batch answers how many rows it removed (full when that is `limit`), or a `Batch`.
 */
async function drain(limit: number, batch: (limit: number) => Promise<number | Batch>): Promise<number> {
  let total = 0;
  for (;;) {
    const got = await batch(limit);
    const { removed, full } = typeof got === 'number' ? { removed: got, full: got === limit } : got;
    total += removed;
    if (!full) return total;
    await nextTurn();
  }
}
