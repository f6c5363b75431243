import { notFound } from '../errors.js';
import type { Page } from '../pagination.js';
import type { EventListQuery, EventStore } from '../ports/event-store.js';
import type { Tenant } from '../tenant.js';
import type { LocationEvent } from './event.js';

/** Reading stored events. They are written only by track, with their user, in one transaction. */
export class EventService {
  constructor(private readonly events: EventStore) {}

  /** Newest `createdAt` first; `userId` matches the user's `_id` or app `userId`. */
  list(tenant: Tenant, query: EventListQuery): Promise<Page<LocationEvent>> {
    return this.events.list(tenant, query);
  }

  async get(tenant: Tenant, id: string): Promise<LocationEvent> {
    const event = await this.events.get(tenant, id);
    if (!event) throw notFound('event', 'id');
    return event;
  }
}
