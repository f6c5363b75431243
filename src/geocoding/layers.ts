/** `fine` per the spec: places and addresses. The reference pack has none of them, so they never match. */
export const FINE_LAYERS = ['place', 'address', 'intersection', 'street'] as const;
/** `coarse` per the spec: areas and populated places. */
export const COARSE_LAYERS = ['neighborhood', 'postalCode', 'locality', 'county', 'state', 'country'] as const;

/** A concrete layer a result can carry (the two groups expanded away). */
export type GeocodeLayer = (typeof FINE_LAYERS)[number] | (typeof COARSE_LAYERS)[number];

/** Every layer name the API accepts, from the spec's layer list: the concrete ones and the two groups. */
export const GEOCODE_LAYERS = [...FINE_LAYERS, ...COARSE_LAYERS, 'coarse', 'fine'] as const;
export type LayerName = (typeof GEOCODE_LAYERS)[number];

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
