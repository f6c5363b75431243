import type { LocalityTable } from './locality-table.js';
import type { CountryRecord, CountyRecord, StateRecord } from './records.js';

/** Summed locality population of each area, index for index with the pack's record arrays. */
export interface AreaPopulation {
  countries: Float64Array;
  states: Float64Array;
  admin1: Float64Array;
  counties: Float64Array;
}

/**
 * Adds up the population of the localities in each country, US state and US county (admin-1 areas carry
 * theirs from the import, which locates each place in them) (GeoNames' US admin-2 code is the county FIPS). Geocoding ranks areas by it: nothing in the
 * pack gives area populations directly, and the sum of places of 500+ people is a fair proxy.
 */
export function sumAreaPopulation(
  localities: LocalityTable,
  countries: CountryRecord[],
  states: StateRecord[],
  admin1: StateRecord[],
  counties: CountyRecord[],
): AreaPopulation {
  const country = new Map<string, number>();
  const admin = new Map<string, number>();
  const county = new Map<string, number>();
  for (let i = 0; i < localities.count; i++) {
    const pop = localities.population[i]!;
    if (pop <= 0 || localities.isNeighborhood(i)) continue;
    const cc = localities.countryCode(i);
    const a1 = localities.admin1Key(i);
    country.set(cc, (country.get(cc) ?? 0) + pop);
    admin.set(a1, (admin.get(a1) ?? 0) + pop);
    if (cc === 'US') {
      const key = `${a1}.${localities.admin2Code(i)}`;
      county.set(key, (county.get(key) ?? 0) + pop);
    }
  }
  return {
    countries: Float64Array.from(countries, (r) => country.get(r.code) ?? 0),
    states: Float64Array.from(states, (r) => admin.get(`US.${r.code}`) ?? 0),
    admin1: Float64Array.from(admin1, (r) => r.population ?? 0),
    counties: Float64Array.from(counties, (r) => county.get(`US.${r.stateCode}.${r.fips.slice(2)}`) ?? 0),
  };
}
