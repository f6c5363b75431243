import type { Position } from '../../geo/types.js';
import { borderDistanceMeters } from '../../geodata/border-index.js';
import type { PackSource } from '../../geodata/live-pack.js';
import type { Clock } from '../clock.js';
import { DomainError } from '../errors.js';
import { isGeofenceEnabled } from '../geofences/geofence.js';
import { type RegionSet, regionSetOf } from '../regions/region.js';
import type { SdkSettingsService } from '../sdk/sdk-settings-service.js';
import type { Tenant } from '../tenant.js';
import type { GeofenceIndexRegistry } from '../tracking/geofence-index-registry.js';
import { hasJurisdiction, type JurisdictionSettings } from './jurisdiction-settings.js';
import { type JurisdictionVerdict, judge } from './jurisdiction-verdict.js';

/**
 * The jurisdiction check of track, context and IP geocode: reads the tenant's lists (kept in memory by
 * the SDK settings service, so a track costs no extra query), the pack's regions at the point with the
 * border distance of the geometry that answered, and the tenant's exclusion geofences. Throws the 451
 * refusal before anything is written; otherwise answers the verdict, or null without lists.
 */
export class JurisdictionService {
  constructor(
    private readonly sdkSettings: SdkSettingsService,
    private readonly packs: PackSource,
    private readonly fences: GeofenceIndexRegistry,
    private readonly clock: Clock,
  ) {}

  /** The tenant's lists when any is set. */
  async settings(tenant: Tenant): Promise<JurisdictionSettings | null> {
    const j = (await this.sdkSettings.get(tenant))?.jurisdiction;
    return hasJurisdiction(j) ? j : null;
  }

  /** Judges `[lon, lat]`; `param` names the request's location parameter in a refusal. */
  async at(tenant: Tenant, [lon, lat]: Position, param: string): Promise<JurisdictionAnswer | null> {
    const j = await this.settings(tenant);
    if (!j) return null;
    const regions = this.packs.current()?.countryStateAt(lon, lat);
    const border = regions?.stateBorder ?? regions?.countryBorder;
    let inExclusion = false;
    if (j.exclusionTag !== null) {
      const tag = j.exclusionTag;
      const index = await this.fences.get(tenant);
      const now = this.clock.now();
      inExclusion = index
        .containing(lon, lat)
        .some((p) => p.geofence.tag === tag && isGeofenceEnabled(p.geofence, now));
    }
    const verdict = judge(
      j,
      {
        countryCode: regions?.country?.code,
        stateCode: regions?.state?.code,
        distanceToBorder: border ? borderDistanceMeters(border, lon, lat) : undefined,
      },
      inExclusion,
    );
    if (verdict.refusedCountry !== undefined) throw refusal(param, verdict.refusedCountry, regions?.country?.name);
    return { ...verdict, regions: regions ? regionSetOf(regions) : {} };
  }

  /** The country-list check of an IP geocode answer (no state or zone rules: an IP locates a city at best). */
  async checkCountry(tenant: Tenant, countryCode: string | undefined, countryName: string | undefined): Promise<void> {
    const j = await this.settings(tenant);
    if (!j) return;
    const verdict = judge(j, { countryCode, stateCode: undefined, distanceToBorder: undefined }, false);
    if (verdict.refusedCountry !== undefined) throw refusal('ip', verdict.refusedCountry, countryName);
  }
}

/** A verdict with the regions it was made on, so the answer need not look them up again. */
export interface JurisdictionAnswer extends JurisdictionVerdict {
  regions: RegionSet;
}

function refusal(param: string, code: string, name: string | undefined): DomainError {
  const where = code === '' ? 'no country' : `${name ?? code} (${code})`;
  return new DomainError('legal', param, `${param} is in ${where}, where this app is not available.`);
}
