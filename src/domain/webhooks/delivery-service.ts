import type { Clock } from '../clock.js';
import type { Destination } from '../destinations/destination.js';
import type { LocationEvent } from '../events/event.js';
import type { DeliveryOutcome, DeliveryStore, DueDelivery } from '../ports/delivery-store.js';
import type { ProjectStore } from '../ports/project-store.js';
import type { Webhook } from './webhook.js';

/** What one attempt got: the receiver's HTTP status when it answered, else why not. */
export interface SendResult {
  status: number | null;
  error: string | null;
}

/** One post: one event, or in a webhook's `multiple` mode up to five events of one user, oldest first. */
export interface WebhookPost {
  webhook: Webhook;
  items: Array<{ deliveryId: string; event: LocationEvent }>;
}

/** Makes one post (src/webhooks/http-sender.ts). */
export type SendDelivery = (post: WebhookPost) => Promise<SendResult>;

/** One message to a broker: one event for one destination. */
export interface DestinationMessage {
  destination: Destination;
  deliveryId: string;
  event: LocationEvent;
}

/**
 * Publishes one message and resolves once the broker has acknowledged it (src/destinations/); rejects
 * when it could not, and the delivery is tried again.
 */
export type PublishDelivery = (message: DestinationMessage) => Promise<void>;

const noBrokers: PublishDelivery = () => Promise.reject(new Error('this process publishes to no broker'));

/** Events a `multiple` webhook receives in one post at most (the hosted service's five). */
export const EVENTS_PER_POST = 5;

export interface DeliveryPolicy {
  /** Deliveries claimed, and sent at once, per pass. */
  batch: number;
  /**
   * Passes the periodic loop keeps under way at once (`start`): a receiver that does not answer holds
   * its pass until the timeout, and the others go on meanwhile.
   */
  passes: number;
  /** How long a claimed delivery is held from other senders: longer than an attempt can take. */
  leaseMs: number;
  /** Attempts before a delivery is given up as failed. */
  maxAttempts: number;
  /** The wait after the first failed attempt; it doubles with each failure, up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
  /**
   * Destinations (brokers) are tried without an attempt limit, since a broker that is down is
   * expected back and an event must not be lost: first after `brokerFirstDelayMs`, doubling up to
   * `brokerMaxDelayMs`.
   */
  brokerFirstDelayMs: number;
  brokerMaxDelayMs: number;
}

/**
 * Twelve attempts over about fifteen hours (30 s, 1, 2, 4 … 256 min, then six hours), each wait
 * ±20% so that a receiver that was down is not hit by every delivery at the same moment.
 */
export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  batch: 32,
  passes: 4,
  leaseMs: 60_000,
  maxAttempts: 12,
  firstDelayMs: 30_000,
  maxDelayMs: 6 * 3_600_000,
  brokerFirstDelayMs: 5_000,
  brokerMaxDelayMs: 300_000,
};

/**
 * Sends the outbox, to webhooks and destinations (brokers): each pass claims the deliveries that are due (in any process: a claim
 * holds a row from the others), posts them concurrently and records each outcome. A 2xx answer
 * delivers; anything else (another status, a timeout, a refused connection) is tried again later,
 * until `maxAttempts`. At least once: a receiver tells repeats apart by the event's `_id`.
 */
export class DeliveryService {
  readonly #passes = new Set<Promise<number>>();

  constructor(
    private readonly stores: { deliveries: DeliveryStore; projects: ProjectStore },
    private readonly send: SendDelivery,
    private readonly clock: Clock,
    private readonly policy: DeliveryPolicy = DEFAULT_DELIVERY_POLICY,
    private readonly publish: PublishDelivery = noBrokers,
  ) {}

