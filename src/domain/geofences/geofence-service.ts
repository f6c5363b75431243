import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../clock.js';
import { notFound } from '../errors.js';
import { newId } from '../ids.js';
import { type Page, type PageQuery, readInTurns } from '../pagination.js';
import type { GeofenceStore } from '../ports/geofence-store.js';
import type { UserStore } from '../ports/user-store.js';
import type { Tenant } from '../tenant.js';
import type { User } from '../users/user.js';
import { type Geofence, isGeofenceLive } from './geofence.js';
import {
  IMPORT_BATCH,
  type ImportOptions,
  type ImportResult,
  type ImportRow,
  rowError,
  timeSlicer,
} from './geofence-import.js';
import type { GeofenceInput } from './geofence-input.js';
import { buildGeofenceShape, type GeofenceShape } from './geofence-shape.js';
import type { IsochroneBuilder } from './isochrone-builder.js';

export type { GeofenceInput } from './geofence-input.js';

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
    const shape = this.shapeOf(input);
    // Checking a 10,000-position outline, storing it and indexing it each take tens of milliseconds:
    // a turn of the event loop between them lets other requests through. Not between storing and
    // telling the listeners: two PUTs of one fence would then let the older reach the index last.
    await nextTurn();
    const now = this.clock.now();
    // The store keeps the id and createdAt of the fence that holds the tag and externalId; one past its
    // deleteAfter is gone for every read, so the store deletes it rather than bringing it back.
    const { geofence: saved, replacedId } = await this.geofences.upsert(
      this.fence(tenant, tag, externalId, input, shape, now),
      now,
    );
    this.tell(tenant, saved, replacedId);
    await nextTurn();
    return saved;
  }

  /**
   * Upserts many fences, each checked as `upsert` checks one: a refused row is reported and the rest
   * written, `IMPORT_BATCH` fences per transaction with a turn of the event loop between batches and
   * the listeners (the fence index) told once a batch is committed. A tag + externalId met twice is
   * written twice, in order (the later row wins and counts as an update).
   */
  async importMany(tenant: Tenant, rows: readonly ImportRow[], opts: ImportOptions = {}): Promise<ImportResult> {
    const result: ImportResult = { created: 0, updated: 0, errors: [] };
    const tick = timeSlicer();
    let batch: Array<{ row: ImportRow; fence: Geofence }> = [];
    const keys = new Set<string>();
    const seen = new Set<string>();
    let done = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      if (opts.dryRun) await this.countDry(tenant, batch, seen, result);
      else {
        const now = this.clock.now();
        const written = await this.geofences.upsertMany(
          batch.map((b) => ({ ...b.fence, createdAt: now, updatedAt: now })),
          now,
        );
        for (const w of written) {
          if (w.created) result.created++;
          else result.updated++;
          this.tell(tenant, w.geofence, w.replacedId);
        }
      }
      done += batch.length;
      batch = [];
      keys.clear();
      opts.onProgress?.(done + result.errors.length, rows.length);
      await nextTurn();
    };
    for (const row of rows) {
      let fence: Geofence;
      try {
        fence = this.fence(tenant, row.tag, row.externalId, row.input, this.shapeOf(row.input), 0);
      } catch (err) {
        result.errors.push(rowError(row.row, err));
        await tick();
        continue;
      }
      const key = `${row.tag}\u0000${row.externalId}`;
      // The store takes no tag + externalId twice in one batch: the second starts the next.
      if (keys.has(key)) await flush();
      keys.add(key);
      batch.push({ row, fence });
      if (batch.length >= IMPORT_BATCH) await flush();
      else await tick();
    }
    await flush();
    opts.onProgress?.(rows.length, rows.length);
    return result;
  }

  /** What a batch would do: a tag + externalId held by a live fence, or met earlier in the import, updates. */
  private async countDry(
    tenant: Tenant,
    batch: Array<{ row: ImportRow }>,
    seen: Set<string>,
    result: ImportResult,
  ): Promise<void> {
    const now = this.clock.now();
    const held = await Promise.all(
      batch.map(async ({ row }) => {
        const key = `${row.tag}\u0000${row.externalId}`;
        if (seen.has(key)) return true;
        seen.add(key);
        const g = await this.geofences.getByTag(tenant, row.tag, row.externalId);
        return g !== null && isGeofenceLive(g, now);
      }),
    );
    for (const h of held) {
      if (h) result.updated++;
      else result.created++;
    }
  }

  private shapeOf(input: GeofenceInput) {
    return buildGeofenceShape(input.type, input.coordinates, input.radius, {
      mode: input.mode,
      builder: this.isochrones,
    });
  }

  private fence(
    tenant: Tenant,
    tag: string,
    externalId: string,
    input: GeofenceInput,
    shape: GeofenceShape,
    now: number,
  ): Geofence {
    return {
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
    };
  }

  private tell(tenant: Tenant, saved: Geofence, replacedId: string | null): void {
    if (replacedId !== null) for (const l of this.listeners) l(tenant, { deletedId: replacedId });
    for (const l of this.listeners) l(tenant, { upserted: saved });
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

  /**
   * Every visible fence of the tenant (of one tag if given), newest first, `size` at a time: an
   * export reads 100,000 fences without holding them all or the event loop.
   */
  async *pages(tenant: Tenant, query: { tag?: string | undefined; size?: number } = {}): AsyncGenerator<Geofence[]> {
    let before: number | undefined;
    for (;;) {
      const page = await this.list(tenant, { limit: query.size ?? 500, before, tag: query.tag });
      if (page.items.length > 0) yield page.items;
      const last = page.items[page.items.length - 1];
      if (!page.hasMore || !last) return;
      before = last.createdAt;
    }
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
