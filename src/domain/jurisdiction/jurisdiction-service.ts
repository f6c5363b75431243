import type { Position } from '../../geo/types.js';
import { borderDistanceMeters } from '../../geodata/border-index.js';
import type { PackSource } from '../../geodata/live-pack.js';
import type { Clock } from '../clock.js';
import { DomainError } from '../errors.js';
import { type Geofence, isGeofenceEnabled } from '../geofences/geofence.js';
import { type RegionSet, regionSetOf } from '../regions/region.js';
import type { SdkSettingsService } from '../sdk/sdk-settings-service.js';
import type { Tenant } from '../tenant.js';
import type { GeofenceIndexRegistry } from '../tracking/geofence-index-registry.js';
import { hasJurisdiction, type JurisdictionSettings } from './jurisdiction-settings.js';
import { type JurisdictionPlace, type JurisdictionVerdict, judge } from './jurisdiction-verdict.js';

/**
 * The jurisdiction check of track, context and IP geocode: reads the tenant's lists (kept in memory by
 * the SDK settings service, so a track costs no extra query), the pack's regions at the point with the
 * border distance of the geometry that answered, and the tenant's exclusion geofences. Throws the 451
 * refusal before anything is written; otherwise answers the verdict, or null without lists.
 *
 * A track does it in two halves so that nothing is looked up twice: `check` before the track, on the
 * settings the track read (the refusal, and the regions the track's Regions step then reuses),
 * `verdictAfterTrack` once the track has found the fences the user is in (the exclusion zones are
 * among them).
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

  /**
   * What `lists` (the tenant's, as the SDK settings hold them) say at `[lon, lat]` before any exclusion
   * zone: throws the 451 refusal (`param` names the request's location parameter); null without lists.
   * A track reads its tenant's settings once and hands them here and to its answer's meta. `allRegions`
   * looks up the DMA and postal code too (one lookup instead of two, for a track whose Regions step
   * answers them).
   */
  check(
    lists: JurisdictionSettings | null | undefined,
    [lon, lat]: Position,
    param: string,
    allRegions = false,
  ): JurisdictionCheck | null {
    if (!hasJurisdiction(lists)) return null;
    const pack = this.packs.current();
    const regions = allRegions ? pack?.regionsAt(lon, lat) : pack?.countryStateAt(lon, lat);
    const border = regions?.stateBorder ?? regions?.countryBorder;
    const place: JurisdictionPlace = {
      countryCode: regions?.country?.code,
      stateCode: regions?.state?.code,
      distanceToBorder: border ? borderDistanceMeters(border, lon, lat) : undefined,
    };
    const refused = judge(lists, place, false).refusedCountry;
    if (refused !== undefined) throw refusal(param, refused, regions?.country?.name);
    return { settings: lists, place, regions: regions ? regionSetOf(regions) : null };
  }

  /** Judges `[lon, lat]` (context): `check`, then the exclusion zones from the tenant's fence index. */
  async at(tenant: Tenant, position: Position, param: string): Promise<JurisdictionAnswer | null> {
    const c = this.check(await this.settings(tenant), position, param);
    if (!c) return null;
    let inExclusion = false;
    if (c.settings.exclusionTag !== null) {
      const index = await this.fences.get(tenant);
      const now = this.clock.now();
      const containing = index.containing(position[0], position[1]).map((p) => p.geofence);
      inExclusion = containing.some((g) => g.tag === c.settings.exclusionTag && isGeofenceEnabled(g, now));
    }
    return { ...judge(c.settings, c.place, inExclusion), regions: c.regions ?? {} };
  }

  /** The country-list check of an IP geocode answer (no state or zone rules: an IP locates a city at best). */
  async checkCountry(tenant: Tenant, countryCode: string | undefined, countryName: string | undefined): Promise<void> {
    const j = await this.settings(tenant);
    if (!j) return;
    const verdict = judge(j, { countryCode, stateCode: undefined, distanceToBorder: undefined }, false);
    if (verdict.refusedCountry !== undefined) throw refusal('ip', verdict.refusedCountry, countryName);
  }
}

/** The first half of a track's jurisdiction check: the lists, what the pack says at the point, its regions. */
export interface JurisdictionCheck {
  settings: JurisdictionSettings;
  place: JurisdictionPlace;
  /** The regions found at the point; null when the server has no pack. */
  regions: RegionSet | null;
}

/**
 * The verdict of a track, after the track: its exclusion zones are read from the fences the track put
 * the user in (`user.geofences`, already only enabled fences), not searched for again, so
 * `inExclusionZone` agrees with the geofences of the same answer.
 */
export function verdictAfterTrack(c: JurisdictionCheck, inside: readonly Geofence[]): JurisdictionAnswer {
  const tag = c.settings.exclusionTag;
  const inExclusion = tag !== null && inside.some((g) => g.tag === tag);
  return { ...judge(c.settings, c.place, inExclusion), regions: c.regions ?? {} };
}

/** A verdict with the regions it was made on, so the answer need not look them up again. */
export interface JurisdictionAnswer extends JurisdictionVerdict {
  regions: RegionSet;
}

function refusal(param: string, code: string, name: string | undefined): DomainError {
  const where = code === '' ? 'no country' : `${name ?? code} (${code})`;
  return new DomainError('legal', param, `${param} is in ${where}, where this app is not available.`);
}