  /**
   * For the periodic loop: starts a pass unless `policy.passes` are under way (then null); resolves
   * with how many deliveries it attempted.
   */
  start(): Promise<number> | null {
    if (this.#passes.size >= this.policy.passes) return null;
    return this.#track(this.#pass());
  }

  /**
   * One pass, started once every pass under way has ended (so it sees every delivery committed before
   * the call, none of them held by another pass); returns how many deliveries it attempted.
   */
  runOnce(): Promise<number> {
    const before = Promise.allSettled([...this.#passes]);
    return this.#track(before.then(() => this.#pass()));
  }

  /** Resolves once no pass is under way (a closing server waits for it before closing the store). */
  async idle(): Promise<void> {
    while (this.#passes.size > 0) await Promise.allSettled([...this.#passes]);
  }

  #track(pass: Promise<number>): Promise<number> {
    this.#passes.add(pass);
    const done = () => this.#passes.delete(pass);
    pass.then(done, done);
    return pass;
  }

  async #pass(): Promise<number> {
    const due = await this.stores.deliveries.claimDue(this.clock.now(), this.policy.batch, this.policy.leaseMs);
    if (due.length === 0) return 0;
    // Read per pass, not kept: `projects webhooks` and `projects destinations` may have changed them in
    // another process.
    const webhooks = new Map<string, Webhook>();
    const destinations = new Map<string, Destination>();
    for (const p of await this.stores.projects.list()) {
      for (const w of p.webhooks ?? []) webhooks.set(w.id, w);
      for (const d of p.destinations ?? []) destinations.set(d.id, d);
    }
    const outcomes: DeliveryOutcome[] = [];
    const ready: Ready[] = [];
    const messages: Array<{ delivery: DueDelivery; message: DestinationMessage }> = [];
    for (const d of due) {
      const webhook = webhooks.get(d.webhookId);
      const destination = destinations.get(d.webhookId);
      const why =
        !webhook && !destination
          ? 'the webhook or destination was removed'
          : !(webhook ?? destination)!.enabled
            ? `the ${webhook ? 'webhook' : 'destination'} is disabled`
            : !d.event
              ? 'the event is no longer stored'
              : null;
      if (why !== null) outcomes.push(this.#outcome(d, 'failed', null, why));
      else if (webhook) ready.push({ delivery: d, webhook, event: d.event! });
      else messages.push({ delivery: d, message: { destination: destination!, deliveryId: d.id, event: d.event! } });
    }
    const sent = await Promise.all([
      ...postsOf(ready).map((post) => this.#post(post)),
      ...messages.map(({ delivery, message }) => this.#publish(delivery, message)),
    ]);
    // One write for the whole pass: a sender that dies before it sends the pass again when the claims end.
    await this.stores.deliveries.settle([...outcomes, ...sent.flat()]);
    return due.length;
  }

  /** One message to its broker: delivered once acknowledged, else pending again (no attempt limit). */
  async #publish(d: DueDelivery, message: DestinationMessage): Promise<DeliveryOutcome> {
    try {
      await this.publish(message);
      return this.#outcome(d, 'delivered', null, null);
    } catch (err) {
      return this.#outcome(d, 'pending', null, (err as Error).message || String(err), true);
    }
  }

  async #post(post: Ready[]): Promise<DeliveryOutcome[]> {
    let result: SendResult;
    try {
      result = await this.send({
        webhook: post[0]!.webhook,
        items: post.map((r) => ({ deliveryId: r.delivery.id, event: r.event })),
      });
    } catch (err) {
      result = { status: null, error: (err as Error).message };
    }
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const error = ok ? null : (result.error ?? `HTTP ${result.status}`);
    return post.map(({ delivery: d }) => {
      const status = ok ? 'delivered' : d.attempts + 1 >= this.policy.maxAttempts ? 'failed' : 'pending';
      return this.#outcome(d, status, result.status, error);
    });
  }

  #outcome(
    d: DueDelivery,
    status: 'pending' | 'delivered' | 'failed',
    lastStatus: number | null,
    lastError: string | null,
    broker = false,
  ): DeliveryOutcome {
    const attempts = d.attempts + 1;
    const at = this.clock.now();
    const nextAttemptAt = status === 'pending' ? at + this.retryDelay(attempts, broker) : null;
    return { id: d.id, status, attempts, nextAttemptAt, lastStatus, lastError, at };
  }

  /** The wait after `attempts` failed attempts (to a webhook, or a broker), with its ±20% jitter. */
  retryDelay(attempts: number, broker = false): number {
    const [first, max] = broker
      ? [this.policy.brokerFirstDelayMs, this.policy.brokerMaxDelayMs]
      : [this.policy.firstDelayMs, this.policy.maxDelayMs];
    const base = Math.min(first * 2 ** Math.min(attempts - 1, 40), max);
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }
}

interface Ready {
  delivery: DueDelivery;
  webhook: Webhook;
  event: LocationEvent;
}

/**
 * The posts a pass makes: each delivery alone, except for `multiple` webhooks, whose deliveries are
 * grouped by user, oldest event first, `EVENTS_PER_POST` to a post.
 */
function postsOf(ready: readonly Ready[]): Ready[][] {
  const posts: Ready[][] = [];
  const byUser = new Map<string, Ready[]>();
  for (const r of ready) {
    if (r.webhook.mode !== 'multiple') posts.push([r]);
    else {
      const key = `${r.webhook.id} ${r.event.user.id}`;
      const list = byUser.get(key);
      if (list) list.push(r);
      else byUser.set(key, [r]);
    }
  }
  for (const list of byUser.values()) {
    list.sort((a, b) => a.event.createdAt - b.event.createdAt);
    for (let i = 0; i < list.length; i += EVENTS_PER_POST) posts.push(list.slice(i, i + EVENTS_PER_POST));
  }
  return posts;
}
