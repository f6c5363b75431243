import type { AddressLayer } from '../geodata/osm/addresses/address-layer.js';
import { uspsStreet } from '../geodata/osm/addresses/street-names.js';
import type { PlaceRecord } from '../geodata/osm/places/place-record.js';
import type { GeodataPack } from '../geodata/pack.js';
import type { AddressContext, GeocodeAddress } from './address.js';
import type { GeocodeLayer } from './layers.js';
import { nearestLocality } from './nearest-locality.js';

/** Tagged parts that override what the point's areas say. */
interface Tagged {
  city?: string;
  state?: string;
  postcode?: string;
}

// The city is the locality nearest to the middle of the point's ~1 km cell (0.01°), kept per cell and
// country: finding the nearest locality costs ~25 µs, and a page of neighbouring addresses shares one. It
// is found from the cell's middle, not from the first point asked about, so an address's city does not
// depend on which addresses were asked about before it. County, state and postal code are looked up for
// the point itself (~4 µs): a ZIP code boundary runs along streets, well inside a cell.
const CELL = 100;
const CELL_CACHE_SIZE = 50_000;
const cities = new WeakMap<GeodataPack, Map<number, { countryCode: string | undefined; city: string | undefined }>>();

// New York City's boroughs are its five counties (FIPS codes).
const NYC_BOROUGHS: Readonly<Record<string, string>> = {
  '36061': 'Manhattan',
  '36047': 'Brooklyn',
  '36081': 'Queens',
  '36005': 'Bronx',
  '36085': 'Staten Island',
};

const SHORE_STEPS: [number, number][] = [
  [0, 0.02],
  [0, -0.02],
  [0.02, 0],
  [-0.02, 0],
  [0.02, 0.02],
  [-0.02, 0.02],
  [0.02, -0.02],
  [-0.02, -0.02],
];

/** The areas around a point: city (see `cityOfCell`), county, state, postal code and country. */
export function pointContext(pack: GeodataPack, lon: number, lat: number): AddressContext {
  const r = pack.regionsAt(lon, lat);
  if (!r.state) {
    // Generalized state outlines cut off shore streets (Waikiki): take the state, county and country of
    // the first point about 2 km inland (any direction) that has them; not its postal code.
    for (const [dx, dy] of SHORE_STEPS) {
      const near = pack.regionsAt(lon + dx, lat + dy);
      if (near.state) {
        r.state = near.state;
        r.county ??= near.county;
        r.country ??= near.country;
        break;
      }
    }
  }
  return {
    city: cityOfCell(pack, lon, lat, r.country?.code),
    county: r.county?.name,
    borough: NYC_BOROUGHS[r.county?.code ?? ''],
    state: r.state?.name,
    stateCode: r.state?.code,
    postalCode: r.postalCode?.code,
    country: r.country?.name,
    countryCode: r.country?.code,
    countryFlag: r.country?.flag,
  };
}

/** The locality nearest to the middle of the cell of `[lon, lat]`, in `countryCode` when given. */
function cityOfCell(pack: GeodataPack, lon: number, lat: number, countryCode: string | undefined): string | undefined {
  let byCell = cities.get(pack);
  if (!byCell) {
    byCell = new Map();
    cities.set(pack, byCell);
  }
  const x = Math.round(lon * CELL);
  const y = Math.round(lat * CELL);
  const cell = x * 100_000 + y;
  const hit = byCell.get(cell);
  if (hit && hit.countryCode === countryCode) return hit.city;
  const loc = nearestLocality(pack, x / CELL, y / CELL, countryCode);
  const city = loc >= 0 ? pack.localities.name(loc) : undefined;
  // A cell across a border keeps the first country's city; the other country's points look theirs up.
  if (!hit) {
    if (byCell.size >= CELL_CACHE_SIZE) byCell.clear();
    byCell.set(cell, { countryCode, city });
  }
  return city;
}

/**
 * A fine result: `line` is the address line (`89-12 Springfield Blvd`, `Springfield Blvd`, `A St & B Ave`),
 * and `formattedAddress` reads as a US address: `line, City, ST 12345 US`.
 */
export function fineAddress(
  pack: GeodataPack,
  lon: number,
  lat: number,
  layer: GeocodeLayer,
  line: string,
  tagged: Tagged = {},
): GeocodeAddress {
  const ctx = pointContext(pack, lon, lat);
  if (tagged.city) ctx.city = tagged.city;
  if (tagged.postcode) ctx.postalCode = tagged.postcode;
  if (tagged.state && /^[A-Za-z]{2}$/.test(tagged.state)) ctx.stateCode = tagged.state.toUpperCase();
  const out: GeocodeAddress = {
    latitude: lat,
    longitude: lon,
    geometry: { type: 'Point', coordinates: [lon, lat] },
    formattedAddress: formatLine(line, ctx),
    addressLabel: line,
    layer,
  };
  for (const [key, value] of Object.entries(ctx) as [keyof AddressContext, string | undefined][]) {
    if (value) out[key] = value;
  }
  return out;
}

