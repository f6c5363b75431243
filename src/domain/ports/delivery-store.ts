import type { LocationEvent } from '../events/event.js';
import type { Tenant } from '../tenant.js';

/** An outbox row handed to a sender: the delivery, its attempts so far and its event (null once gone). */
export interface DueDelivery {
  id: string;
  projectId: string;
  live: boolean;
  webhookId: string;
  attempts: number;
  event: LocationEvent | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A delivery as its log shows it. Times are epoch ms. */
export interface DeliveryRecord {
  id: string;
  webhookId: string;
  eventId: string;
  status: DeliveryStatus;
  attempts: number;
  /** When it is tried next (pending only). */
  nextAttemptAt: number | null;
  /** The receiver's HTTP status at the last attempt, when it answered. */
  lastStatus: number | null;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
}

/** What an attempt leaves on its delivery (`at`: when, epoch ms). */
export interface DeliveryOutcome {
  /** The delivery's id. */
  id: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
  at: number;
}

/** The webhook outbox: rows are written with their events (`TrackWrite`, `TripWrite`), sent from here. */
export interface DeliveryStore {
  /**
   * Up to `limit` pending deliveries due at `now`, oldest due first, each held for `leaseMs` (pushed
   * past `now`) so that no other process sends it meanwhile; a sender that dies leaves it to be sent
   * again when the lease ends (at least once).
   */
  claimDue(now: number, limit: number, leaseMs: number): Promise<DueDelivery[]>;
  /** Records attempts (one transaction for all): delivered, failed for good, or pending again at `nextAttemptAt`. */
  settle(outcomes: readonly DeliveryOutcome[]): Promise<void>;
  /** The tenant's deliveries, newest first, of one webhook when named. */
  list(tenant: Tenant, query: { webhookId?: string; limit: number }): Promise<DeliveryRecord[]>;
  /** Deletes up to `limit` deliveries created before `before` (the events' retention); returns how many. */
  deleteCreatedBefore(tenant: Tenant, before: number, limit: number): Promise<number>;
  /**
   * Pending deliveries of every tenant (the outbox's backlog, for metrics), counted up to `cap` so that
   * a scrape over a huge backlog stays cheap: `cap` means "at least".
   */
  countPending(cap: number): Promise<number>;
}
