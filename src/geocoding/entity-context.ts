import { NameKind } from '../geodata/name-index.js';
import type { GeodataPack } from '../geodata/pack.js';
import { US_STATE_NAMES_BY_CODE } from '../geodata/us-states.js';
import type { AddressContext } from './address.js';
import type { Entity } from './entity-ref.js';
import { perLocalityArea } from './locality-areas.js';

// US territories have their own country code and are their own "state" in us-atlas.
const TERRITORIES = new Set(['PR', 'GU', 'VI', 'AS', 'MP']);

/** The context fields of an entity's address: only what is as coarse as its layer or coarser. */
export function entityContext(pack: GeodataPack, { kind, id }: Entity): AddressContext {
  switch (kind) {
    case NameKind.locality: {
      const l = pack.localities;
      const name = l.name(id);
      // The rest depends only on the place's areas: computed once per area pair (autocomplete builds many).
      // Copied field by field: spreading two objects of varying shapes costs V8 microseconds each time.
      const a = perLocalityArea(pack, 'context', id, (i) => localityAreaContext(pack, i));
      const out: AddressContext = l.isNeighborhood(id) ? { neighborhood: name } : { city: name };
      out.county = a.county;
      out.state = a.state;
      out.stateCode = a.stateCode;
      out.country = a.country;
      out.countryCode = a.countryCode;
      out.countryFlag = a.countryFlag;
      return out;
    }
    case NameKind.zip: {
      const z = pack.zips.columns;
      const stateCode = z.stateCode.get(id) ?? '';
      return {
        postalCode: z.code.get(id),
        city: z.city.get(id) || undefined,
        county: z.county.get(id) || undefined,
        state: US_STATE_NAMES_BY_CODE.get(stateCode),
        stateCode: stateCode || undefined,
        ...country(pack, usCountry(stateCode)),
      };
    }
    case NameKind.postalArea: {
      const area = pack.postalAreas[id];
      const r = area ? pack.regionsAt(area.lon, area.lat) : {};
      return {
        postalCode: area?.code,
        county: r.county?.name,
        state: r.state?.name,
        stateCode: r.state?.code,
        ...country(pack, r.country?.code ?? 'US'),
      };
    }
    case NameKind.county: {
      const c = pack.counties[id];
      const stateCode = c?.stateCode ?? '';
      return {
        county: c?.name,
        state: US_STATE_NAMES_BY_CODE.get(stateCode),
        stateCode,
        ...country(pack, usCountry(stateCode)),
      };
    }
    case NameKind.state:
    case NameKind.admin1: {
      const s = kind === NameKind.state ? pack.states[id] : pack.admin1[id];
      const cc = s ? (TERRITORIES.has(s.code) && s.countryCode === 'US' ? s.code : s.countryCode) : '';
      return { state: s?.name, stateCode: s?.code || undefined, ...country(pack, cc) };
    }
    default:
      return country(pack, pack.countries[id]?.code ?? '');
  }
}

function localityAreaContext(pack: GeodataPack, id: number): AddressContext {
  const l = pack.localities;
  return {
    county: l.countyName(id),
    state: l.stateName(id),
    stateCode: l.stateCode(id),
    ...country(pack, l.countryCode(id)),
  };
}

function country(pack: GeodataPack, code: string): Pick<AddressContext, 'country' | 'countryCode' | 'countryFlag'> {
  const c = pack.country(code);
  return c ? { country: c.name, countryCode: c.code, countryFlag: c.flag } : { countryCode: code || undefined };
}

/** The record of an area entity (postal area, county, state, admin-1, country), or undefined. */
export function areaRecord(pack: GeodataPack, kind: NameKind, id: number) {
  switch (kind) {
    case NameKind.postalArea:
      return pack.postalAreas[id];
    case NameKind.county:
      return pack.counties[id];
    case NameKind.state:
      return pack.states[id];
    case NameKind.admin1:
      return pack.admin1[id];
    case NameKind.country:
      return pack.countries[id];
    default:
      return undefined;
  }
}

/** The country of a US state or territory code: the territory itself for PR, GU, VI, AS and MP. */
export function usCountry(stateCode: string): string {
  return TERRITORIES.has(stateCode) ? stateCode : 'US';
}
