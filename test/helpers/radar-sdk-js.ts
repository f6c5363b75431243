import type { LonLat } from './tracking.js';

/** An in-memory Web Storage, enough for radar-sdk-js's `radar-*` keys. */
class MemoryStorage {
  private readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  key(i: number): string | null {
    return [...this.items.keys()][i] ?? null;
  }
  getItem(k: string): string | null {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.items.set(k, String(v));
  }
  removeItem(k: string): void {
    this.items.delete(k);
  }
  clear(): void {
    this.items.clear();
  }
}

/** What these tests read of radar-sdk-js 5.x's trackOnce: `response` is the raw body (debug mode). */
export interface RadarJs {
  initialize(publishableKey: string, options: Record<string, unknown>): void;
  setUserId(userId?: string): void;
  trackOnce(params: Record<string, unknown>): Promise<{ user: { _id: string }; events: unknown[]; response?: any }>;
}

/**
 * Loads the published radar-sdk-js under Node with the browser globals it reads (`window.localStorage`,
 * `navigator.permissions` and `navigator.geolocation`, answering `position`), initialized against `host`
 * in debug mode, so each result carries the raw response the SDK parsed.
 */
export async function loadRadarJs(host: string, publishableKey: string, position: LonLat): Promise<RadarJs> {
  const g = globalThis as Record<string, unknown>;
  g.window = { localStorage: new MemoryStorage() };
  const navigatorShim = {
    onLine: true,
    permissions: { query: async () => ({ state: 'granted' }) },
    geolocation: {
      getCurrentPosition: (ok: (p: unknown) => void) =>
        ok({ coords: { latitude: position[1], longitude: position[0], accuracy: 12 }, timestamp: Date.now() }),
    },
  };
  Object.defineProperty(globalThis, 'navigator', { value: navigatorShim, configurable: true, writable: true });
  const Radar = (await import('radar-sdk-js')).default as RadarJs;
  Radar.initialize(publishableKey, { host, logLevel: 'none', debug: true });
  return Radar;
}
