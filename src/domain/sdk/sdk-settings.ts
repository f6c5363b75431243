import { invalid, invalidParam } from '../errors.js';
import type { JurisdictionSettings } from '../jurisdiction/jurisdiction-settings.js';
import type { KeyRestrictions } from '../projects/key-restrictions.js';
import {
  expandTrackingOptions,
  parseTrackingOptions,
  type TrackingOptions,
  type TrackingOptionsSetting,
} from './tracking-options.js';

type Scalar = boolean | number | string;

/** One entry of `sdkConfiguration.remoteTrackingOptions` (iOS RadarRemoteTrackingOptions). */
export interface RemoteTrackingOptions {
  type: (typeof REMOTE_TYPES)[number];
  trackingOptions: TrackingOptionsSetting;
  geofenceTags?: string[];
}

export interface SdkConfiguration {
  fields: Record<string, Scalar>;
  remoteTrackingOptions?: RemoteTrackingOptions[];
}

/**
 * What the mobile SDKs take from the server, per project and environment: remote tracking options,
 * the SDK configuration and feature settings. Each is absent until set, and then answered in
 * `meta` of `/v1/config` and of every track.
 */
export interface SdkSettings {
  trackingOptions?: TrackingOptionsSetting;
  sdkConfiguration?: SdkConfiguration;
  featureSettings?: Record<string, Scalar>;
  /** Where the app may serve users (docs/jurisdiction.md); kept here so every track reads it from memory. */
  jurisdiction?: JurisdictionSettings;
  /** The web origins and app ids a publishable key may be used from. */
  keyRestrictions?: KeyRestrictions;
}

/** The `meta` fields the SDKs parse, for one platform. */
export interface SdkMeta {
  trackingOptions?: TrackingOptions;
  sdkConfiguration?: Record<string, unknown>;
  featureSettings?: Record<string, Scalar>;
}

const REMOTE_TYPES = ['default', 'onTrip', 'inGeofence'] as const;
const LOG_LEVELS = ['none', 'error', 'warning', 'info', 'debug'];

// The SDK configuration's flags as radar-sdk-ios (RadarSdkConfiguration.m) and radar-sdk-android parse
// them: all booleans but the log level. A newer SDK's flag the server does not know yet is kept if it
// is a plain value, so an operator can switch it on without waiting for a server release.
const SDK_CONFIGURATION_BOOLEANS = new Set([
  'startTrackingOnInitialize',
  'trackOnceOnAppOpen',
  'usePersistence',
  'extendFlushReplays',
  'useLogPersistence',
  'useRadarModifiedBeacon',
  'useLocationMetadata',
  'useOpenedAppConversion',
  'foregroundLocationUseUpdatedAtMsDiff',
  'useNotificationDiff',
  'syncAfterSetUser',
  'useOfflineRTOUpdates',
]);

// Feature settings as the SDKs' fixtures and RadarFeatureSettings parse them.
const FEATURE_BOOLEANS = new Set([
  'usePersistence',
  'extendFlushReplays',
  'useLocationMetadata',
  'useLogPersistence',
  'useRadarKVStore',
  'useRadarModifiedBeacon',
]);
const FEATURE_NUMBERS = new Set(['radarLowPowerManagerDesiredAccuracy', 'radarLowPowerManagerDistanceFilter']);

const MAX_KEYS = 100;
const MAX_TEXT = 256;

export function parseSdkConfiguration(raw: unknown, name: string): SdkConfiguration {
  const dict = asDict(raw, name);
  const fields: Record<string, Scalar> = {};
  let remote: RemoteTrackingOptions[] | undefined;
  for (const [key, value] of Object.entries(dict)) {
    const path = `${name}.${key}`;
    if (key === 'remoteTrackingOptions') remote = parseRemote(value, path, name);
    else if (key === 'logLevel') {
      if (typeof value !== 'string' || !LOG_LEVELS.includes(value))
        throw invalid(name, `${path} must be one of ${LOG_LEVELS.join(', ')}.`);
      fields[key] = value;
    } else if (SDK_CONFIGURATION_BOOLEANS.has(key)) fields[key] = bool(value, path, name);
    else fields[key] = scalar(value, path, name);
  }
  return remote ? { fields, remoteTrackingOptions: remote } : { fields };
}

export function parseFeatureSettings(raw: unknown, name: string): Record<string, Scalar> {
  const dict = asDict(raw, name);
  const out: Record<string, Scalar> = {};
  for (const [key, value] of Object.entries(dict)) {
    const path = `${name}.${key}`;
    if (FEATURE_BOOLEANS.has(key)) out[key] = bool(value, path, name);
    else if (FEATURE_NUMBERS.has(key)) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
        throw invalid(name, `${path} must be a number of 0 or more.`);
      out[key] = value;
    } else out[key] = scalar(value, path, name);
  }
  return out;
}

