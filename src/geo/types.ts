/** A position as GeoJSON writes it: `[longitude, latitude]` in degrees. */
export type Position = [number, number];

/** A linear ring: closed (first position equals last), `[lon, lat]` positions. */
export type Ring = Position[];

export interface PointGeometry {
  type: 'Point';
  coordinates: Position;
}

export interface PolygonGeometry {
  type: 'Polygon';
  /** Outer ring first, then holes. */
  coordinates: Ring[];
}

/** `[minLon, minLat, maxLon, maxLat]` in degrees, never crossing the antimeridian. */
export type BBox = [number, number, number, number];
