import type { SdkSettings } from '../sdk/sdk-settings.js';
import type { PlaceSettings } from '../settings/place-settings.js';
import type { Tenant } from '../tenant.js';
import type { SigningKey } from '../verified/signing-key.js';

export interface SettingsStore {
  get(tenant: Tenant): Promise<PlaceSettings>;
  put(tenant: Tenant, settings: PlaceSettings): Promise<void>;
  /** Remote tracking options, SDK configuration and feature settings; null when never set. */
  getSdk(tenant: Tenant): Promise<SdkSettings | null>;
  putSdk(tenant: Tenant, settings: SdkSettings): Promise<void>;
  /** The tenant's key for verified location tokens, null before the first one is made. */
  signingKey(tenant: Tenant): Promise<SigningKey | null>;
  /**
   * Keeps `key` as the tenant's key unless it already has one (another process made it first), and
   * returns the tenant's key either way, so every process signs with the same one.
   */
  addSigningKey(tenant: Tenant, key: SigningKey): Promise<SigningKey>;
}
