import { invalid, invalidParam } from '../errors.js';

/**
 * Remote tracking options, as the mobile SDKs read them from `meta.trackingOptions` of `/v1/config`
 * and of every track (iOS `RadarTrackingOptions trackingOptionsFromDictionary:`, Android
 * `RadarTrackingOptions.fromJson`). Field names, enum strings and units (seconds, meters) are the
 * SDKs'; a field the SDK does not know is ignored by it, so one object serves both platforms.
 */
export type TrackingOptions = Record<string, number | string | boolean | null>;

/** A project stores either a preset's name (expanded per platform when answered) or a full object. */
export type TrackingOptionsSetting = { preset: TrackingPreset } | { options: TrackingOptions };

export const TRACKING_PRESETS = ['continuous', 'responsive', 'efficient'] as const;
export type TrackingPreset = (typeof TRACKING_PRESETS)[number];

type Platform = 'iOS' | 'Android' | 'Web' | undefined;

// The presets as radar-sdk-ios defines them (RadarTrackingOptions.m presetContinuous/Responsive/Efficient).
const IOS_PRESETS: Record<TrackingPreset, TrackingOptions> = {
  continuous: {
    desiredStoppedUpdateInterval: 30,
    desiredMovingUpdateInterval: 30,
    desiredSyncInterval: 20,
    desiredAccuracy: 'high',
    stopDuration: 140,
    stopDistance: 70,
    startTrackingAfter: null,
    stopTrackingAfter: null,
    sync: 'all',
    replay: 'none',
    showBlueBar: true,
    useStoppedGeofence: false,
    stoppedGeofenceRadius: 0,
    useMovingGeofence: false,
    movingGeofenceRadius: 0,
    syncGeofences: true,
    useVisits: false,
    useSignificantLocationChanges: false,
    beacons: false,
  },
  responsive: {
    desiredStoppedUpdateInterval: 0,
    desiredMovingUpdateInterval: 150,
    desiredSyncInterval: 20,
    desiredAccuracy: 'medium',
    stopDuration: 140,
    stopDistance: 70,
    startTrackingAfter: null,
    stopTrackingAfter: null,
    sync: 'all',
    replay: 'stops',
    showBlueBar: false,
    useStoppedGeofence: true,
    stoppedGeofenceRadius: 100,
    useMovingGeofence: false,
    movingGeofenceRadius: 0,
    syncGeofences: true,
    useVisits: true,
    useSignificantLocationChanges: true,
    beacons: false,
  },
  efficient: {
    desiredStoppedUpdateInterval: 0,
    desiredMovingUpdateInterval: 0,
    desiredSyncInterval: 0,
    desiredAccuracy: 'medium',
    stopDuration: 0,
    stopDistance: 0,
    startTrackingAfter: null,
    stopTrackingAfter: null,
    sync: 'all',
    replay: 'stops',
    showBlueBar: false,
    useStoppedGeofence: false,
    stoppedGeofenceRadius: 0,
    useMovingGeofence: false,
    movingGeofenceRadius: 0,
    syncGeofences: true,
    useVisits: true,
    useSignificantLocationChanges: false,
    beacons: false,
  },
};

// The presets as radar-sdk-android defines them (RadarTrackingOptions.kt CONTINUOUS/RESPONSIVE/EFFICIENT):
// other intervals than iOS's, plus the fastest intervals, the sync limit and the foreground service.
const ANDROID_PRESETS: Record<TrackingPreset, TrackingOptions> = {
  continuous: {
    desiredStoppedUpdateInterval: 30,
    fastestStoppedUpdateInterval: 30,
    desiredMovingUpdateInterval: 30,
    fastestMovingUpdateInterval: 30,
    desiredSyncInterval: 20,
    desiredAccuracy: 'high',
    stopDuration: 140,
    stopDistance: 70,
    startTrackingAfter: null,
    stopTrackingAfter: null,
    replay: 'none',
    sync: 'all',
    useStoppedGeofence: false,
    stoppedGeofenceRadius: 0,
    useMovingGeofence: false,
    movingGeofenceRadius: 0,
    syncGeofences: true,
    syncGeofencesLimit: 0,
    foregroundServiceEnabled: true,
    beacons: false,
    rampUpRadius: 0,
  },
  responsive: {
    desiredStoppedUpdateInterval: 0,
    fastestStoppedUpdateInterval: 0,
    desiredMovingUpdateInterval: 150,
    fastestMovingUpdateInterval: 30,
    desiredSyncInterval: 20,
    desiredAccuracy: 'medium',
    stopDuration: 140,
    stopDistance: 70,
    startTrackingAfter: null,
    stopTrackingAfter: null,
    replay: 'stops',
    sync: 'all',
    useStoppedGeofence: true,
    stoppedGeofenceRadius: 100,
    useMovingGeofence: true,
    movingGeofenceRadius: 100,
    syncGeofences: true,
    syncGeofencesLimit: 10,
    foregroundServiceEnabled: false,
    beacons: false,
    rampUpRadius: 0,
  },
  efficient: {
    desiredStoppedUpdateInterval: 3600,
    fastestStoppedUpdateInterval: 1200,
    desiredMovingUpdateInterval: 1200,
    fastestMovingUpdateInterval: 360,
    desiredSyncInterval: 140,
    desiredAccuracy: 'medium',
    stopDuration: 140,
    stopDistance: 70,
    startTrackingAfter: null,
    stopTrackingAfter: null,
    replay: 'stops',
    sync: 'all',
    useStoppedGeofence: false,
    stoppedGeofenceRadius: 0,
    useMovingGeofence: false,
    movingGeofenceRadius: 0,
    syncGeofences: true,
    syncGeofencesLimit: 10,
    foregroundServiceEnabled: false,
    beacons: false,
    rampUpRadius: 200,
  },
};

