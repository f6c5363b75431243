import type pg from 'pg';
import type { DeviceLogLine } from '../../domain/device-logs/device-log.js';
import type { DeviceLogStore } from '../../domain/ports/device-log-store.js';
import type { Tenant } from '../../domain/tenant.js';
import { inTransaction } from './open-pool.js';

const DEVICE = 'project_id = $1 AND live = $2 AND device_id = $3';

export class PostgresDeviceLogStore implements DeviceLogStore {
  constructor(private readonly pool: pg.Pool) {}

  async append(tenant: Tenant, deviceId: string, lines: readonly DeviceLogLine[], keep: number): Promise<void> {
    const key = [tenant.projectId, tenant.live, deviceId];
    await inTransaction(this.pool, async (c) => {
      // One statement for the lines, in order: unnest keeps the array's order and the serial follows it.
      await c.query(
        `INSERT INTO device_logs (project_id, live, device_id, doc)
         SELECT $1, $2, $3, d FROM unnest($4::jsonb[]) WITH ORDINALITY AS t(d, n) ORDER BY n`,
        [...key, lines.map((l) => JSON.stringify(l))],
      );
      // Older than the keep-th newest line, off the device index. Two appends at once may each keep a
      // few more than `keep` for a moment; the next append trims them.
      await c.query(
        `DELETE FROM device_logs WHERE ${DEVICE} AND id < (
           SELECT id FROM device_logs WHERE ${DEVICE} ORDER BY id DESC LIMIT 1 OFFSET $4)`,
        [...key, keep - 1],
      );
    });
  }

  async list(tenant: Tenant, deviceId: string, limit: number): Promise<DeviceLogLine[]> {
    const { rows } = await this.pool.query<{ doc: DeviceLogLine }>(
      `SELECT doc FROM device_logs WHERE ${DEVICE} ORDER BY id DESC LIMIT $4`,
      [tenant.projectId, tenant.live, deviceId, limit],
    );
    return rows.reverse().map((r) => r.doc);
  }
}
