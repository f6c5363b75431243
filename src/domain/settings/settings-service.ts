import type { SettingsStore } from '../ports/settings-store.js';
import type { Tenant } from '../tenant.js';
import type { PlaceSettings } from './place-settings.js';

/** Place settings; a PATCH replaces each top-level field it names and keeps the others. */
export class SettingsService {
  constructor(private readonly settings: SettingsStore) {}

  get(tenant: Tenant): Promise<PlaceSettings> {
    return this.settings.get(tenant);
  }

  async patch(tenant: Tenant, patch: Partial<PlaceSettings>): Promise<PlaceSettings> {
    const current = await this.settings.get(tenant);
    const next: PlaceSettings = {
      chainMetadata: patch.chainMetadata ?? current.chainMetadata,
      chainMappings: patch.chainMappings ?? current.chainMappings,
      placeFilters: patch.placeFilters ?? current.placeFilters,
    };
    await this.settings.put(tenant, next);
    return next;
  }
}
