import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { AppDeps } from '../context.js';

/** The webhook backlog is counted up to this many rows per scrape; more reads as this many. */
export const PENDING_DELIVERIES_CAP = 100_000;

/** Seconds: from a cached read's tens of microseconds to a request stuck behind a slow store. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The metrics an operator scrapes (names in docs/operations.md), in a registry of their own: each app
 * has one, so several servers in one process (the tests) do not count into each other. Node's default
 * metrics (memory, CPU, GC, event-loop delay as `nodejs_eventloop_lag_*`) come with it.
 */
export class OperatorMetrics {
  readonly registry = new Registry();
  /** Every answered request by route pattern (never the raw URL: ids would make a series each) and status. */
  readonly requests = new Histogram({
    name: 'whereabouts_http_request_duration_seconds',
    help: 'Time from receiving a request to answering it, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly events = new Counter({
    name: 'whereabouts_events_total',
    help: 'Events created by location updates (track and replay), by type.',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'whereabouts_rate_limited_total',
    help: 'Requests refused with 429, by the limit that refused them.',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });
  readonly trackTransaction = new Histogram({
    name: 'whereabouts_store_track_seconds',
    help: "Time a track spends in the store's read-modify-write of its user (with the geofence and participant work done inside it).",
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  constructor(deps: AppDeps) {
    collectDefaultMetrics({ register: this.registry });
    const { store, usage } = deps;
    new Histogram({
      name: 'whereabouts_store_ping_seconds',
      help: 'Round trip of a trivial query to the store, measured at each scrape.',
      buckets: LATENCY_BUCKETS,
      registers: [this.registry],
      async collect() {
        const end = this.startTimer();
        await store.ping();
        end();
      },
    });
    new Gauge({
      name: 'whereabouts_webhook_deliveries_pending',
      help: `Webhook deliveries not yet delivered nor given up (every tenant), counted up to ${PENDING_DELIVERIES_CAP}; read from the store at each scrape.`,
      registers: [this.registry],
      async collect() {
        this.set(await store.deliveries.countPending(PENDING_DELIVERIES_CAP));
      },
    });
    new Gauge({
      name: 'whereabouts_usage_rows_pending',
      help: 'Usage counts of this process not yet added to the store (flushed about once a second).',
      registers: [this.registry],
      collect() {
        this.set(usage.pendingRows);
      },
    });
    deps.services.tracking.onTracked((_tenant, _user, events) => {
      for (const e of events) this.events.inc({ type: e.type });
    });
    this.timeTracks(deps);
  }

  /**
   * Times each track's store transaction by wrapping the one store method every track calls, on this
   * store object only: the store itself knows nothing of metrics, and with metrics off (the default)
   * nothing is wrapped and a track pays nothing.
   */
  private timeTracks({ store }: AppDeps): void {
    const users = store.users;
    const trackUpdate = users.trackUpdate.bind(users);
    const histogram = this.trackTransaction;
    users.trackUpdate = ((...args: Parameters<typeof trackUpdate>) => {
      const end = histogram.startTimer();
      return trackUpdate(...args).finally(end);
    }) as typeof users.trackUpdate;
  }
}

/**
 * Which limit a 429 came from, from the rule's label in its message ("1 track per second per device"
 * -> `device_per_second`, "100 requests per second per key" -> `key_per_second`): a few fixed values.
 */
export function limitOf(message: string): string {
  const m = /per (\w+) per (\w+)/.exec(message);
  return m ? `${m[2]}_per_${m[1]}` : 'other';
}
