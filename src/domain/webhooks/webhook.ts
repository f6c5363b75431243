import { randomBytes } from 'node:crypto';
import { type Destination, destinationWants } from '../destinations/destination.js';
import type { LocationEvent } from '../events/event.js';
import { newId } from '../ids.js';

/**
 * An endpoint that receives a project's events as they are stored (ARCHITECTURE.md §4: the outbox
 * rows are written in the event's own transaction). One environment each, as in the hosted service.
 */
export interface Webhook {
  id: string;
  /** The environment whose events it receives (live or test keys' data). */
  live: boolean;
  url: string;
  /** Event types it receives; null: every type. */
  types: string[] | null;
  /**
   * `single` (absent: the default): a post per event, `{event, user}`; `multiple`: a user's events
   * together, up to five a post, `{events, user}` (the hosted service's two delivery modes).
   */
  mode?: 'single' | 'multiple';
  /** Signs each request (see src/webhooks/signature.ts); shown once, when the webhook is added. */
  secret: string;
  enabled: boolean;
  createdAt: number;
}

/** One event owed to one webhook or destination, as the outbox row is first written. */
export interface Delivery {
  id: string;
  projectId: string;
  live: boolean;
  /** The webhook's or the destination's id (one id space; the outbox holds both). */
  webhookId: string;
  eventId: string;
  createdAt: number;
}

/** Where a project's events go: its webhooks and its destinations (both absent on most projects). */
export interface OutboxTargets {
  webhooks?: readonly Webhook[] | undefined;
  destinations?: readonly Destination[] | undefined;
}

/** The deliveries that `events` owe the project's webhooks and destinations (none, and no work, for most projects). */
export function deliveriesFor(
  targets: OutboxTargets | undefined,
  events: readonly LocationEvent[],
  now: number,
): Delivery[] {
  const webhooks = targets?.webhooks ?? [];
  const destinations = targets?.destinations ?? [];
  if ((webhooks.length === 0 && destinations.length === 0) || events.length === 0) return [];
  const out: Delivery[] = [];
  const owe = (id: string, e: LocationEvent) =>
    out.push({ id: newId(), projectId: e.projectId, live: e.live, webhookId: id, eventId: e.id, createdAt: now });
  for (const w of webhooks) {
    if (!w.enabled) continue;
    for (const e of events) {
      if (e.live !== w.live || (w.types !== null && !w.types.includes(e.type))) continue;
      owe(w.id, e);
    }
  }
  for (const d of destinations) for (const e of events) if (destinationWants(d, e)) owe(d.id, e);
  return out;
}

const EVENT_TYPE = /^[a-z]+\.[a-z_]+$/;

/**
 * A new webhook from the operator's input; throws with a message naming the flag on a bad value.
 * Only http and https URLs: the server posts to them.
 */
export function newWebhook(
  input: { url: string; live: boolean; types: string[] | null; mode?: string },
  now: number,
): Webhook {
  const url = URL.canParse(input.url) ? new URL(input.url) : null;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new Error(`--add must be an http or https URL, not "${input.url}".`);
  }
  if (input.types !== null) {
    if (input.types.length === 0) throw new Error('--types must name at least one event type.');
    const bad = input.types.find((t) => !EVENT_TYPE.test(t));
    if (bad !== undefined) throw new Error(`--types: "${bad}" is not an event type (such as user.entered_geofence).`);
  }
  if (input.mode !== undefined && input.mode !== 'single' && input.mode !== 'multiple') {
    throw new Error(`--mode must be single or multiple, not "${input.mode}".`);
  }
  return {
    id: newId(),
    live: input.live,
    url: url.toString(),
    types: input.types,
    mode: input.mode === 'multiple' ? 'multiple' : 'single',
    secret: `whsec_${randomBytes(24).toString('hex')}`,
    enabled: true,
    createdAt: now,
  };
}
