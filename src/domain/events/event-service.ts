import type { Clock } from '../clock.js';
import { invalid, notFound } from '../errors.js';
import type { Page } from '../pagination.js';
import type { EventListQuery, EventStore } from '../ports/event-store.js';
import type { UserStore } from '../ports/user-store.js';
import type { Tenant } from '../tenant.js';
import type { User } from '../users/user.js';
import { deliveriesFor, type OutboxTargets } from '../webhooks/webhook.js';
import {
  type ConversionCount,
  type ConversionInput,
  conversionEvent,
  conversionRevenue,
  utcDay,
} from './conversion.js';
import type { EventVerification, LocationEvent } from './event.js';

/** The identifiers a conversion names its user by, as the SDKs send them. */
export interface ConversionUser {
  /** The Radar `_id` the mobile SDKs keep from the last track. */
  id?: string | undefined;
  userId?: string | undefined;
  deviceId?: string | undefined;
  /** The SDKs' id of the app's install; tried last, on its own index. */
  installId?: string | undefined;
}

/** A conversion summary covers at most this many days. */
export const MAX_SUMMARY_DAYS = 366;
const DAY_MS = 86_400_000;

/**
 * Stored events: read them, log the app's own (conversions), and take the app's verdict on one.
 * Track events are written only by track, with their user, in one transaction.
 */
export class EventService {
  constructor(
    private readonly events: EventStore,
    private readonly users: UserStore,
    private readonly clock: Clock,
  ) {}

  /** Newest `createdAt` first; `userId` matches the user's `_id` or app `userId`. */
  list(tenant: Tenant, query: EventListQuery): Promise<Page<LocationEvent>> {
    return this.events.list(tenant, query);
  }

  async get(tenant: Tenant, id: string): Promise<LocationEvent> {
    const event = await this.events.get(tenant, id);
    if (!event) throw notFound('event', 'id');
    return event;
  }

  /**
   * Stores a conversion as a custom event of the user, with the deliveries it owes the project's
   * webhooks and destinations and its day's count, in one transaction. The user must have been tracked: a conversion
   * is about someone the project knows (404 naming the identifier otherwise).
   */
  async logConversion(
    tenant: Tenant,
    targets: OutboxTargets | undefined,
    who: ConversionUser,
    input: ConversionInput,
  ): Promise<{ event: LocationEvent; user: User }> {
    const user = await this.findUser(tenant, who);
    const now = this.clock.now();
    const event = conversionEvent(user, input, now);
    const revenue = conversionRevenue(event.extra?.metadata as ConversionInput['metadata']);
    await this.events.logConversion({
      event,
      deliveries: deliveriesFor(targets, [event], now),
      day: utcDay(event.createdAt),
      revenue,
    });
    return { event, user };
  }

  /** Records the app's verdict on an event: accepted 1, rejected -1, unverified 0. */
  async verify(
    tenant: Tenant,
    id: string,
    verification: EventVerification,
    verifiedPlaceId: string | null,
  ): Promise<LocationEvent> {
    const event = await this.events.setVerification(tenant, id, verification, verifiedPlaceId);
    if (!event) throw notFound('event', 'id');
    return event;
  }

  /**
   * Per name and UTC day, from `from` to `to` (epoch ms, their days included; at most
   * `MAX_SUMMARY_DAYS`). `to` defaults to now, `from` to 29 days before `to`: the last 30 days.
   */
  async conversionSummary(
    tenant: Tenant,
    fromAt?: number,
    toAt?: number,
  ): Promise<{ from: string; to: string; conversions: ConversionCount[] }> {
    const to = toAt ?? Math.max(this.clock.now(), fromAt ?? 0);
    const from = fromAt ?? to - 29 * DAY_MS;
    if (to < from) throw invalid('to', 'to must not be before from.');
    const days = Math.round((Date.parse(utcDay(to)) - Date.parse(utcDay(from))) / DAY_MS) + 1;
    if (days > MAX_SUMMARY_DAYS) throw invalid('from', `from must be at most ${MAX_SUMMARY_DAYS - 1} days before to.`);
    const range = { from: utcDay(from), to: utcDay(to) };
    return { ...range, conversions: await this.events.conversionCounts(tenant, range.from, range.to) };
  }

  /**
   * The user a conversion names: by `_id`, else `userId`, else `deviceId`; by `installId` only when it
   * names none of those (an install's user is not taken for a userId the app set and never tracked).
   */
  private async findUser(tenant: Tenant, who: ConversionUser): Promise<User> {
    const tries: Array<[string, string | undefined]> = [
      ['id', who.id],
      ['userId', who.userId],
      ['deviceId', who.deviceId],
    ];
    const named = tries.filter((t): t is [string, string] => t[1] !== undefined);
    if (named.length === 0) {
      if (who.installId === undefined)
        throw invalid('userId', 'userId, deviceId, installId or id is required: the user who converted.');
      const user = await this.users.getByInstallId(tenant, who.installId);
      if (user) return user;
      throw notFound('user', 'installId');
    }
    for (const [, value] of named) {
      const user = await this.users.get(tenant, value);
      if (user) return user;
    }
    throw notFound('user', named[0]![0]);
  }
}
