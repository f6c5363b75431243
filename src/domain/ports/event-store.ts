import type { ConversionCount } from '../events/conversion.js';
import type { EventVerification, LocationEvent } from '../events/event.js';
import type { Page, PageQuery } from '../pagination.js';
import type { Tenant } from '../tenant.js';
import type { Delivery } from '../webhooks/webhook.js';

export interface EventListQuery extends PageQuery {
  /** Event types to keep (any when absent). */
  types?: string[];
  /** Matches the user's `_id` or app `userId`. */
  userId?: string;
}

/** A conversion to store: its event, the webhook deliveries it owes, and what it adds to its day's count. */
export interface ConversionWrite {
  event: LocationEvent;
  deliveries: Delivery[];
  /** `YYYY-MM-DD` (UTC) of the event's `createdAt`. */
  day: string;
  revenue: number;
}

/** An event as the stream reads it, with its place in commit order. */
export interface StreamedEvent {
  cursor: string;
  event: LocationEvent;
}

/**
 * Events are written by `UserStore.trackUpdate`, in the same transaction as their user, and by
 * `logConversion`, the app's own events.
 */
export interface EventStore {
  /**
   * Up to `limit` of the tenant's events after `cursor`, oldest first in commit order, with the cursor
   * of each: an event committed later is never before one already read (the stream's resumption).
   */
  readAfter(tenant: Tenant, cursor: string, limit: number): Promise<StreamedEvent[]>;
  /** A cursor before every event committed from now on (a stream that starts now). */
  headCursor(): Promise<string>;
  /** Whether `text` is a cursor this store made. */
  isCursor(text: string): boolean;
  /** Newest `createdAt` first. */
  list(tenant: Tenant, query: EventListQuery): Promise<Page<LocationEvent>>;
  get(tenant: Tenant, id: string): Promise<LocationEvent | null>;
  /** Deletes up to `limit` events created before `before` (epoch ms), oldest first; returns how many. */
  deleteCreatedBefore(tenant: Tenant, before: number, limit: number): Promise<number>;
  /** Writes the conversion's event, its outbox rows and its day's count in one transaction. */
  logConversion(write: ConversionWrite): Promise<void>;
  /** Sets the event's verification (and the place accepted, or none); the event as now stored, or null. */
  setVerification(
    tenant: Tenant,
    id: string,
    verification: EventVerification,
    verifiedPlaceId: string | null,
  ): Promise<LocationEvent | null>;
  /**
   * Conversion counts per name and UTC day from `fromDay` to `toDay` (`YYYY-MM-DD`, both included),
   * by day then name. Counts outlive the events' retention: they are a tally, not a read of events.
   */
  conversionCounts(tenant: Tenant, fromDay: string, toDay: string): Promise<ConversionCount[]>;
}
