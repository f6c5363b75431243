import type { LocationEvent } from '../events/event.js';
import { newId } from '../ids.js';

/** The message systems a destination can name, by its URL's scheme. */
export type DestinationKind = 'redis' | 'nats' | 'mqtt' | 'amqp';

/**
 * A message broker that receives a project's events beside (or instead of) webhooks: a Redis stream,
 * a NATS JetStream subject, an MQTT topic or an AMQP exchange, named by one URL. Its deliveries share
 * the webhook outbox (one row per event and destination, written in the event's transaction).
 */
export interface Destination {
  id: string;
  live: boolean;
  /** `redis://host:port/?stream=…`, `nats://host:port/?subject=…`, `mqtt://host:port/?topic=…`, `amqp://host:port/?exchange=…&routingKey=…`. */
  url: string;
  /** Event types it receives; null: every type. */
  types: string[] | null;
  /** Events whose geofence carries one of these tags are not sent. */
  blockedTags: string[];
  /** Events whose user's metadata has one of these keys are not sent. */
  blockedMetadataKeys: string[];
  enabled: boolean;
  createdAt: number;
}

/** What a destination URL says, checked: where to connect and what to publish to. */
export interface DestinationTarget {
  kind: DestinationKind;
  /** The broker's address without the query (credentials kept): what a pooled connection is opened to. */
  broker: string;
  /** Stream (redis), subject (nats), topic template (mqtt) or exchange (amqp). */
  name: string;
  /** AMQP only: the routing key template. */
  routingKey: string;
  /** Redis only: the approximate length the stream is trimmed to (`MAXLEN ~`). */
  maxLen: number;
}

const PARAM: Record<DestinationKind, string> = { redis: 'stream', nats: 'subject', mqtt: 'topic', amqp: 'exchange' };
const DEFAULT_MAXLEN = 1_000_000;

/** Reads a destination URL; throws with a message naming `flag` when it is not one. */
export function destinationTarget(url: string, flag = '--add'): DestinationTarget {
  const u = URL.canParse(url) ? new URL(url) : null;
  const kind = u?.protocol.slice(0, -1) as DestinationKind | undefined;
  if (!u || !kind || !(kind in PARAM)) {
    throw new Error(`${flag} must be a redis://, nats://, mqtt:// or amqp:// URL, not "${url}".`);
  }
  const param = PARAM[kind];
  const name = u.searchParams.get(param);
  if (!name)
    throw new Error(`${flag}: a ${kind}:// destination names its ${param}: ${kind}://host:port/?${param}=<name>.`);
  const maxLen = Number(u.searchParams.get('maxlen') ?? DEFAULT_MAXLEN);
  if (!Number.isInteger(maxLen) || maxLen < 1) throw new Error(`${flag}: maxlen must be a whole number above 0.`);
  const auth = u.username || u.password ? `${u.username}${u.password ? `:${u.password}` : ''}@` : '';
  return {
    kind,
    broker: `${u.protocol}//${auth}${u.host}${kind === 'amqp' && u.pathname.length > 1 ? u.pathname : ''}`,
    name,
    routingKey: u.searchParams.get('routingKey') ?? '{type}',
    maxLen,
  };
}

/**
 * Fills a topic or routing key template: `{type}` is the event type, `{userId}` the app's userId (the
 * user's `_id` when it has none). Characters that are wildcards or separators in the topic's syntax
 * (`unsafe`) are replaced by `_` in the values, so that a userId cannot reach another topic.
 */
export function fillTemplate(template: string, event: LocationEvent, unsafe: RegExp): string {
  const safe = (v: string) => v.replace(unsafe, '_');
  return template
    .replaceAll('{type}', safe(event.type))
    .replaceAll('{userId}', safe(event.user.userId ?? event.user.id));
}

/** MQTT topic levels are split by `/`, and `+` and `#` are wildcards. */
export const MQTT_UNSAFE = /[/+#\s]/g;
/** AMQP topic routing keys are split by `.`, and `*` and `#` are wildcards. */
export const AMQP_UNSAFE = /[.*#\s]/g;

/** Whether the destination takes this event: its environment, types, and neither a blocked tag nor metadata key. */
export function destinationWants(d: Destination, e: LocationEvent): boolean {
  if (!d.enabled || e.live !== d.live) return false;
  if (d.types !== null && !d.types.includes(e.type)) return false;
  if (d.blockedTags.length > 0) {
    const tag = e.geofence?.tag;
    if (typeof tag === 'string' && d.blockedTags.includes(tag)) return false;
  }
  if (d.blockedMetadataKeys.length > 0 && e.user.metadata) {
    const metadata = e.user.metadata;
    if (d.blockedMetadataKeys.some((k) => Object.hasOwn(metadata, k))) return false;
  }
  return true;
}

const EVENT_TYPE = /^[a-z]+\.[a-z_]+$/;

/** A new destination from the operator's input; throws with a message naming the flag on a bad value. */
export function newDestination(
  input: {
    url: string;
    live: boolean;
    types: string[] | null;
    blockedTags?: string[];
    blockedMetadataKeys?: string[];
  },
  now: number,
): Destination {
  destinationTarget(input.url);
  if (input.types !== null) {
    if (input.types.length === 0) throw new Error('--types must name at least one event type.');
    const bad = input.types.find((t) => !EVENT_TYPE.test(t));
    if (bad !== undefined) throw new Error(`--types: "${bad}" is not an event type (such as user.entered_geofence).`);
  }
  for (const [flag, list] of [
    ['--block-tags', input.blockedTags],
    ['--block-metadata', input.blockedMetadataKeys],
  ] as const) {
    if (list?.some((v) => v.trim() === ''))
      throw new Error(`${flag} must be a comma-separated list without empty names.`);
  }
  return {
    id: newId(),
    live: input.live,
    url: input.url,
    types: input.types,
    blockedTags: input.blockedTags ?? [],
    blockedMetadataKeys: input.blockedMetadataKeys ?? [],
    enabled: true,
    createdAt: now,
  };
}
