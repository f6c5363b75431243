import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SettingsStore } from '../../domain/ports/settings-store.js';
import type { UsageStore } from '../../domain/ports/usage-store.js';
import type { SdkSettings } from '../../domain/sdk/sdk-settings.js';
import { EMPTY_PLACE_SETTINGS, type PlaceSettings } from '../../domain/settings/place-settings.js';
import type { Tenant } from '../../domain/tenant.js';
import type { SigningKey } from '../../domain/verified/signing-key.js';
import { type SqliteDb, writeTransaction } from './open-database.js';
import { statement } from './paged-query.js';

/** The tables holding one JSON document per tenant (project and live or test). */
type DocTable = 'place_settings' | 'sdk_settings';

export class SqliteSettingsStore implements SettingsStore {
  constructor(private readonly db: SqliteDb) {}

  async get(tenant: Tenant): Promise<PlaceSettings> {
    return this.readDoc<PlaceSettings>('place_settings', tenant) ?? structuredClone(EMPTY_PLACE_SETTINGS);
  }

  /**
   * Printed, then written a turn of the event loop later: place settings at their limits are 4 MB of
   * JSON, and printing and writing them in one turn held the loop 15-30 ms. (`SettingsService` runs one
   * PATCH at a time per tenant, so nothing writes in between.)
   */
  async put(tenant: Tenant, settings: PlaceSettings): Promise<void> {
    const text = JSON.stringify(settings);
    await nextTurn();
    this.writeDoc('place_settings', tenant, text);
  }

  async getSdk(tenant: Tenant): Promise<SdkSettings | null> {
    return this.readDoc<SdkSettings>('sdk_settings', tenant);
  }

  async putSdk(tenant: Tenant, settings: SdkSettings): Promise<void> {
    this.writeDoc('sdk_settings', tenant, JSON.stringify(settings));
  }

  async signingKey(tenant: Tenant): Promise<SigningKey | null> {
    const row = statement(
      this.db,
      'SELECT kid, private_jwk, public_jwk, created_at FROM signing_keys WHERE project_id = ? AND live = ?',
    ).get(tenant.projectId, tenant.live ? 1 : 0) as
      | { kid: string; private_jwk: string; public_jwk: string; created_at: number }
      | undefined;
    return row
      ? {
          kid: row.kid,
          privateJwk: JSON.parse(row.private_jwk),
          publicJwk: JSON.parse(row.public_jwk),
          createdAt: row.created_at,
        }
      : null;
  }

  async addSigningKey(tenant: Tenant, key: SigningKey): Promise<SigningKey> {
    writeTransaction(this.db, () =>
      statement(
        this.db,
        `INSERT INTO signing_keys (project_id, live, kid, private_jwk, public_jwk, created_at)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(project_id, live) DO NOTHING`,
      ).run(
        tenant.projectId,
        tenant.live ? 1 : 0,
        key.kid,
        JSON.stringify(key.privateJwk),
        JSON.stringify(key.publicJwk),
        key.createdAt,
      ),
    );
    return (await this.signingKey(tenant)) ?? key;
  }

  /** The JSON document a one-row-per-tenant table (`place_settings`, `sdk_settings`) holds, or null. */
  private readDoc<T>(table: DocTable, tenant: Tenant): T | null {
    const row = statement(this.db, `SELECT doc FROM ${table} WHERE project_id = ? AND live = ?`).get(
      tenant.projectId,
      tenant.live ? 1 : 0,
    ) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as T) : null;
  }

  /** Replaces the tenant's document (its JSON text) in a one-row-per-tenant table. */
  private writeDoc(table: DocTable, tenant: Tenant, doc: string): void {
    writeTransaction(this.db, () =>
      statement(
        this.db,
        `INSERT INTO ${table} (project_id, live, doc) VALUES (?, ?, ?)
         ON CONFLICT(project_id, live) DO UPDATE SET doc = excluded.doc`,
      ).run(tenant.projectId, tenant.live ? 1 : 0, doc),
    );
  }
}

export class SqliteUsageStore implements UsageStore {
  constructor(private readonly db: SqliteDb) {}

  async add(
    rows: Array<{ projectId: string; live: boolean; endpoint: string; month: string; count: number }>,
  ): Promise<void> {
    const upsert = statement(
      this.db,
      `INSERT INTO usage (project_id, live, endpoint, month, count) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(project_id, month, live, endpoint) DO UPDATE SET count = count + excluded.count`,
    );
    writeTransaction(this.db, () => {
      for (const r of rows) upsert.run(r.projectId, r.live ? 1 : 0, r.endpoint, r.month, r.count);
    });
  }

  async monthTotal(projectId: string, month: string): Promise<number> {
    const row = statement(
      this.db,
      'SELECT COALESCE(SUM(count), 0) AS n FROM usage WHERE project_id = ? AND month = ?',
    ).get(projectId, month) as { n: number };
    return row.n;
  }

  async monthTable(
    projectId: string,
    month: string,
  ): Promise<Array<{ live: boolean; endpoint: string; count: number }>> {
    const rows = statement(
      this.db,
      'SELECT live, endpoint, count FROM usage WHERE project_id = ? AND month = ? ORDER BY live DESC, endpoint',
    ).all(projectId, month) as Array<{ live: number; endpoint: string; count: number }>;
    return rows.map((r) => ({ live: r.live === 1, endpoint: r.endpoint, count: r.count }));
  }
}
