/** Every layer name the API accepts, from the spec's layer list. */
export const GEOCODE_LAYERS = [
  'place',
  'address',
  'intersection',
  'street',
  'neighborhood',
  'postalCode',
  'locality',
  'county',
  'state',
  'country',
  'coarse',
  'fine',
] as const;
export type LayerName = (typeof GEOCODE_LAYERS)[number];

/** A concrete layer a result can carry (the two groups expanded away). */
export type GeocodeLayer = Exclude<LayerName, 'coarse' | 'fine'>;

/** `coarse` per the spec: areas and populated places. */
export const COARSE_LAYERS: readonly GeocodeLayer[] = [
  'neighborhood',
  'postalCode',
  'locality',
  'county',
  'state',
  'country',
];
/** `fine` per the spec: places and addresses. The reference pack has none of them, so they never match. */
export const FINE_LAYERS: readonly GeocodeLayer[] = ['place', 'address', 'intersection', 'street'];

/** Whether a string is a layer name the API accepts. */
export function isLayerName(name: string): name is LayerName {
  return (GEOCODE_LAYERS as readonly string[]).includes(name);
}

/**
 * The concrete layers a `layers` parameter asks for: `coarse` and `fine` expand to their members, unknown
 * names are ignored (validation is the HTTP layer's job), and an absent or empty parameter means every layer.
 * Accepts the raw comma-separated string or a list.
 */
export function expandLayers(layers?: string | Iterable<string>): Set<GeocodeLayer> {
  const names = typeof layers === 'string' ? layers.split(',') : layers ? [...layers] : [];
  const out = new Set<GeocodeLayer>();
  for (const raw of names) {
    const name = raw.trim();
    if (!isLayerName(name)) continue;
    if (name === 'coarse') for (const l of COARSE_LAYERS) out.add(l);
    else if (name === 'fine') for (const l of FINE_LAYERS) out.add(l);
    else out.add(name);
  }
  if (out.size === 0 && !names.some((n) => n.trim() !== '')) return new Set([...COARSE_LAYERS, ...FINE_LAYERS]);
  return out;
}
