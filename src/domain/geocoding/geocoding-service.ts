import type { Position } from '../../geo/types.js';
import type { GeocodeAddress } from '../../geocoding/address.js';
import { parseAddress } from '../../geocoding/address-parser.js';
import { autocomplete } from '../../geocoding/autocomplete.js';
import { hasAddressStreet, streetsByKey } from '../../geocoding/fine-regions.js';
import { forwardGeocode } from '../../geocoding/forward-geocode.js';
import { expandLayers } from '../../geocoding/layers.js';
import { reverseGeocode } from '../../geocoding/reverse-geocode.js';
import { type AddressToValidate, type AddressValidation, validateAddress } from '../../geocoding/validate-address.js';
import type { PackSource } from '../../geodata/live-pack.js';
import type { Attribution, GeodataPack } from '../../geodata/pack.js';
import { invalidParam } from '../errors.js';
import { geodataUnavailable } from './geodata-unavailable.js';
import { type IpGeocode, ipGeocode } from './ip-geocode.js';

/** Options of {@link GeocodingService.autocomplete}. */
export interface AutocompleteQuery {
  /** `[lon, lat]` to favour results near. */
  near?: Position;
  /** Used for the bias when `near` is absent: the caller's address, located through the IP database. */
  nearIp?: string;
  layers?: string[];
  /** 1–100. */
  limit: number;
  /** ISO 3166-1 alpha-2 codes, upper case: results in any of them. */
  country?: readonly string[];
}

/**
 * Forward and reverse geocoding and autocomplete over the reference pack the server has open. Layer
 * names are the spec's (validated by the caller); `coarse` and `fine` expand to their members, and
 * fine layers (address, place, street, intersection) find something only in imported OSM regions. Without a
 * pack every call throws an unavailable error that says how to build one.
 */
export class GeocodingService {
  constructor(private readonly packs: PackSource) {}

  /** Best matches first (at most 10), `confidence` `exact`, `interpolated` or `fallback` (see `forwardGeocode`). */
  forward(query: string, opts: { layers?: string[]; country?: readonly string[] } = {}): GeocodeAddress[] {
    return forwardGeocode(this.pack(), query, { layers: layersOf(opts.layers), country: opts.country });
  }

  /** Finest layer first; `distance` in metres from `[lon, lat]` (degrees) to each result. */
  reverse([lon, lat]: Position, layers?: string[]): GeocodeAddress[] {
    return reverseGeocode(this.pack(), lon, lat, layersOf(layers));
  }

  /** Prefix and typo matches, biased toward `near` (else the caller's IP location, when known). */
  autocomplete(query: string, q: AutocompleteQuery): GeocodeAddress[] {
    const pack = this.pack();
    const near = q.near ?? ipPosition(pack, q.nearIp);
    return autocomplete(pack, query, { near, layers: layersOf(q.layers), limit: q.limit, country: q.country });
  }

  /** Locates an IP address (`fromRequest`: it is the caller's own); see `ipGeocode` for the errors. */
  ip(ip: string, fromRequest: boolean): IpGeocode {
    return ipGeocode(this.pack(), ip, fromRequest);
  }

  /**
   * Checks an address against the imported address layers (see `validateAddress`): given as parts
   * (`street` at least) or as one line, `addressLabel`, whose parts fill those not given. Without a pack
   * or an imported region the answer is `unverified`, not an error: nothing covers the address.
   */
  validateAddress(input: AddressToValidate & { addressLabel?: string }): AddressValidation {
    const pack = this.packs.current();
    const { addressLabel, ...parts } = input;
    if (parts.street) return validateAddress(pack, parts);
    if (!addressLabel) {
      throw invalidParam('addressLabel', 'is required when street is not given: send number and street, or the line.');
    }
    const known = pack ? (key: string) => streetsByKey(pack, key).length > 0 || hasAddressStreet(pack, key) : undefined;
    const parsed = parseAddress(addressLabel, known);
    if (!parsed.street) throw invalidParam('addressLabel', 'must hold a street, such as 20 Jay St.');
    return validateAddress(pack, {
      number: parts.number ?? parsed.number,
      street: parsed.street,
      unit: parts.unit ?? parsed.unit,
      city: parts.city ?? parsed.locality,
      stateCode: parts.stateCode ?? parsed.region,
      postalCode: parts.postalCode ?? parsed.postcode,
      countryCode: parts.countryCode ?? (/^[A-Za-z]{2}$/.test(parsed.country ?? '') ? parsed.country : undefined),
    });
  }

  /** Credits for every source of the open pack, and what the pack lacks or approximates. */
  attribution(): { sources: Attribution[]; notes: string[] } {
    const pack = this.packs.current();
    if (!pack) return { sources: [], notes: [this.packs.unavailableReason()] };
    return { sources: pack.attribution(), notes: pack.manifest.notes };
  }

  /** The open pack, or an unavailable error naming what to run. */
  pack(): GeodataPack {
    const pack = this.packs.current();
    if (!pack) throw geodataUnavailable(this.packs.unavailableReason());
    return pack;
  }
}

function layersOf(names: string[] | undefined) {
  return names && names.length > 0 ? expandLayers(names) : undefined;
}

function ipPosition(pack: GeodataPack, ip: string | undefined): Position | undefined {
  const found = ip ? pack.ipLookup(ip) : null;
  return found ? [found.longitude, found.latitude] : undefined;
}
