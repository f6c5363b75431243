import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SettingsStore } from '../ports/settings-store.js';
import type { Tenant } from '../tenant.js';
import type { PlaceSettings } from './place-settings.js';

/** Place settings; a PATCH replaces each top-level field it names and keeps the others. */
export class SettingsService {
  constructor(private readonly settings: SettingsStore) {}

  get(tenant: Tenant): Promise<PlaceSettings> {
    return this.settings.get(tenant);
  }

  /** The PATCH before, per tenant: each reads what the one before wrote (see `patch`). */
  readonly #last = new Map<string, Promise<unknown>>();

  /**
   * One PATCH at a time per tenant in this process: a PATCH waits turns of the event loop between
   * reading and writing (below), and two interleaved would each write back the field the other changed.
   */
  patch(tenant: Tenant, patch: Partial<PlaceSettings>): Promise<PlaceSettings> {
    const key = `${tenant.projectId}:${tenant.live ? 1 : 0}`;
    const run = (this.#last.get(key) ?? Promise.resolve()).then(() => this.#patch(tenant, patch));
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.#last.set(key, settled);
    void settled.then(() => {
      if (this.#last.get(key) === settled) this.#last.delete(key);
    });
    return run;
  }

  async #patch(tenant: Tenant, patch: Partial<PlaceSettings>): Promise<PlaceSettings> {
    // Settings at their limits are 4 MB of JSON (1,000 chains of metadata): reading them, writing them
    // and printing the answer each hold the event loop for tens of milliseconds. A turn between each
    // lets other requests through (the rule: no request holds the loop over 50 ms).
    await nextTurn();
    const current = await this.settings.get(tenant);
    await nextTurn();
    const next: PlaceSettings = {
      chainMetadata: patch.chainMetadata ?? current.chainMetadata,
      chainMappings: patch.chainMappings ?? current.chainMappings,
      placeFilters: patch.placeFilters ?? current.placeFilters,
    };
    await this.settings.put(tenant, next);
    await nextTurn();
    return next;
  }
}
