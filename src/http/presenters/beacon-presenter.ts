import type { Beacon } from '../../domain/beacons/beacon.js';
import { compact, iso, point } from './wire.js';

export function presentBeacon(b: Beacon) {
  return compact({
    _id: b.id,
    createdAt: iso(b.createdAt),
    updatedAt: iso(b.updatedAt),
    live: b.live,
    description: b.description,
    tag: b.tag,
    externalId: b.externalId,
    type: b.type,
    uuid: b.uuid,
    major: b.major,
    minor: b.minor,
    geometry: b.location ? point(b.location) : null,
    enabled: b.enabled,
    metadata: b.metadata,
  });
}
