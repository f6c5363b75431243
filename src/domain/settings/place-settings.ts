import type { Metadata } from '../metadata.js';

/** Per project and environment (spec: Place settings). */
export interface PlaceSettings {
  chainMetadata: Record<string, Metadata>;
  chainMappings: Record<string, string>;
  placeFilters: { chain: string[]; category: string[] };
}

export const EMPTY_PLACE_SETTINGS: PlaceSettings = {
  chainMetadata: {},
  chainMappings: {},
  placeFilters: { chain: [], category: [] },
};
