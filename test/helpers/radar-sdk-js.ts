import { installBrowserShims } from './browser-shims.js';
import type { LonLat } from './tracking.js';

/** What these tests read of radar-sdk-js 5.x's trackOnce: `response` is the raw body (debug mode). */
export interface RadarJs {
  initialize(publishableKey: string, options: Record<string, unknown>): void;
  setUserId(userId?: string): void;
  trackOnce(params: Record<string, unknown>): Promise<{ user: { _id: string }; events: unknown[]; response?: any }>;
  autocomplete(params: Record<string, unknown>): Promise<{ addresses: unknown[]; requestId?: string }>;
}

/**
 * Loads the published radar-sdk-js under Node with the browser globals it reads (`window.localStorage`,
 * `navigator.permissions` and `navigator.geolocation`, answering `position`), initialized against `host`
 * in debug mode, so each result carries the raw response the SDK parsed.
 */
export async function loadRadarJs(host: string, publishableKey: string, position: LonLat): Promise<RadarJs> {
  installBrowserShims(() => position);
  const Radar = (await import('radar-sdk-js')).default as RadarJs;
  Radar.initialize(publishableKey, { host, logLevel: 'none', debug: true });
  return Radar;
}
