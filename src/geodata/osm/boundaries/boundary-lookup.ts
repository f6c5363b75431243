import type { BorderRef } from '../../border-index.js';
import type { CountryRecord } from '../../records.js';
import type { RegionLookup } from '../../regions-at.js';
import type { OsmRegion } from '../osm-region.js';
import type { BoundaryLayer, BoundaryLayers } from './boundary-layer.js';

export interface WorldNames {
  country(code: string): CountryRecord | undefined;
  /** The world pack's name of a state, by `<country>-<code>`, so both sources name it alike. */
  stateName(countryCode: string, code: string): string | undefined;
}

/**
 * `regionsAt` with the exact borders of imported OSM extracts in front of the world pack's generalized
 * shapes: inside an imported country, state, county or locality, that area answers (named as the world
 * pack names it, so region ids and events stay the same) and its border is the one distances use;
 * elsewhere the world pack answers unchanged. Where a state is imported but not its country (an island
 * extract holds its state whole but only a piece of its country), the state's country answers.
 */
export function withOsmBoundaries(regions: readonly OsmRegion[], world: RegionLookup, names: WorldNames): RegionLookup {
  const layers = regions.flatMap((r) => (r.boundaries ? [coverage(r.boundaries)] : []));
  if (layers.length === 0) return world;
  return (lon, lat, countryState = false) => {
    const out = world(lon, lat, countryState);
    for (const { layers: b, box, countries, states } of layers) {
      const country = hit(b.country, lon, lat);
      const state = hit(b.state, lon, lat);
      const county = countryState ? null : hit(b.county, lon, lat);
      const locality = countryState ? null : hit(b.locality, lon, lat);
      if (!country && !state && !county && !locality) {
        // Within the extract's areas but outside its exact country or state, the world pack's generalized
        // shape that still answers it is wrong there (a road in Austria 200 m from Liechtenstein).
        if (lon < box[0] || lon > box[2] || lat < box[1] || lat > box[3]) continue;
        if (out.country && countries.has(out.country.code)) {
          delete out.country;
          delete out.countryBorder;
          delete out.state;
          delete out.stateBorder;
        } else if (out.state && out.country && states.has(`${out.country.code}-${out.state.code}`)) {
          delete out.state;
          delete out.stateBorder;
        }
        continue;
      }
      const countryCode = country?.record.code ?? state?.record.countryCode;
      if (countryCode && countryCode !== out.country?.code) {
        const c = names.country(countryCode);
        if (c) out.country = { code: c.code, name: c.name, flag: c.flag };
        else delete out.country;
        delete out.countryBorder;
        // The world pack's state belonged to the country it (wrongly) answered.
        if (!state) {
          delete out.state;
          delete out.stateBorder;
        }
      }
      if (country) out.countryBorder = country.ref;
      if (state) {
        const { code, name, countryCode: cc } = state.record;
        out.state = { code, name: names.stateName(cc, code) ?? name };
        out.stateBorder = state.ref;
      }
      if (county?.record.code) out.county = { code: county.record.code, name: county.record.name };
      if (locality) out.locality = { name: locality.record.name };
      break;
    }
    return out;
  };
}

/** A region's boundaries with their bounding box and the countries and states they draw exactly. */
function coverage(layers: BoundaryLayers) {
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const layer of Object.values(layers)) {
    const c = layer?.index.set.coords;
    if (!c) continue;
    for (let i = 0; i < c.length; i += 2) {
      box[0] = Math.min(box[0], c[i]!);
      box[1] = Math.min(box[1], c[i + 1]!);
      box[2] = Math.max(box[2], c[i]!);
      box[3] = Math.max(box[3], c[i + 1]!);
    }
  }
  return {
    layers,
    box,
    countries: new Set(layers.country?.records.map((r) => r.code) ?? []),
    states: new Set(layers.state?.records.map((r) => `${r.countryCode}-${r.code}`) ?? []),
  };
}

function hit(layer: BoundaryLayer | null, lon: number, lat: number) {
  if (!layer) return null;
  const feature = layer.index.find(lon, lat);
  if (feature < 0) return null;
  const ref: BorderRef = { layer: layer.border, feature };
  return { record: layer.records[feature]!, ref };
}
