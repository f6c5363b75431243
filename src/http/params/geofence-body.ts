import { bool, datetime, jsonValue, metadata, num, oneOf, str } from './index.js';

/** The fields of a geofence upsert: a PUT's body, and each row of a bulk import. */
export const geofenceUpsertBody = {
  description: str().required(),
  type: oneOf(['circle', 'polygon', 'isochrone'] as const, { caseInsensitive: true }).required(),
  coordinates: jsonValue({
    type: 'array',
    description: 'circle/isochrone: [lon,lat]; polygon: closed ring of [lon,lat]',
  }).required(),
  // Any number here: its range depends on the type (circle 10–10000 m, checked with the shape) and
  // the spec ignores it for polygons, where clients may send 0.
  radius: num(),
  mode: oneOf(['foot', 'bike', 'car'] as const),
  metadata: metadata(),
  userId: str({ maxLength: 256 }),
  enabled: bool(),
  disableAfter: datetime(),
  deleteAfter: datetime(),
  stopDetection: bool(),
  dwellThreshold: num({ min: 1, max: 10_080 }),
};
