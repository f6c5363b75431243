import { LRUCache } from 'lru-cache';
import type { SettingsStore } from '../ports/settings-store.js';
import type { StoreChange } from '../ports/store.js';
import type { Tenant } from '../tenant.js';
import type { SdkSettings } from './sdk-settings.js';

/** A change: a field given replaces what is stored, null removes it, absent keeps it. */
export type SdkSettingsPatch = { [K in keyof SdkSettings]?: SdkSettings[K] | null };

const NONE = Symbol('none');

/** Every setting of the document, each replaced or removed on its own by a patch. */
export const SDK_SETTING_FIELDS = [
  'trackingOptions',
  'sdkConfiguration',
  'featureSettings',
  'jurisdiction',
  'keyRestrictions',
] as const;

/**
 * The SDK settings of each tenant, read by every track and every `/v1/config`: kept in memory so a
 * track costs no extra query. This process's writes update the copy; other processes' (the CLI, other
 * API processes) reach it through the store's change reports (`storeChanged`).
 */
export class SdkSettingsService {
  readonly #cache = new LRUCache<string, SdkSettings | typeof NONE>({ max: 10_000 });
  // Bumped on every change report, so that a read that started before one does not keep stale data.
  #generation = 0;

  /** Bumped on every write seen (this process's or reported): readers of all tenants' settings re-read. */
  get generation(): number {
    return this.#generation;
  }

  constructor(
    private readonly store: SettingsStore,
    /** Delivers other connections' commits now (SQLite), so a read right after a CLI write sees it. */
    private readonly syncExternal: () => void = () => {},
  ) {}

  /** What is in memory for the tenant: undefined when it must be read (`get`), so a caller can stay synchronous. */
  peek(tenant: Tenant): SdkSettings | null | undefined {
    const kept = this.#cache.get(keyOf(tenant));
    return kept === NONE ? null : kept;
  }

  async get(tenant: Tenant): Promise<SdkSettings | null> {
    this.syncExternal();
    const key = keyOf(tenant);
    const kept = this.#cache.get(key);
    if (kept !== undefined) return kept === NONE ? null : kept;
    const generation = this.#generation;
    const read = await this.store.getSdk(tenant);
    if (generation === this.#generation) this.#cache.set(key, read ?? NONE);
    return read;
  }

  async patch(tenant: Tenant, patch: SdkSettingsPatch): Promise<SdkSettings> {
    const current = (await this.store.getSdk(tenant)) ?? {};
    const next: SdkSettings = { ...current };
    for (const field of SDK_SETTING_FIELDS) {
      const value = patch[field];
      if (value === null) delete next[field];
      else if (value !== undefined) (next as Record<string, unknown>)[field] = value;
    }
    await this.store.putSdk(tenant, next);
    this.#generation++;
    this.#cache.set(keyOf(tenant), next);
    return next;
  }

  /** Another process wrote: drop what it may have changed. */
  storeChanged(change: StoreChange): void {
    if (change.kind !== 'settings' && change.kind !== 'unknown') return;
    this.#generation++;
    if (change.tenant) this.#cache.delete(keyOf(change.tenant));
    else this.#cache.clear();
  }
}

function keyOf(t: Tenant): string {
  return `${t.projectId}:${t.live ? 1 : 0}`;
}
