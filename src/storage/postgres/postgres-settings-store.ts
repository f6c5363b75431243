import type pg from 'pg';
import type { SettingsStore } from '../../domain/ports/settings-store.js';
import type { UsageStore } from '../../domain/ports/usage-store.js';
import type { SdkSettings } from '../../domain/sdk/sdk-settings.js';
import { EMPTY_PLACE_SETTINGS, type PlaceSettings } from '../../domain/settings/place-settings.js';
import type { Tenant } from '../../domain/tenant.js';
import type { SigningKey } from '../../domain/verified/signing-key.js';
import type { ChangeNotifier } from './change-notifier.js';

export class PostgresSettingsStore implements SettingsStore {
  constructor(
    private readonly pool: pg.Pool,
    /** SDK settings are kept in each process's memory: other processes hear of a change. */
    private readonly notifier?: ChangeNotifier,
  ) {}

  async get(tenant: Tenant): Promise<PlaceSettings> {
    const { rows } = await this.pool.query<{ doc: PlaceSettings }>(
      'SELECT doc FROM place_settings WHERE project_id = $1 AND live = $2',
      [tenant.projectId, tenant.live],
    );
    return rows[0]?.doc ?? structuredClone(EMPTY_PLACE_SETTINGS);
  }

  async put(tenant: Tenant, settings: PlaceSettings): Promise<void> {
    await this.pool.query(
      `INSERT INTO place_settings (project_id, live, doc) VALUES ($1, $2, $3)
       ON CONFLICT (project_id, live) DO UPDATE SET doc = excluded.doc`,
      [tenant.projectId, tenant.live, settings],
    );
  }

  async getSdk(tenant: Tenant): Promise<SdkSettings | null> {
    const { rows } = await this.pool.query<{ doc: SdkSettings }>(
      'SELECT doc FROM sdk_settings WHERE project_id = $1 AND live = $2',
      [tenant.projectId, tenant.live],
    );
    return rows[0]?.doc ?? null;
  }

  async putSdk(tenant: Tenant, settings: SdkSettings): Promise<void> {
    await this.pool.query(
      `INSERT INTO sdk_settings (project_id, live, doc) VALUES ($1, $2, $3)
       ON CONFLICT (project_id, live) DO UPDATE SET doc = excluded.doc`,
      [tenant.projectId, tenant.live, settings],
    );
    await this.notifier?.notify(this.pool, 'settings', tenant);
  }

  async signingKey(tenant: Tenant): Promise<SigningKey | null> {
    const { rows } = await this.pool.query<{
      kid: string;
      private_jwk: Record<string, unknown>;
      public_jwk: Record<string, unknown>;
      created_at: string;
    }>('SELECT kid, private_jwk, public_jwk, created_at FROM signing_keys WHERE project_id = $1 AND live = $2', [
      tenant.projectId,
      tenant.live,
    ]);
    const row = rows[0];
    return row
      ? { kid: row.kid, privateJwk: row.private_jwk, publicJwk: row.public_jwk, createdAt: Number(row.created_at) }
      : null;
  }

  async addSigningKey(tenant: Tenant, key: SigningKey): Promise<SigningKey> {
    await this.pool.query(
      `INSERT INTO signing_keys (project_id, live, kid, private_jwk, public_jwk, created_at)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (project_id, live) DO NOTHING`,
      [tenant.projectId, tenant.live, key.kid, key.privateJwk, key.publicJwk, key.createdAt],
    );
    return (await this.signingKey(tenant)) ?? key;
  }
}

export class PostgresUsageStore implements UsageStore {
  constructor(private readonly pool: pg.Pool) {}

  async add(
    rows: Array<{ projectId: string; live: boolean; endpoint: string; month: string; count: number }>,
  ): Promise<void> {
    if (rows.length === 0) return;
    await this.pool.query(
      `INSERT INTO usage (project_id, live, endpoint, month, count)
       SELECT * FROM unnest($1::text[], $2::boolean[], $3::text[], $4::text[], $5::bigint[])
       ON CONFLICT (project_id, month, live, endpoint) DO UPDATE SET count = usage.count + excluded.count`,
      [
        rows.map((r) => r.projectId),
        rows.map((r) => r.live),
        rows.map((r) => r.endpoint),
        rows.map((r) => r.month),
        rows.map((r) => r.count),
      ],
    );
  }

  async monthTotal(projectId: string, month: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      'SELECT COALESCE(SUM(count), 0)::bigint AS n FROM usage WHERE project_id = $1 AND month = $2',
      [projectId, month],
    );
    return rows[0]?.n ?? 0;
  }

  async monthTable(
    projectId: string,
    month: string,
  ): Promise<Array<{ live: boolean; endpoint: string; count: number }>> {
    const { rows } = await this.pool.query<{ live: boolean; endpoint: string; count: number }>(
      'SELECT live, endpoint, count FROM usage WHERE project_id = $1 AND month = $2 ORDER BY live DESC, endpoint',
      [projectId, month],
    );
    return rows;
  }
}
