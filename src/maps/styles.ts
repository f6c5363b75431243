import { TILE_MAX_ZOOM } from './tile-grid.js';

/** The style names served: Radar's (what radar-sdk-js's maps plugin asks for) and their palettes. */
const THEMES = {
  'radar-default-v1': {
    water: '#a9d3f0',
    land: '#f4f1ea',
    park: '#d5ecc6',
    wood: '#c4e2b4',
    sand: '#f3e9c6',
    urban: '#ece8e1',
    building: '#ddd6cc',
    border: '#8a7f99',
    minorBorder: '#b9b0c4',
    road: '#ffffff',
    major: '#ffd98a',
    casing: '#cdc6bb',
    text: '#333333',
    halo: '#ffffff',
    poi: '#e0662b',
  },
  'radar-light-v1': {
    water: '#d4e4ee',
    land: '#fafafa',
    park: '#e6f0e0',
    wood: '#dfeadb',
    sand: '#f5f1e4',
    urban: '#f2f2f2',
    building: '#e8e8e8',
    border: '#a0a0a8',
    minorBorder: '#cfcfd6',
    road: '#ffffff',
    major: '#ffffff',
    casing: '#dadada',
    text: '#555555',
    halo: '#ffffff',
    poi: '#8a8a8a',
  },
  'radar-dark-v1': {
    water: '#1b2a3a',
    land: '#2b2d31',
    park: '#2f3a30',
    wood: '#2d3a2e',
    sand: '#3a3830',
    urban: '#303236',
    building: '#3b3d42',
    border: '#7a7a88',
    minorBorder: '#55555f',
    road: '#4a4c52',
    major: '#6b6150',
    casing: '#232427',
    text: '#e0e0e0',
    halo: '#1d1e21',
    poi: '#f0a060',
  },
} as const;

export type StyleName = keyof typeof THEMES;
export const STYLE_NAMES = Object.keys(THEMES) as StyleName[];

/** The font stacks the server has glyphs for (src/maps/glyphs/, built by tools/build-glyphs.mjs). */
const REGULAR = ['DejaVu Sans Book'];
const BOLD = ['DejaVu Sans Bold'];

export interface StyleOptions {
  /** Where the server is, as the browser reaches it: `https://maps.example.com`. */
  origin: string;
  /** The publishable key the style was asked with, put on tile URLs for clients that send no header. */
  key: string | null;
  /** The credit line shown on the map. */
  attribution: string;
}

