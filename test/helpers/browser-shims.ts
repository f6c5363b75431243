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

/**
 * The browser globals radar-sdk-js 5.x reads under Node: `window.localStorage`, and `navigator` with
 * `permissions.query` and `geolocation.getCurrentPosition` (at `position()`, `[lon, lat]`).
 */
export function installBrowserShims(position: () => [number, number]): void {
  const g = globalThis as Record<string, unknown>;
  g.window = { localStorage: new MemoryStorage() };
  const navigatorShim = {
    onLine: true,
    permissions: { query: async () => ({ state: 'granted' }) },
    geolocation: {
      getCurrentPosition: (ok: (p: unknown) => void) => {
        const [lon, lat] = position();
        ok({ coords: { latitude: lat, longitude: lon, accuracy: 12 }, timestamp: Date.now() });
      },
    },
  };
  Object.defineProperty(globalThis, 'navigator', { value: navigatorShim, configurable: true, writable: true });
}
