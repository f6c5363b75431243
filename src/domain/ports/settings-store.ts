import type { PlaceSettings } from '../settings/place-settings.js';
import type { Tenant } from '../tenant.js';

export interface SettingsStore {
  get(tenant: Tenant): Promise<PlaceSettings>;
  put(tenant: Tenant, settings: PlaceSettings): Promise<void>;
}
