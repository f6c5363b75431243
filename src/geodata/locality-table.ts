import KDBush from 'kdbush';
import type { LocalityColumns, StateRecord } from './records.js';

/**
 * World localities ready for queries: a KD-tree over `[lon, lat]` for nearest-place lookups (use
 * `geokdbush.around` on `index`), and the names and admin areas of each place.
 */
export class LocalityTable {
  readonly count: number;
  readonly columns: LocalityColumns;
  readonly lon: Float64Array;
  readonly lat: Float64Array;
  readonly population: Uint32Array;
  readonly index: KDBush;
  private readonly areaCountry: string[] = [];
  private readonly areaAdmin1: string[] = [];
  private readonly areaAdmin2: string[] = [];
  private readonly neighborhoodFeature: number;
  private readonly admin1: readonly StateRecord[];

  /**
   * @param index a KD-tree over the places' `[lon, lat]` as the world import stored it; built here when absent.
   */
  constructor(columns: LocalityColumns, admin1: readonly StateRecord[] = [], index?: KDBush) {
    this.columns = columns;
    this.count = columns.name.length;
    this.lon = columns.lon;
    this.lat = columns.lat;
    this.population = columns.population;
    this.index = index ?? pointIndex(this.count, (i) => [this.lon[i]!, this.lat[i]!]);
    for (const key of columns.areaKeys) {
      const [country = '', a1 = '', a2 = ''] = key.split('.');
      this.areaCountry.push(country);
      this.areaAdmin1.push(a1);
      this.areaAdmin2.push(a2);
    }
    this.neighborhoodFeature = columns.featureCodes.indexOf('PPLX');
    this.admin1 = admin1;
  }

  /** Display name of place `i`. */
  name(i: number): string {
    return this.columns.name.get(i) ?? '';
  }

  /** ISO alpha-2 country code of place `i`. */
  countryCode(i: number): string {
    return this.areaCountry[this.columns.area[i]!] ?? '';
  }

  /** GeoNames feature code of place `i` (`PPL`, `PPLC`, `PPLA2`, `PPLX` …). */
  featureCode(i: number): string {
    return this.columns.featureCodes[this.columns.feature[i]!] ?? '';
  }

  /** Whether place `i` is a section of a city (GeoNames `PPLX`), answered as a neighbourhood. */
  isNeighborhood(i: number): boolean {
    return this.columns.feature[i] === this.neighborhoodFeature;
  }

  /**
   * Name of the state/province of place `i`, e.g. `Hawaii`: outside the US the admin-1 area the place lies in
   * (the same area `regionsAt` reports), else the GeoNames admin-1 name.
   */
  stateName(i: number): string | undefined {
    const inArea = this.admin1[this.columns.admin1Area[i]!];
    if (inArea) return inArea.name;
    const area = this.columns.area[i]!;
    return this.columns.admin1Names[`${this.areaCountry[area]}.${this.areaAdmin1[area]}`];
  }

  /**
   * State code of place `i`: the USPS code in the US (GeoNames uses them), else the ISO 3166-2 suffix of the
   * admin-1 area it lies in; undefined without one (GeoNames' own codes elsewhere are numbers nobody uses).
   */
  stateCode(i: number): string | undefined {
    const area = this.columns.area[i]!;
    if (this.areaCountry[area] === 'US') return this.areaAdmin1[area] || undefined;
    return this.admin1[this.columns.admin1Area[i]!]?.code || undefined;
  }

  /** GeoNames admin-1 key of place `i`, e.g. `US.HI`. */
  admin1Key(i: number): string {
    const area = this.columns.area[i]!;
    return `${this.areaCountry[area]}.${this.areaAdmin1[area]}`;
  }

  /** GeoNames admin-2 code of place `i` within its admin-1 (US: the 3-digit county FIPS). */
  admin2Code(i: number): string {
    return this.areaAdmin2[this.columns.area[i]!] ?? '';
  }

  /** County (admin-2) name of place `i`, e.g. `Honolulu County`. */
  countyName(i: number): string | undefined {
    return this.columns.admin2Names[this.columns.areaKeys[this.columns.area[i]!] ?? ''];
  }
}

/**
 * A KD-tree over `count` points given `[lon, lat]` by `at(i)`; item `i` of the tree is point `i`. An empty
 * set gets one dummy point at (0, 0) because kdbush cannot index nothing; callers never ask for it.
 */
export function pointIndex(count: number, at: (i: number) => [number, number]): KDBush {
  const index = new KDBush(Math.max(count, 1));
  for (let i = 0; i < count; i++) index.add(...at(i));
  if (count === 0) index.add(0, 0);
  return index.finish();
}
