import { setTimeout as sleep } from 'node:timers/promises';
import { invalidParam } from '../errors.js';
import type { EventStore, StreamedEvent } from '../ports/event-store.js';
import { type Tenant, tenantKey } from '../tenant.js';

/** Streams open at once per project and environment; one more is refused until one closes. */
export const MAX_STREAMS_PER_TENANT = 10;
/** How often a stream looks for new events (every process reads the shared store: scale-out works). */
export const STREAM_POLL_MS = 250;
/** Events read per query; a stream holds no more than these (and the socket's buffer) at a time. */
const STREAM_BATCH = 200;

export interface StreamFilter {
  /** Event types to send (all when absent). */
  types?: string[] | undefined;
  /** The user's `_id` or app `userId`. */
  userId?: string | undefined;
}

/** One open stream: its events (null at each poll that found none), until `signal` aborts. */
export interface EventFeed {
  events: AsyncGenerator<StreamedEvent | null>;
  close(): void;
}

/**
 * Live event streams: each follows its tenant's events after a cursor in commit order (the store's
 * `readAfter`), by polling the store, so an event any API process commits reaches streams on every
 * other. Resuming from the last cursor a client saw loses and repeats nothing. Bounded: at most
 * MAX_STREAMS_PER_TENANT streams per tenant, STREAM_BATCH events read ahead per stream, and the next
 * read waits until the client has taken the last (the consumer pulls). `closeAll` ends every stream
 * (graceful shutdown must not wait for clients that never leave).
 */
export class EventStreams {
  private readonly open = new Map<string, Set<AbortController>>();

  constructor(
    private readonly store: EventStore,
    private readonly opts: { maxPerTenant?: number; pollMs?: number } = {},
  ) {}

  /**
   * A stream of the tenant's events after `lastEventId` (a cursor this store gave), or from now.
   * Null when the tenant has its most streams open.
   */
  async follow(
    tenant: Tenant,
    filter: StreamFilter,
    lastEventId?: { param: string; value: string },
  ): Promise<EventFeed | null> {
    if (lastEventId && !this.store.isCursor(lastEventId.value)) {
      throw invalidParam(lastEventId.param, 'must be the id of an event this stream sent.');
    }
    const key = tenantKey(tenant);
    const streams = this.open.get(key) ?? new Set<AbortController>();
    if (streams.size >= (this.opts.maxPerTenant ?? MAX_STREAMS_PER_TENANT)) return null;
    const controller = new AbortController();
    streams.add(controller);
    this.open.set(key, streams);
    const release = () => {
      controller.abort();
      streams.delete(controller);
      if (streams.size === 0 && this.open.get(key) === streams) this.open.delete(key);
    };
    try {
      const from = lastEventId?.value ?? (await this.store.headCursor());
      return { events: this.read(tenant, filter, from, controller.signal, release), close: release };
    } catch (err) {
      release();
      throw err;
    }
  }

  /** How many streams the tenant has open. */
  count(tenant: Tenant): number {
    return this.open.get(tenantKey(tenant))?.size ?? 0;
  }

  closeAll(): void {
    for (const streams of [...this.open.values()]) for (const c of [...streams]) c.abort();
  }

  private async *read(
    tenant: Tenant,
    filter: StreamFilter,
    from: string,
    signal: AbortSignal,
    release: () => void,
  ): AsyncGenerator<StreamedEvent | null> {
    const types = filter.types?.length ? new Set(filter.types) : undefined;
    let cursor = from;
    try {
      while (!signal.aborted) {
        const batch = await this.store.readAfter(tenant, cursor, STREAM_BATCH);
        for (const item of batch) {
          // Past events the filter drops too: a resumed stream reads them again, and drops them again.
          cursor = item.cursor;
          const e = item.event;
          if (types && !types.has(e.type)) continue;
          if (filter.userId !== undefined && e.user.id !== filter.userId && e.user.userId !== filter.userId) continue;
          yield item;
          if (signal.aborted) return;
        }
        if (batch.length < STREAM_BATCH) {
          yield null;
          await sleep(this.opts.pollMs ?? STREAM_POLL_MS, undefined, { signal, ref: false }).catch(() => {});
        }
      }
    } finally {
      release();
    }
  }
}
