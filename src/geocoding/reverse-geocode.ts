import { NameKind } from '../geodata/name-index.js';
import type { GeodataPack } from '../geodata/pack.js';
import { US_ZIP_COUNTRIES } from '../geodata/regions-at.js';
import type { AddressContext, GeocodeAddress } from './address.js';
import { makeAddress } from './address.js';
import { entityPoint } from './entity.js';
import { fineReverse } from './fine-reverse.js';
import type { GeocodeLayer } from './layers.js';
import { distanceKm, nearestLocality, nearestNeighborhood } from './nearest-locality.js';
import { packLookups } from './pack-lookups.js';

/**
 * Reverse geocodes a point against the pack, finest layer first: neighborhood, postalCode, locality, county,
 * state, country (each only when the pack has an answer and `layers` asks for it; all when `layers` is
 * absent). Areas come from `pack.regionsAt`; the locality is the place chosen by `nearestLocality`. Every
 * address carries the same context (city, county, state, postal code, country) cut to its layer, and
 * `distance`: metres from the point to the result's coordinates (a place, a ZIP point or an area's label
 * point). Imported OSM regions add the fine layers first (address, else street; see `fineReverse`).
 * @param lon longitude in degrees
 * @param lat latitude in degrees
 */
export function reverseGeocode(
  pack: GeodataPack,
  lon: number,
  lat: number,
  layers?: Set<GeocodeLayer>,
): GeocodeAddress[] {
  const wants = (layer: GeocodeLayer) => !layers || layers.has(layer);
  const lookups = packLookups(pack);
  const regions = pack.regionsAt(lon, lat);
  const cc = regions.country?.code;
  const locality =
    wants('locality') || wants('postalCode') || wants('neighborhood') ? nearestLocality(pack, lon, lat, cc) : -1;
  const cityName = locality >= 0 ? pack.localities.name(locality) : undefined;
  const zipRow = regions.postalCode ? pack.zips.find(regions.postalCode.code) : -1;

  const country: AddressContext = regions.country
    ? { country: regions.country.name, countryCode: regions.country.code, countryFlag: regions.country.flag }
    : {};
  const state: AddressContext = { ...country, state: regions.state?.name, stateCode: regions.state?.code };
  const county: AddressContext = { ...state, county: regions.county?.name };
  const city: AddressContext = { ...county, city: cityName, postalCode: regions.postalCode?.code };

  const out: GeocodeAddress[] = fineReverse(pack, lon, lat, layers);
  const add = (
    point: [number, number] | undefined,
    layer: GeocodeLayer,
    label: string | undefined,
    ctx: AddressContext,
  ) => {
    if (!point || !label) return;
    const address = makeAddress(point, layer, label, ctx);
    address.distance = Math.round(distanceKm(lon, lat, point[0], point[1]) * 1000);
    out.push(address);
  };

  if (wants('neighborhood')) {
    const n = nearestNeighborhood(pack, lon, lat, cc);
    const name = n >= 0 ? pack.localities.name(n) : undefined;
    add(n >= 0 ? entityPoint(pack, { kind: NameKind.locality, id: n }) : undefined, 'neighborhood', name, {
      ...city,
      neighborhood: name,
    });
  }
  if (wants('postalCode') && regions.postalCode) {
    const code = regions.postalCode.code;
    const area = lookups.postalAreaByCode.get(code);
    const point =
      zipRow >= 0 ? entityPoint(pack, { kind: NameKind.zip, id: zipRow }) : areaPoint(pack, NameKind.postalArea, area);
    add(point, 'postalCode', code, { ...city, city: (zipRow >= 0 && pack.zips.columns.city.get(zipRow)) || cityName });
  }
  if (wants('locality') && locality >= 0) {
    add(entityPoint(pack, { kind: NameKind.locality, id: locality }), 'locality', cityName, city);
  }
  if (wants('county') && regions.county) {
    add(
      areaPoint(pack, NameKind.county, lookups.countyByFips.get(regions.county.code)),
      'county',
      regions.county.name,
      county,
    );
  }
  if (wants('state') && regions.state) {
    // regionsAt takes US states (and territories) from us-atlas and other countries' from admin-1.
    const point = US_ZIP_COUNTRIES.has(cc ?? '')
      ? areaPoint(pack, NameKind.state, lookups.stateByCode.get(regions.state.code))
      : areaPoint(pack, NameKind.admin1, lookups.admin1ByCode.get(`${cc}-${regions.state.code}`));
    add(point, 'state', regions.state.name, state);
  }
  if (wants('country') && regions.country) {
    add(
      areaPoint(pack, NameKind.country, lookups.countryByCode.get(regions.country.code)),
      'country',
      regions.country.name,
      country,
    );
  }
  return out;
}

function areaPoint(pack: GeodataPack, kind: NameKind, id: number | undefined): [number, number] | undefined {
  return id === undefined ? undefined : entityPoint(pack, { kind, id });
}
