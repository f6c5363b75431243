import { NameKind } from '../geodata/name-index.js';
import type { GeodataPack } from '../geodata/pack.js';
import type { AddressContext, GeocodeAddress } from './address.js';
import { keepAddressText } from './address-text.js';
import { entityContext } from './entity-context.js';
import { perLocalityArea } from './locality-areas.js';

/** What a place's address takes from its areas, with its JSON members, made once per area pair. */
interface AreaPart {
  county?: string;
  state?: string;
  stateCode?: string;
  country?: string;
  countryCode?: string;
  countryFlag?: string;
  /** `,"county":…,"countryFlag":…`: the members above that are set, in the order `entityAddress` gives. */
  json: string;
}

const AREA_KEYS = ['county', 'state', 'stateCode', 'country', 'countryCode', 'countryFlag'] as const;

function areaPart(pack: GeodataPack, id: number): AreaPart {
  const c: AddressContext = entityContext(pack, { kind: NameKind.locality, id });
  const part: AreaPart = { json: '' };
  for (const key of AREA_KEYS) {
    const value = c[key];
    if (!value) continue;
    part[key] = value;
    part.json += `,"${key}":${JSON.stringify(value)}`;
  }
  return part;
}

/**
 * Place `id` as a result, with `distance` (metres) when given: the same address as `entityAddress` (and
 * then `distance` set on it), field for field and in the same order, built with its JSON text (see
 * `keepAddressText`). Autocomplete answers ten of them per query, from a few thousand area pairs: the
 * area fields and their JSON are made once per pair, and the answer is not serialised again.
 */
export function localityResult(pack: GeodataPack, id: number, distance?: number): GeocodeAddress {
  const l = pack.localities;
  const lon = l.lon[id]!;
  const lat = l.lat[id]!;
  const name = l.name(id);
  const neighborhood = l.isNeighborhood(id);
  const a = perLocalityArea(pack, 'result', id, (i) => areaPart(pack, i));
  // formatAddress: `label, region` then the country code, leaving out what is empty.
  const region = a.stateCode || a.state;
  const head = name && region ? `${name}, ${region}` : name || region || '';
  const formatted = a.countryCode ? (head ? `${head} ${a.countryCode}` : a.countryCode) : head;
  const layer = neighborhood ? 'neighborhood' : 'locality';
  const out: GeocodeAddress = {
    latitude: lat,
    longitude: lon,
    geometry: { type: 'Point', coordinates: [lon, lat] },
    formattedAddress: formatted,
    addressLabel: name,
    layer,
  };
  if (name) {
    if (neighborhood) out.neighborhood = name;
    else out.city = name;
  }
  if (a.county) out.county = a.county;
  if (a.state) out.state = a.state;
  if (a.stateCode) out.stateCode = a.stateCode;
  if (a.country) out.country = a.country;
  if (a.countryCode) out.countryCode = a.countryCode;
  if (a.countryFlag) out.countryFlag = a.countryFlag;
  if (distance !== undefined) out.distance = distance;
  // JSON writes numbers as `${n}` does; anything not finite (never a place's coordinates) is left to it.
  if (Number.isFinite(lon) && Number.isFinite(lat) && (distance === undefined || Number.isFinite(distance))) {
    const label = JSON.stringify(name);
    const own = name ? `,"${neighborhood ? 'neighborhood' : 'city'}":${label}` : '';
    const tail = distance === undefined ? '}' : `,"distance":${distance}}`;
    keepAddressText(
      out,
      `{"latitude":${lat},"longitude":${lon},"geometry":{"type":"Point","coordinates":[${lon},${lat}]},"formattedAddress":${JSON.stringify(formatted)},"addressLabel":${label},"layer":"${layer}"${own}${a.json}${tail}`,
    );
  }
  return out;
}