/** A MapLibre style (version 8) over the server's tiles, glyphs and sprite, or null for an unknown name. */
export function mapStyle(name: string, o: StyleOptions): Record<string, unknown> | null {
  if (!Object.hasOwn(THEMES, name)) return null;
  const c = THEMES[name as StyleName];
  const q = o.key ? `?key=${encodeURIComponent(o.key)}` : '';
  const byClass = (pairs: Record<string, string>, fallback: string) => [
    'match',
    ['get', 'class'],
    ...Object.entries(pairs).flat(),
    fallback,
  ];
  const roadWidth = (base: number) => [
    'interpolate',
    ['exponential', 1.6],
    ['zoom'],
    8,
    base * 0.3,
    14,
    base * 2.5,
    18,
    base * 12,
  ];
  const road = (id: string, classes: string[], color: string, width: number, minzoom: number) => ({
    id,
    type: 'line',
    source: 'whereabouts',
    'source-layer': 'roads',
    minzoom,
    filter: ['in', ['get', 'class'], ['literal', classes]],
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': color, 'line-width': roadWidth(width) },
  });
  return {
    version: 8,
    name,
    metadata: { 'whereabouts:served-by': 'whereabouts' },
    sources: {
      whereabouts: {
        type: 'vector',
        tiles: [`${o.origin}/maps/tiles/{z}/{x}/{y}.pbf${q}`],
        minzoom: 0,
        maxzoom: TILE_MAX_ZOOM,
        attribution: o.attribution,
      },
    },
    glyphs: `${o.origin}/maps/fonts/{fontstack}/{range}.pbf`,
    sprite: `${o.origin}/maps/sprites/${name}`,
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': c.water } },
      // country-coder's borders reach out to sea; in the US the Census state shapes draw the coast.
      {
        id: 'land',
        type: 'fill',
        source: 'whereabouts',
        'source-layer': 'countries',
        filter: ['!=', ['get', 'code'], 'US'],
        paint: { 'fill-color': c.land },
      },
      { id: 'land-us', type: 'fill', source: 'whereabouts', 'source-layer': 'states', paint: { 'fill-color': c.land } },
      {
        id: 'landuse',
        type: 'fill',
        source: 'whereabouts',
        'source-layer': 'landuse',
        paint: {
          'fill-color': byClass(
            { park: c.park, grass: c.park, cemetery: c.park, wood: c.wood, farmland: c.wood, sand: c.sand },
            c.urban,
          ),
        },
      },
      { id: 'water', type: 'fill', source: 'whereabouts', 'source-layer': 'water', paint: { 'fill-color': c.water } },
      {
        id: 'waterways',
        type: 'line',
        source: 'whereabouts',
        'source-layer': 'waterways',
        paint: { 'line-color': c.water, 'line-width': ['interpolate', ['linear'], ['zoom'], 10, 0.5, 16, 3] },
      },
      {
        id: 'buildings',
        type: 'fill',
        source: 'whereabouts',
        'source-layer': 'buildings',
        minzoom: 14,
        paint: { 'fill-color': c.building, 'fill-outline-color': c.casing },
      },
      {
        id: 'county-borders',
        type: 'line',
        source: 'whereabouts',
        'source-layer': 'counties',
        minzoom: 6,
        paint: { 'line-color': c.minorBorder, 'line-width': 0.6, 'line-dasharray': [3, 2] },
      },
      {
        id: 'state-borders',
        type: 'line',
        source: 'whereabouts',
        'source-layer': 'states',
        minzoom: 3,
        paint: { 'line-color': c.border, 'line-width': ['interpolate', ['linear'], ['zoom'], 3, 0.5, 10, 1.5] },
      },
      {
        id: 'country-borders',
        type: 'line',
        source: 'whereabouts',
        'source-layer': 'countries',
        paint: { 'line-color': c.border, 'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.6, 10, 2] },
      },
      road('roads-path', ['path'], c.casing, 0.3, 14),
      road('roads-minor', ['minor', 'service'], c.road, 0.8, 12),
      road('roads-major', ['primary', 'secondary', 'tertiary'], c.major, 1.2, 8),
      road('roads-motorway', ['motorway', 'trunk'], c.major, 1.6, 5),
      {
        id: 'road-labels',
        type: 'symbol',
        source: 'whereabouts',
        'source-layer': 'roads',
        minzoom: 13,
        filter: ['has', 'name'],
        layout: {
          'symbol-placement': 'line',
          'text-field': ['get', 'name'],
          'text-font': REGULAR,
          'text-size': 11,
        },
        paint: { 'text-color': c.text, 'text-halo-color': c.halo, 'text-halo-width': 1.5 },
      },
      {
        id: 'addresses',
        type: 'symbol',
        source: 'whereabouts',
        'source-layer': 'addresses',
        minzoom: 17,
        layout: { 'text-field': ['get', 'number'], 'text-font': REGULAR, 'text-size': 10 },
        paint: { 'text-color': c.text, 'text-halo-color': c.halo, 'text-halo-width': 1 },
      },
      {
        id: 'places',
        type: 'symbol',
        source: 'whereabouts',
        'source-layer': 'places',
        minzoom: 13,
        layout: {
          'icon-image': 'poi',
          'text-field': ['get', 'name'],
          'text-font': REGULAR,
          'text-size': 11,
          'text-offset': [0, 0.9],
          'text-anchor': 'top',
          'text-optional': true,
        },
        paint: { 'text-color': c.poi, 'text-halo-color': c.halo, 'text-halo-width': 1.2 },
      },
      {
        id: 'localities',
        type: 'symbol',
        source: 'whereabouts',
        'source-layer': 'localities',
        layout: {
          'text-field': ['get', 'name'],
          'text-font': ['case', ['>=', ['get', 'population'], 500000], ['literal', BOLD], ['literal', REGULAR]],
          'text-size': ['interpolate', ['linear'], ['get', 'population'], 0, 11, 1000000, 16],
          'symbol-sort-key': ['-', ['get', 'population']],
        },
        paint: { 'text-color': c.text, 'text-halo-color': c.halo, 'text-halo-width': 1.5 },
      },
      {
        id: 'state-labels',
        type: 'symbol',
        source: 'whereabouts',
        'source-layer': 'state_labels',
        minzoom: 4,
        maxzoom: 8,
        layout: { 'text-field': ['get', 'name'], 'text-font': REGULAR, 'text-size': 12, 'text-transform': 'uppercase' },
        paint: { 'text-color': c.border, 'text-halo-color': c.halo, 'text-halo-width': 1 },
      },
      {
        id: 'country-labels',
        type: 'symbol',
        source: 'whereabouts',
        'source-layer': 'country_labels',
        maxzoom: 7,
        layout: { 'text-field': ['get', 'name'], 'text-font': BOLD, 'text-size': 13, 'text-max-width': 7 },
        paint: { 'text-color': c.text, 'text-halo-color': c.halo, 'text-halo-width': 1.5 },
      },
    ],
  };
}