/** `line, City, ST 12345 US`, leaving out what is unknown. */
export function formatLine(line: string, c: AddressContext): string {
  const region = [c.stateCode || c.state, c.postalCode].filter(Boolean).join(' ');
  const head = [line, c.city, region].filter(Boolean).join(', ');
  return [head, c.countryCode].filter(Boolean).join(' ');
}

/** Address `i` of a layer as a result (layer `address`). */
export function addressResult(pack: GeodataPack, layer: AddressLayer, i: number): GeocodeAddress {
  const a = layer.address(i);
  const street = uspsStreet(a.street);
  const line = `${a.number} ${street}${a.unit ? ` ${unitLabel(a.unit)}` : ''}`;
  const out = fineAddress(pack, a.lon, a.lat, 'address', line, a);
  out.number = a.number;
  out.street = street;
  if (a.unit) out.unit = a.unit;
  return out;
}

/** An interpolated house number on a street: the typed number with the street's name. */
export function interpolatedResult(
  pack: GeodataPack,
  layer: AddressLayer,
  street: number,
  number: string,
  [lon, lat]: [number, number],
  postcode?: string,
): GeocodeAddress {
  const name = uspsStreet(layer.streetName(street));
  const out = fineAddress(pack, lon, lat, 'address', `${number} ${name}`, { postcode });
  out.number = number;
  out.street = name;
  return out;
}

/** Street `i` of a layer as a result, at `point` (its label point unless told). */
export function streetResult(
  pack: GeodataPack,
  layer: AddressLayer,
  i: number,
  point?: [number, number],
): GeocodeAddress {
  const name = uspsStreet(layer.streetName(i));
  const tags = point ? nearbyTags(layer, point[0], point[1]) : labelTags(layer, 'street', i);
  const [lon, lat] = point ?? layer.streetPoint(i);
  const out = fineAddress(pack, lon, lat, 'street', name, tags);
  out.street = name;
  return out;
}

// A street or crossing has no postcode of its own: the nearest address's, when one is this close.
const POSTCODE_NEIGHBOUR_METERS = 300;

// The tags at a street's label point or at a crossing never change: found once (a range query over a few
// hundred addresses) and kept per layer, so autocomplete's street results do not look them up each time.
const labelTagsKept = new WeakMap<
  AddressLayer,
  { street: (Tagged | undefined)[]; intersection: (Tagged | undefined)[] }
>();

function labelTags(layer: AddressLayer, kind: 'street' | 'intersection', i: number): Tagged {
  let kept = labelTagsKept.get(layer);
  if (!kept) {
    kept = { street: new Array(layer.streetCount), intersection: new Array(layer.intersectionCount) };
    labelTagsKept.set(layer, kept);
  }
  let tags = kept[kind][i];
  if (!tags) {
    const x = kind === 'intersection' ? layer.intersection(i) : undefined;
    const [lon, lat] = x ? [x.lon, x.lat] : layer.streetPoint(i);
    tags = nearbyTags(layer, lon, lat);
    kept[kind][i] = tags;
  }
  return tags;
}

function nearbyTags(layer: AddressLayer, lon: number, lat: number): Tagged {
  const [hit] = layer.nearestAddresses(lon, lat, POSTCODE_NEIGHBOUR_METERS, 1);
  return hit ? { postcode: layer.address(hit.index).postcode || undefined } : {};
}

/** Intersection `i` of a layer: `Springfield Blvd & 89th Ave`, street `first` first when given. */
export function intersectionResult(pack: GeodataPack, layer: AddressLayer, i: number, first?: number): GeocodeAddress {
  const x = layer.intersection(i);
  const [a, b] = first === x.b ? [x.b, x.a] : [x.a, x.b];
  const line = `${uspsStreet(layer.streetName(a))} & ${uspsStreet(layer.streetName(b))}`;
  return fineAddress(pack, x.lon, x.lat, 'intersection', line, labelTags(layer, 'intersection', i));
}

/** A place as a result: `placeLabel` its name, `addressLabel` its address line when tagged, else its name. */
export function placeResult(pack: GeodataPack, p: PlaceRecord): GeocodeAddress {
  const a = p.address;
  const street = a?.street ? uspsStreet(a.street) : undefined;
  const line = street ? (a?.number ? `${a.number} ${street}` : street) : p.name;
  const out = fineAddress(pack, p.lon, p.lat, 'place', line, {
    city: a?.city,
    state: a?.state,
    postcode: a?.postalCode,
  });
  out.placeLabel = p.name;
  if (line !== p.name) out.formattedAddress = `${p.name}, ${out.formattedAddress}`;
  if (a?.number) out.number = a.number;
  if (street) out.street = street;
  return out;
}

function unitLabel(unit: string): string {
  return /^(apt|unit|ste|suite|#|fl|floor|rm|room)\b/i.test(unit) ? unit : `# ${unit}`;
}
