import { DomainError } from '../domain/errors.js';
import { parseJurisdiction } from '../domain/jurisdiction/jurisdiction-settings.js';
import { parseKeyRestrictions } from '../domain/projects/key-restrictions.js';
import { parseFeatureSettings, parseSdkConfiguration } from '../domain/sdk/sdk-settings.js';
import type { SdkSettingsPatch } from '../domain/sdk/sdk-settings-service.js';
import { parseTrackingOptions } from '../domain/sdk/tracking-options.js';

/** The `projects set` flags for what the mobile SDKs read (PATCH /v1/settings does the same per key). */
const SDK_FLAGS = [
  'tracking-options',
  'sdk-configuration',
  'feature-settings',
  'jurisdiction',
  'key-restrictions',
  'env',
] as const;

export interface SdkFlags {
  /** Null when no SDK flag was given. */
  patch: SdkSettingsPatch | null;
  /** The environments to change: `--env test` or `--env live`, both by default. */
  live: boolean[];
  /** The flags left for `applyProjectSettings`. */
  rest: Record<string, string | true>;
}

/**
 * Takes the SDK flags out of `flags` and parses them all before anything is written: `none` removes a
 * setting; `--tracking-options` takes a preset name (continuous, responsive, efficient) or a JSON object.
 */
export function splitSdkFlags(flags: Record<string, string | true>): SdkFlags {
  const rest: Record<string, string | true> = {};
  const patch: SdkSettingsPatch = {};
  let any = false;
  let live = [false, true];
  for (const [flag, value] of Object.entries(flags)) {
    if (!(SDK_FLAGS as readonly string[]).includes(flag)) {
      rest[flag] = value;
      continue;
    }
    if (value === true) throw new Error(`--${flag} needs a value.`);
    if (flag === 'env') {
      if (value !== 'test' && value !== 'live') throw new Error('--env must be test or live.');
      live = [value === 'live'];
      continue;
    }
    any = true;
    const clear = value === 'none';
    try {
      if (flag === 'tracking-options')
        patch.trackingOptions = clear ? null : parseTrackingOptions(jsonOrText(value), 'trackingOptions');
      else if (flag === 'sdk-configuration')
        patch.sdkConfiguration = clear ? null : parseSdkConfiguration(json(flag, value), 'sdkConfiguration');
      else if (flag === 'jurisdiction')
        patch.jurisdiction = clear ? null : parseJurisdiction(json(flag, value), 'jurisdiction');
      else if (flag === 'key-restrictions')
        patch.keyRestrictions = clear ? null : parseKeyRestrictions(json(flag, value), 'keyRestrictions');
      else patch.featureSettings = clear ? null : parseFeatureSettings(json(flag, value), 'featureSettings');
    } catch (err) {
      if (err instanceof DomainError) throw new Error(`--${flag}: ${err.message}`);
      throw err;
    }
  }
  if (!any && Object.keys(flags).includes('env')) throw new Error('--env only goes with an SDK setting flag.');
  return { patch: any ? patch : null, live, rest };
}

function jsonOrText(value: string): unknown {
  return value.trimStart().startsWith('{') ? json('tracking-options', value) : value;
}

function json(flag: string, value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new Error(`--${flag} must be JSON (or none).`);
  }
}