type FieldRule =
  | { kind: 'int'; max: number }
  | { kind: 'bool' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'date' };

const SECONDS = { kind: 'int', max: 604_800 } as const; // a week
const METERS = { kind: 'int', max: 100_000 } as const;
const BOOL = { kind: 'bool' } as const;

/** Every field either SDK reads, with the type that SDK parses (ints, enum strings, ISO dates or null). */
const FIELDS: Record<string, FieldRule> = {
  desiredStoppedUpdateInterval: SECONDS,
  fastestStoppedUpdateInterval: SECONDS,
  desiredMovingUpdateInterval: SECONDS,
  fastestMovingUpdateInterval: SECONDS,
  desiredSyncInterval: SECONDS,
  desiredAccuracy: { kind: 'enum', values: ['high', 'medium', 'low', 'none'] },
  stopDuration: SECONDS,
  stopDistance: METERS,
  startTrackingAfter: { kind: 'date' },
  stopTrackingAfter: { kind: 'date' },
  replay: { kind: 'enum', values: ['stops', 'none', 'all'] },
  sync: { kind: 'enum', values: ['all', 'stopsAndExits', 'none'] },
  showBlueBar: BOOL,
  useStoppedGeofence: BOOL,
  stoppedGeofenceRadius: METERS,
  useMovingGeofence: BOOL,
  movingGeofenceRadius: METERS,
  syncGeofences: BOOL,
  syncGeofencesLimit: { kind: 'int', max: 100 },
  useVisits: BOOL,
  useSignificantLocationChanges: BOOL,
  foregroundServiceEnabled: BOOL,
  beacons: BOOL,
  rampUpRadius: METERS,
};

// A full object must say at least what both SDKs need to run: the rest defaults in the SDK.
const REQUIRED = [
  'desiredStoppedUpdateInterval',
  'desiredMovingUpdateInterval',
  'desiredSyncInterval',
  'desiredAccuracy',
];

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * A preset's name or a full options object, checked field by field; `name` is the parameter the
 * error names (`trackingOptions`, or `sdkConfiguration.remoteTrackingOptions[0].trackingOptions`).
 */
export function parseTrackingOptions(raw: unknown, name: string): TrackingOptionsSetting {
  if (typeof raw === 'string') {
    if ((TRACKING_PRESETS as readonly string[]).includes(raw)) return { preset: raw as TrackingPreset };
    throw invalidParam(name, `must be one of ${TRACKING_PRESETS.join(', ')} or an options object ("${raw}" is not).`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw invalidParam(name, `must be one of ${TRACKING_PRESETS.join(', ')} or an options object.`);
  const out: TrackingOptions = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const rule = FIELDS[key];
    if (!rule) throw invalid(name, `${name}.${key} is not a tracking option.`);
    out[key] = checkField(rule, value, `${name}.${key}`, name);
  }
  for (const key of REQUIRED) {
    if (out[key] === undefined) throw invalid(name, `${name}.${key} is required in a full options object.`);
  }
  return { options: out };
}

function checkField(rule: FieldRule, value: unknown, path: string, name: string): number | string | boolean | null {
  switch (rule.kind) {
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > rule.max)
        throw invalid(name, `${path} must be a whole number from 0 to ${rule.max}.`);
      return value;
    case 'bool':
      if (typeof value !== 'boolean') throw invalid(name, `${path} must be true or false.`);
      return value;
    case 'enum':
      if (typeof value !== 'string' || !rule.values.includes(value))
        throw invalid(name, `${path} must be one of ${rule.values.join(', ')}.`);
      return value;
    case 'date':
      // Both SDKs parse an ISO 8601 string (iOS) or null; an ISO string is kept as it came.
      if (value === null) return null;
      if (typeof value !== 'string' || !ISO_DATE.test(value) || Number.isNaN(Date.parse(value)))
        throw invalid(name, `${path} must be an ISO 8601 date or null.`);
      return new Date(value).toISOString();
  }
}

/**
 * The options object the SDK of `platform` reads: a preset expands to that SDK's own preset (iOS's for
 * iOS, the web and unknown clients; Android's for Android), a full object is answered as stored.
 */
export function expandTrackingOptions(setting: TrackingOptionsSetting, platform: Platform): TrackingOptions {
  if ('options' in setting) return setting.options;
  return (platform === 'Android' ? ANDROID_PRESETS : IOS_PRESETS)[setting.preset];
}
