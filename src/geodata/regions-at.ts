import { BorderIndex, type BorderRef } from './border-index.js';
import type { OpenPolygonLayer } from './layer-files.js';
import type { CountryRecord, CountyRecord, DmaRecord, PostalAreaRecord, StateRecord } from './records.js';
import type { ZipTable } from './zip-table.js';

/** The areas that contain a point. Every field is absent when the pack has no answer. */
export interface Regions {
  country?: { code: string; name: string; flag: string };
  /** US state (USPS code), or admin-1 elsewhere when the pack has it (ISO 3166-2 suffix). */
  state?: { code: string; name: string };
  /** US county; `code` is the 5-digit FIPS. */
  county?: { code: string; name: string };
  dma?: { code: string; name: string };
  /** `approximate` when it is the nearest ZCTA point rather than a containing ZCTA polygon. */
  postalCode?: { code: string; approximate: boolean };
  /** The city, where an imported OSM extract draws its boundary (admin level 8). */
  locality?: { name: string };
  /** The geometry the country and state answers came from, for their border distance. */
  countryBorder?: BorderRef;
  stateBorder?: BorderRef;
}

/** The pack layers the lookup reads. */
export interface RegionLayers {
  countries: OpenPolygonLayer<CountryRecord>;
  states: OpenPolygonLayer<StateRecord>;
  counties: OpenPolygonLayer<CountyRecord>;
  admin1: OpenPolygonLayer<StateRecord> | null;
  dma: OpenPolygonLayer<DmaRecord> | undefined;
  postal: OpenPolygonLayer<PostalAreaRecord> | undefined;
  zips: ZipTable;
}

/** Countries whose addresses use US ZIP codes and whose states and counties come from us-atlas. */
export const US_ZIP_COUNTRIES: ReadonlySet<string> = new Set(['US', 'PR', 'GU', 'VI', 'AS', 'MP', 'UM']);

/**
 * Returns `regionsAt(lon, lat)` over the given layers. Rules:
 * - country: the country-coder polygon; its borders reach well out to sea (about the exclusive economic
 *   zone), so an offshore point can have a country but no state, and international waters have none;
 * - state: the us-atlas state where the country is US or a US territory (or where no country matched but a
 *   state did: the two sources generalize coastlines differently), else the admin-1 polygon when present;
 * - county: the us-atlas county, in the US only; dma: the operator's merged DMA polygon;
 * - postalCode, in the US and its territories only: the imported ZCTA polygon containing the point, else,
 *   on land (inside a us-atlas state), the nearest Census ZCTA internal point in the same county, else in the
 *   same state, within `ZIP_POINT_MAX_METERS` (approximate; `RegionService` prefers the postcode of
 *   nearby tagged OSM addresses, see `tagged-postcode.ts`).
 */
/** A region lookup; `countryState` answers the country and state only (what jurisdiction checks read), cheaper. */
export type RegionLookup = (lon: number, lat: number, countryState?: boolean) => Regions;

export function regionLookup(layers: RegionLayers): RegionLookup {
  const { countries, states, counties, admin1, dma, postal, zips } = layers;
  const byCode = new Map(countries.records.map((c) => [c.code, c]));
  const borders = {
    countries: new BorderIndex(countries.index.set),
    states: new BorderIndex(states.index.set),
    admin1: admin1 ? new BorderIndex(admin1.index.set) : null,
  };
  return (lon, lat, countryState = false) => {
    const out: Regions = {};
    const countryFeature = countries.index.find(lon, lat);
    let country = countries.records[countryFeature];
    const usFamily = !country || US_ZIP_COUNTRIES.has(country.code);
    const stateFeature = usFamily ? states.index.find(lon, lat) : -1;
    const usState = states.records[stateFeature];
    if (usState) {
      out.state = { code: usState.code, name: usState.name };
      out.stateBorder = { layer: borders.states, feature: stateFeature };
      country ??= byCode.get(US_ZIP_COUNTRIES.has(usState.code) ? usState.code : 'US');
    } else if (admin1) {
      const feature = admin1.index.find(lon, lat);
      const area = admin1.records[feature];
      if (area && (!country || area.countryCode === country.code)) {
        out.state = { code: area.code, name: area.name };
        out.stateBorder = { layer: borders.admin1!, feature };
        country ??= byCode.get(area.countryCode);
      }
    }
    if (country) out.country = { code: country.code, name: country.name, flag: country.flag };
    if (country && countryFeature >= 0) out.countryBorder = { layer: borders.countries, feature: countryFeature };
    if (countryState) return out;
    if (usState) {
      const county = counties.records[counties.index.find(lon, lat)];
      if (county) out.county = { code: county.fips, name: county.name };
    }
    if (dma) {
      const area = dma.records[dma.index.find(lon, lat)];
      if (area) out.dma = { code: area.code, name: area.name };
    }
    if (country && US_ZIP_COUNTRIES.has(country.code)) {
      const area = postal?.records[postal.index.find(lon, lat)];
      if (area) out.postalCode = { code: area.code, approximate: false };
      else if (usState) {
        // A ZIP point in the point's own county first: across a channel or a county line the nearest
        // point is often the other side's.
        const county = out.county?.code;
        let zip = county ? zips.nearest(lon, lat, usState.code, undefined, county) : -1;
        if (zip < 0) zip = zips.nearest(lon, lat, usState.code);
        if (zip >= 0) out.postalCode = { code: zips.columns.code.get(zip)!, approximate: true };
      }
    }
    return out;
  };
}