function parseRemote(raw: unknown, path: string, name: string): RemoteTrackingOptions[] {
  if (!Array.isArray(raw) || raw.length > REMOTE_TYPES.length)
    throw invalid(name, `${path} must be an array of at most ${REMOTE_TYPES.length} entries.`);
  const seen = new Set<string>();
  return raw.map((entry, i) => {
    const at = `${path}[${i}]`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry))
      throw invalid(name, `${at} must be an object with type and trackingOptions.`);
    const { type, trackingOptions, geofenceTags, ...rest } = entry as Record<string, unknown>;
    const extra = Object.keys(rest)[0];
    if (extra !== undefined) throw invalid(name, `${at}.${extra} is not a field of remote tracking options.`);
    if (typeof type !== 'string' || !(REMOTE_TYPES as readonly string[]).includes(type))
      throw invalid(name, `${at}.type must be one of ${REMOTE_TYPES.join(', ')}.`);
    if (seen.has(type)) throw invalid(name, `${at}.type ${type} is listed twice.`);
    seen.add(type);
    const out: RemoteTrackingOptions = {
      type: type as RemoteTrackingOptions['type'],
      trackingOptions: nested(() => parseTrackingOptions(trackingOptions, `${at}.trackingOptions`), name),
    };
    if (geofenceTags !== undefined && geofenceTags !== null) {
      if (
        !Array.isArray(geofenceTags) ||
        geofenceTags.length > MAX_KEYS ||
        geofenceTags.some((t) => typeof t !== 'string' || t.length === 0 || t.length > MAX_TEXT)
      )
        throw invalid(name, `${at}.geofenceTags must be an array of tags (strings).`);
      out.geofenceTags = geofenceTags as string[];
    }
    return out;
  });
}

/** The SDK-facing meta fields of `s` for one platform (presets expanded as that SDK defines them). */
export function sdkMeta(s: SdkSettings | null, platform: 'iOS' | 'Android' | 'Web' | undefined): SdkMeta {
  const meta: SdkMeta = {};
  if (!s) return meta;
  if (s.trackingOptions) meta.trackingOptions = expandTrackingOptions(s.trackingOptions, platform);
  if (s.sdkConfiguration) {
    const c: Record<string, unknown> = { ...s.sdkConfiguration.fields };
    if (s.sdkConfiguration.remoteTrackingOptions) {
      c.remoteTrackingOptions = s.sdkConfiguration.remoteTrackingOptions.map((r) => ({
        type: r.type,
        trackingOptions: expandTrackingOptions(r.trackingOptions, platform),
        ...(r.geofenceTags ? { geofenceTags: r.geofenceTags } : {}),
      }));
    }
    meta.sdkConfiguration = c;
  }
  if (s.featureSettings) meta.featureSettings = s.featureSettings;
  return meta;
}

/** The settings as `GET /v1/settings` shows them (a preset by its name); unset ones are absent. */
export function sdkSettingsJson(s: SdkSettings | null): Record<string, unknown> {
  const setting = (t: TrackingOptionsSetting) => ('preset' in t ? t.preset : t.options);
  const out: Record<string, unknown> = {};
  if (s?.trackingOptions) out.trackingOptions = setting(s.trackingOptions);
  if (s?.sdkConfiguration) {
    const { fields, remoteTrackingOptions } = s.sdkConfiguration;
    out.sdkConfiguration = remoteTrackingOptions
      ? {
          ...fields,
          remoteTrackingOptions: remoteTrackingOptions.map((r) => ({
            ...r,
            trackingOptions: setting(r.trackingOptions),
          })),
        }
      : { ...fields };
  }
  if (s?.featureSettings) out.featureSettings = s.featureSettings;
  if (s?.jurisdiction) out.jurisdiction = s.jurisdiction;
  if (s?.keyRestrictions) out.keyRestrictions = s.keyRestrictions;
  return out;
}

function asDict(raw: unknown, name: string): Record<string, unknown> {
  const v = typeof raw === 'string' ? tryJson(raw) : raw;
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw invalidParam(name, 'must be an object.');
  if (Object.keys(v).length > MAX_KEYS) throw invalidParam(name, `must have at most ${MAX_KEYS} keys.`);
  return v as Record<string, unknown>;
}

function tryJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

function bool(value: unknown, path: string, name: string): boolean {
  if (typeof value !== 'boolean') throw invalid(name, `${path} must be true or false.`);
  return value;
}

function scalar(value: unknown, path: string, name: string): Scalar {
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return value;
  if (typeof value === 'string' && value.length <= MAX_TEXT) return value;
  throw invalid(name, `${path} must be true, false, a number or a short string.`);
}

/** Errors of a nested field name the top-level parameter, the message the field's path. */
function nested<T>(f: () => T, name: string): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof Error && 'param' in err && 'kind' in err) throw invalid(name, err.message);
    throw err;
  }
}
