import type { Destination } from '../destinations/destination.js';
import type { RetentionPolicy } from '../retention/retention.js';
import type { Segment } from '../segments/segment.js';
import type { Webhook } from '../webhooks/webhook.js';

/** Optional features that add fields and events to results (spec: Places, Regions, Insights). */
export interface ProjectFeatures {
  places: boolean;
  regions: boolean;
  insights: boolean;
}

export interface ProjectLimits {
  /** Requests per second per key for endpoints other than track. */
  requestsPerSecond: number;
  /** Requests per calendar month (UTC) across the project; null = unlimited. */
  monthlyQuota: number | null;
}

export interface Project {
  id: string;
  name: string;
  disabled: boolean;
  features: ProjectFeatures;
  limits: ProjectLimits;
  /** Trips without an update for this long expire. */
  tripExpiryMinutes: number;
  /** User segments the operator defined (`user.segments`); absent on projects that never set any. */
  segments?: Segment[];
  /** Endpoints that receive the project's events (`projects webhooks`); absent: none. */
  webhooks?: Webhook[];
  /** Message brokers that receive the project's events (`projects destinations`); absent: none. */
  destinations?: Destination[];
  /** What the retention sweep removes, and when; absent: `DEFAULT_RETENTION`. */
  retention?: RetentionPolicy;
  createdAt: number;
}

export type KeyLevel = 'publishable' | 'secret';

/** What a key resolves to. The raw key is never stored, only its hash. */
export interface ResolvedKey {
  keyHash: string;
  level: KeyLevel;
  live: boolean;
  project: Project;
}

export const DEFAULT_FEATURES: ProjectFeatures = { places: false, regions: false, insights: false };
export const DEFAULT_LIMITS: ProjectLimits = { requestsPerSecond: 10, monthlyQuota: null };
