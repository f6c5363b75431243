import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../clock.js';
import { notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { Metadata } from '../metadata.js';
import { type Page, type PageQuery, readInTurns } from '../pagination.js';
import type { GeofenceStore } from '../ports/geofence-store.js';
import type { UserStore } from '../ports/user-store.js';
import type { Tenant } from '../tenant.js';
import type { User } from '../users/user.js';
import { type Geofence, type GeofenceType, isGeofenceLive, type TravelMode } from './geofence.js';
import { buildGeofenceShape } from './geofence-shape.js';
import type { IsochroneBuilder } from './isochrone-builder.js';

export interface GeofenceInput {
  description: string;
  type: GeofenceType;
  coordinates: unknown;
  radius?: number | undefined;
  mode?: TravelMode | undefined;
  metadata?: Metadata | undefined;
  userId?: string | undefined;
  enabled?: boolean | undefined;
  disableAfter?: number | undefined;
  deleteAfter?: number | undefined;
  stopDetection?: boolean | undefined;
  dwellThreshold?: number | undefined;
}

export type GeofenceListener = (tenant: Tenant, change: { upserted?: Geofence; deletedId?: string }) => void;

/** Geofence management. Reads honour `deleteAfter`: a fence past it is gone from every read. */
export class GeofenceService {
  private readonly listeners = new Set<GeofenceListener>();

  constructor(
    private readonly geofences: GeofenceStore,
    private readonly users: UserStore,
    private readonly clock: Clock,
    /** Draws isochrone fences; without it `type: isochrone` is refused. */
    private readonly isochrones?: IsochroneBuilder,
  ) {}

  /** Called after every write, so in-memory indexes follow the store. */
  onChange(listener: GeofenceListener): void {
    this.listeners.add(listener);
  }

  async upsert(tenant: Tenant, tag: string, externalId: string, input: GeofenceInput): Promise<Geofence> {
    const shape = buildGeofenceShape(input.type, input.coordinates, input.radius, {
      mode: input.mode,
      builder: this.isochrones,
    });
    // Checking a 10,000-position outline, storing it and indexing it each take tens of milliseconds:
    // a turn of the event loop between them lets other requests through. Not between storing and
    // telling the listeners: two PUTs of one fence would then let the older reach the index last.
    await nextTurn();
    const now = this.clock.now();
    // The store keeps the id and createdAt of the fence that holds the tag and externalId; one past its
    // deleteAfter is gone for every read, so the store deletes it rather than bringing it back.
    const { geofence: saved, replacedId } = await this.geofences.upsert(
      {
        id: newId(),
        projectId: tenant.projectId,
        live: tenant.live,
        tag,
        externalId,
        description: input.description,
        type: input.type,
        ...shape,
        mode: input.mode ?? null,
        metadata: input.metadata ?? null,
        userId: input.userId ?? null,
        enabled: input.enabled ?? true,
        disableAfter: input.disableAfter ?? null,
        deleteAfter: input.deleteAfter ?? null,
        stopDetection: input.stopDetection ?? null,
        dwellThreshold: input.dwellThreshold ?? null,
        createdAt: now,
        updatedAt: now,
      },
      now,
    );
    if (replacedId !== null) for (const l of this.listeners) l(tenant, { deletedId: replacedId });
    for (const l of this.listeners) l(tenant, { upserted: saved });
    await nextTurn();
    return saved;
  }

  async get(tenant: Tenant, id: string): Promise<Geofence> {
    return this.visible(await this.geofences.get(tenant, id), 'id');
  }

  /** The fence if it exists and is visible, else null. */
  async find(tenant: Tenant, id: string): Promise<Geofence | null> {
    const g = await this.geofences.get(tenant, id);
    return g && isGeofenceLive(g, this.clock.now()) ? g : null;
  }

  async getByTag(tenant: Tenant, tag: string, externalId: string): Promise<Geofence> {
    return this.visible(await this.geofences.getByTag(tenant, tag, externalId), 'externalId');
  }

  /**
   * A long page is read 10 fences at a time, with turns of the event loop between (`readInTurns`): a
   * fence with a 10,000-position outline is 400 KB of JSON to parse.
   */
  async list(tenant: Tenant, query: PageQuery & { tag?: string | undefined }): Promise<Page<Geofence>> {
    const now = this.clock.now();
    return readInTurns(
      (q) => this.geofences.list(tenant, { ...query, ...q, now }),
      query,
      (g) => g.createdAt,
      10,
    );
  }

  async delete(tenant: Tenant, geofence: Geofence): Promise<void> {
    await this.remove(tenant, geofence.id);
  }

  /**
   * Removes fences whose deleteAfter has passed. Reads already hide them; this frees the rows and
   * the in-memory indexes. Called periodically by the composition root.
   */
  async purgeExpired(): Promise<number> {
    const gone = await this.geofences.deleteExpired(this.clock.now());
    for (const { tenant, id } of gone) for (const l of this.listeners) l(tenant, { deletedId: id });
    return gone.length;
  }

  async usersInside(tenant: Tenant, geofence: Geofence, page: PageQuery): Promise<Page<User>> {
    return this.users.listInGeofence(tenant, geofence.id, page);
  }

  private async remove(tenant: Tenant, id: string): Promise<void> {
    await this.geofences.delete(tenant, id);
    for (const l of this.listeners) l(tenant, { deletedId: id });
  }

  private visible(g: Geofence | null, param: string): Geofence {
    if (!g || !isGeofenceLive(g, this.clock.now())) throw notFound('geofence', param);
    return g;
  }
}
