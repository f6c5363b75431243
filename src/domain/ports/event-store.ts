import type { LocationEvent } from '../events/event.js';
import type { Page, PageQuery } from '../pagination.js';
import type { Tenant } from '../tenant.js';

export interface EventListQuery extends PageQuery {
  /** Event types to keep (any when absent). */
  types?: string[];
  /** Matches the user's `_id` or app `userId`. */
  userId?: string;
}

/** Events are written only by `UserStore.trackUpdate`, in the same transaction as their user. */
export interface EventStore {
  /** Newest `createdAt` first. */
  list(tenant: Tenant, query: EventListQuery): Promise<Page<LocationEvent>>;
  get(tenant: Tenant, id: string): Promise<LocationEvent | null>;
  /** Deletes up to `limit` events created before `before` (epoch ms), oldest first; returns how many. */
  deleteCreatedBefore(tenant: Tenant, before: number, limit: number): Promise<number>;
}
