/** The roles an OSM administrative area answers for (admin levels 2, 4, 6, 8, or an ISO 3166-2 code). */
export const BOUNDARY_ROLES = ['country', 'state', 'county', 'locality'] as const;
export type BoundaryRole = (typeof BOUNDARY_ROLES)[number];

/** One administrative area of an imported extract, as stored in `boundaries-<role>.json`. */
export interface BoundaryRecord {
  /** OSM relation id. */
  id: number;
  adminLevel: number;
  name: string;
  /** ISO 3166-1 alpha-2 of the country the area lies in (from its own or its ISO 3166-2 code). */
  countryCode: string;
  /**
   * Country: ISO 3166-1 alpha-2 (`LI`); state: the ISO 3166-2 suffix (`HI` of `US-HI`, `11` of
   * `LI-11`); county: the 5-digit US FIPS when tagged; locality: empty.
   */
  code: string;
}
