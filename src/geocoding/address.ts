import type { AddressRegion } from '../geodata/address-region.js';
import type { GeocodeLayer } from './layers.js';

/** A geocoding or autocomplete result in the spec's Address shape. Coordinates in degrees. */
export interface GeocodeAddress extends AddressRegion {
  latitude: number;
  longitude: number;
  geometry: { type: 'Point'; coordinates: [number, number] };
  formattedAddress: string;
  addressLabel: string;
  /** Autocomplete: the name of a place result (layer `place`). */
  placeLabel?: string;
  /** House number (address layer). */
  number?: string;
  /** Street as the address line writes it (address and street layers). */
  street?: string;
  /** Apartment or suite, when tagged. */
  unit?: string;
  neighborhood?: string;
  city?: string;
  /** New York City's borough, for fine results in the city's five counties. */
  borough?: string;
  county?: string;
  layer: GeocodeLayer;
  /** Metres from the query point (reverse) or the `near` point (autocomplete) to the result's coordinates. */
  distance?: number;
  /**
   * Forward geocoding: `exact` when what was asked for exists as typed (an address, a place, a name),
   * `interpolated` when the house number is placed between known numbers of its street, `fallback` when
   * only a street, a locality or an area matched (or a name by prefix or typo).
   */
  confidence?: 'exact' | 'interpolated' | 'fallback';
}

/** The fields of an address other than position, layer, labels, distance and confidence. */
export type AddressContext = Pick<
  GeocodeAddress,
  | 'neighborhood'
  | 'city'
  | 'borough'
  | 'county'
  | 'state'
  | 'stateCode'
  | 'postalCode'
  | 'country'
  | 'countryCode'
  | 'countryFlag'
>;

/**
 * Builds an address: coordinates `[lon, lat]`, the layer, the result's own label and its context. The
 * formatted address reads like `Honolulu, HI 96813 US`: the label, then the state (code when known), the
 * postal code and the country code, leaving out whatever the layer is coarser than.
 */
export function makeAddress(
  [lon, lat]: [number, number],
  layer: GeocodeLayer,
  addressLabel: string,
  context: AddressContext,
): GeocodeAddress {
  const out: GeocodeAddress = {
    latitude: lat,
    longitude: lon,
    geometry: { type: 'Point', coordinates: [lon, lat] },
    formattedAddress: formatAddress(layer, addressLabel, context),
    addressLabel,
    layer,
  };
  for (const [key, value] of Object.entries(context) as [keyof AddressContext, string | undefined][]) {
    if (value) out[key] = value;
  }
  return out;
}

function formatAddress(layer: GeocodeLayer, label: string, c: AddressContext): string {
  if (layer === 'country') return label;
  if (layer === 'state') return [label, c.countryCode].filter(Boolean).join(', ');
  const region = c.stateCode || c.state;
  if (layer === 'postalCode') {
    const head = [c.city, [region, label].filter(Boolean).join(' ')].filter(Boolean).join(', ');
    return [head, c.countryCode].filter(Boolean).join(' ');
  }
  const head = [label, region].filter(Boolean).join(', ');
  return [head, c.countryCode].filter(Boolean).join(' ');
}
