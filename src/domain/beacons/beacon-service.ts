import { distanceMeters } from '../../geo/distance-meters.js';
import type { Position } from '../../geo/types.js';
import type { Clock } from '../clock.js';
import { conflict, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Metadata } from '../metadata.js';
import type { Page } from '../pagination.js';
import { BeaconConflict, type BeaconListQuery, type BeaconStore } from '../ports/beacon-store.js';
import type { Tenant } from '../tenant.js';
import type { Beacon } from './beacon.js';

export interface BeaconInput {
  description: string;
  type: 'ibeacon';
  uuid: string;
  major: string;
  minor: string;
  tag?: string | undefined;
  externalId?: string | undefined;
  location?: Position | undefined;
  enabled?: boolean | undefined;
  metadata?: Metadata | undefined;
}

export class BeaconService {
  constructor(
    private readonly beacons: BeaconStore,
    private readonly clock: Clock,
  ) {}

  async create(tenant: Tenant, input: BeaconInput): Promise<Beacon> {
    if (
      input.tag !== undefined &&
      input.externalId !== undefined &&
      (await this.beacons.getByTag(tenant, input.tag, input.externalId))
    ) {
      throw conflict('externalId', 'is already used by another beacon with this tag.');
    }
    const now = this.clock.now();
    const beacon = this.build(tenant, newId(), now, now, input);
    await this.write(() => this.beacons.insert(beacon));
    return beacon;
  }

  /** Updates the beacon with this tag and externalId, or creates it. */
  async upsert(tenant: Tenant, tag: string, externalId: string, input: BeaconInput): Promise<Beacon> {
    for (let attempt = 0; ; attempt++) {
      const existing = await this.beacons.getByTag(tenant, tag, externalId);
      const now = this.clock.now();
      const beacon = this.build(tenant, existing?.id ?? newId(), existing?.createdAt ?? now, now, {
        ...input,
        tag,
        externalId,
      });
      try {
        await this.write(() => (existing ? this.beacons.replace(beacon) : this.beacons.insert(beacon)));
        return beacon;
      } catch (err) {
        // A concurrent upsert of this tag and externalId created it first: update that beacon instead.
        if (existing || attempt > 0 || !(await this.beacons.getByTag(tenant, tag, externalId))) throw err;
      }
    }
  }

  async get(tenant: Tenant, id: string): Promise<Beacon> {
    return found(await this.beacons.get(tenant, id), 'id');
  }

  async getByTag(tenant: Tenant, tag: string, externalId: string): Promise<Beacon> {
    return found(await this.beacons.getByTag(tenant, tag, externalId), 'externalId');
  }

  async getByIdentifiers(tenant: Tenant, uuid: string, major: string, minor: string): Promise<Beacon> {
    return found(await this.beacons.getByIdentifiers(tenant, uuid.toLowerCase(), major, minor), 'uuid');
  }

  list(tenant: Tenant, query: BeaconListQuery): Promise<Page<Beacon>> {
    return this.beacons.list(tenant, query);
  }

  /**
   * Enabled beacons with a location within `radiusMeters` of `near`, nearest first (what a client SDK
   * syncs). Scans the tenant's beacons page by page: beacon registries are small next to geofences.
   */
  async near(tenant: Tenant, near: Position, radiusMeters: number, limit: number): Promise<Beacon[]> {
    const hits: Array<{ beacon: Beacon; d: number }> = [];
    let before: number | undefined;
    for (;;) {
      const page = await this.beacons.list(tenant, { limit: 1000, ...(before !== undefined ? { before } : {}) });
      for (const b of page.items) {
        if (!b.enabled || !b.location) continue;
        const d = distanceMeters(near, b.location);
        if (d <= radiusMeters) hits.push({ beacon: b, d });
      }
      if (!page.hasMore || page.items.length === 0) break;
      before = page.items[page.items.length - 1]!.createdAt;
    }
    return hits
      .sort((a, b) => a.d - b.d)
      .slice(0, limit)
      .map((h) => h.beacon);
  }

  async delete(tenant: Tenant, beacon: Beacon): Promise<void> {
    await this.beacons.delete(tenant, beacon.id);
  }

  private build(tenant: Tenant, id: string, createdAt: number, updatedAt: number, input: BeaconInput): Beacon {
    return {
      id,
      projectId: tenant.projectId,
      live: tenant.live,
      description: input.description,
      tag: input.tag ?? null,
      externalId: input.externalId ?? null,
      type: input.type,
      uuid: input.uuid.toLowerCase(),
      major: input.major,
      minor: input.minor,
      location: input.location ?? null,
      enabled: input.enabled ?? true,
      metadata: input.metadata ?? null,
      createdAt,
      updatedAt,
    };
  }

  private async write(fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      if (!(err instanceof BeaconConflict)) throw err;
      if (err.message === 'tag') throw conflict('externalId', 'is already used by another beacon with this tag.');
      throw conflict('uuid', 'with this major and minor is already registered to another beacon.');
    }
  }
}

function found(b: Beacon | null, param: string): Beacon {
  if (!b) throw notFound('beacon', param);
  return b;
}
