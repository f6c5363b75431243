import type pg from 'pg';
import type { SettingsStore } from '../../domain/ports/settings-store.js';
import type { UsageStore } from '../../domain/ports/usage-store.js';
import { EMPTY_PLACE_SETTINGS, type PlaceSettings } from '../../domain/settings/place-settings.js';
import type { Tenant } from '../../domain/tenant.js';

export class PostgresSettingsStore implements SettingsStore {
  constructor(private readonly pool: pg.Pool) {}

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
