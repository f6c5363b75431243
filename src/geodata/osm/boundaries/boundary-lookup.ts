import type { BorderRef } from '../../border-index.js';
import type { CountryRecord } from '../../records.js';
import type { Regions } from '../../regions-at.js';
import type { OsmRegion } from '../osm-region.js';
import type { BoundaryLayer } from './boundary-layer.js';

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
export function withOsmBoundaries(
  regions: readonly OsmRegion[],
  world: (lon: number, lat: number) => Regions,
  names: WorldNames,
): (lon: number, lat: number) => Regions {
  const layers = regions.flatMap((r) => (r.boundaries ? [r.boundaries] : []));
  if (layers.length === 0) return world;
  return (lon, lat) => {
    const out = world(lon, lat);
    for (const b of layers) {
      const country = hit(b.country, lon, lat);
      const state = hit(b.state, lon, lat);
      const county = hit(b.county, lon, lat);
      const locality = hit(b.locality, lon, lat);
      if (!country && !state && !county && !locality) continue;
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

function hit(layer: BoundaryLayer | null, lon: number, lat: number) {
  if (!layer) return null;
  const feature = layer.index.find(lon, lat);
  if (feature < 0) return null;
  const ref: BorderRef = { layer: layer.border, feature };
  return { record: layer.records[feature]!, ref };
}
