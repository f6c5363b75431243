import type { GeodataPack } from '../geodata/pack.js';

/** Code → row maps over a pack's records, built once per pack on first use. */
export interface PackLookups {
  /** 5-digit FIPS → row of `pack.counties`. */
  countyByFips: Map<string, number>;
  /** USPS code → row of `pack.states`. */
  stateByCode: Map<string, number>;
  /** `CC-CODE` (e.g. `CA-ON`) → row of `pack.admin1`. */
  admin1ByCode: Map<string, number>;
  /** ISO alpha-2 → row of `pack.countries`. */
  countryByCode: Map<string, number>;
  /** ZCTA code → row of `pack.postalAreas`. */
  postalAreaByCode: Map<string, number>;
}

const cache = new WeakMap<GeodataPack, PackLookups>();

/** The lookups of a pack (cached: a pack never changes once opened). */
export function packLookups(pack: GeodataPack): PackLookups {
  let lookups = cache.get(pack);
  if (!lookups) {
    lookups = {
      countyByFips: new Map(pack.counties.map((c, i) => [c.fips, i])),
      stateByCode: new Map(pack.states.map((s, i) => [s.code, i])),
      admin1ByCode: new Map(pack.admin1.map((s, i) => [`${s.countryCode}-${s.code}`, i])),
      countryByCode: new Map(pack.countries.map((c, i) => [c.code, i])),
      postalAreaByCode: new Map(pack.postalAreas.map((p, i) => [p.code, i])),
    };
    cache.set(pack, lookups);
  }
  return lookups;
}
