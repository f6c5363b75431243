import type { Position } from '../../geo/types.js';
import { invalid, invalidParam, missingParam } from '../errors.js';
import { newId } from '../ids.js';
import type { Metadata } from '../metadata.js';
import type { User } from '../users/user.js';
import type { LocationEvent } from './event.js';
import { eventUser } from './geofence-events.js';

/**
 * A conversion name: the custom event's `type`. Letters, digits, spaces and `_ - . :`, starting with
 * a letter or digit: no commas, so `GET /v1/events?type=a,b` can name it, and never `user.…`, the
 * server's own types, so an app cannot forge a geofence entry.
 */
export const CONVERSION_NAME = /^[A-Za-z0-9][A-Za-z0-9 _.:-]{0,99}$/;
export const CONVERSION_NAME_RULE =
  'must be 1 to 100 letters, digits, spaces or _ - . : (starting with a letter or digit), and not start with "user.".';

/** `POST /v1/events` as the SDKs send it (radar-sdk-js `logConversion`, the mobile SDKs' `logConversion`). */
export interface ConversionInput {
  /** The conversion's name; `nameParam` is the field it came in (`name` from the web, `type` from mobile). */
  name: string;
  nameParam: 'name' | 'type';
  /** Merged into metadata as `revenue`, where the SDKs put it themselves. */
  revenue?: number;
  metadata?: Metadata;
  /** When it happened on the device (epoch ms); later than the server's time reads as now. */
  createdAt?: number;
  /** Where, when the app says; else where the user was last tracked. */
  location?: Position;
  accuracy?: number;
}

/** One name's conversions on one UTC day: how many and their revenue summed. */
export interface ConversionCount {
  name: string;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  count: number;
  revenue: number;
}

/** Checks the name; throws an invalid parameter naming the field it came in. */
export function checkConversionName(name: string, param: string): void {
  if (!CONVERSION_NAME.test(name) || name.toLowerCase().startsWith('user.'))
    throw invalidParam(param, CONVERSION_NAME_RULE);
}

/**
 * The custom event a conversion stores: typed by its name, `custom: true` and the metadata (revenue
 * included) beside the usual event fields, confidence high (the app says it happened).
 */
export function conversionEvent(user: User, input: ConversionInput, now: number): LocationEvent {
  checkConversionName(input.name, input.nameParam);
  const location = input.location ?? user.location;
  if (!location) throw missingParam('latitude');
  const metadata: Metadata = { ...input.metadata };
  if (input.revenue !== undefined) metadata.revenue = input.revenue;
  conversionRevenue(metadata);
  const createdAt = Math.min(input.createdAt ?? now, now);
  return {
    id: newId(),
    projectId: user.projectId,
    live: user.live,
    type: input.name,
    createdAt,
    actualCreatedAt: now,
    user: eventUser(user),
    location,
    locationAccuracy: input.accuracy ?? user.locationAccuracy ?? 0,
    confidence: 3,
    extra: { custom: true, metadata },
  };
}

/**
 * The revenue a conversion counts in the summary: `metadata.revenue` when a number (or a numeric
 * string, as form bodies carry it), else 0; any other value is refused rather than counted as none.
 */
export function conversionRevenue(metadata: Metadata | undefined): number {
  const raw = metadata?.revenue;
  if (raw === undefined) return 0;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
  if (!Number.isFinite(n)) throw invalid('metadata', 'metadata.revenue must be a number.');
  return n;
}

/** The UTC day (`YYYY-MM-DD`) a time falls on. */
export function utcDay(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}
