import type { DeviceLogLine } from '../device-logs/device-log.js';
import type { Tenant } from '../tenant.js';

/** The SDKs' debug logs (`POST /v1/logs`), kept per device, newest `keep` lines only. */
export interface DeviceLogStore {
  /** Appends the lines in order, then drops the device's lines beyond the newest `keep`, in one transaction. */
  append(tenant: Tenant, deviceId: string, lines: readonly DeviceLogLine[], keep: number): Promise<void>;
  /** The device's newest `limit` lines, oldest first. */
  list(tenant: Tenant, deviceId: string, limit: number): Promise<DeviceLogLine[]>;
}
