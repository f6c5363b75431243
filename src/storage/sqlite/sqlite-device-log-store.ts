import type { DeviceLogLine } from '../../domain/device-logs/device-log.js';
import type { DeviceLogStore } from '../../domain/ports/device-log-store.js';
import type { Tenant } from '../../domain/tenant.js';
import { type SqliteDb, writeTransaction } from './open-database.js';
import { statement } from './paged-query.js';

const DEVICE = 'project_id = ? AND live = ? AND device_id = ?';

/** Device logs: no process keeps them in memory, so their commits name nothing for others. */
export class SqliteDeviceLogStore implements DeviceLogStore {
  constructor(private readonly db: SqliteDb) {}

  async append(tenant: Tenant, deviceId: string, lines: readonly DeviceLogLine[], keep: number): Promise<void> {
    const key = [tenant.projectId, tenant.live ? 1 : 0, deviceId] as const;
    writeTransaction(this.db, () => {
      const insert = statement(
        this.db,
        'INSERT INTO device_logs (project_id, live, device_id, doc) VALUES (?, ?, ?, ?)',
      );
      for (const line of lines) insert.run(...key, JSON.stringify(line));
      // The keep-th newest line's id, off the device index; everything older goes.
      const oldestKept = statement(
        this.db,
        `SELECT id FROM device_logs WHERE ${DEVICE} ORDER BY id DESC LIMIT 1 OFFSET ?`,
      )
        .pluck()
        .get(...key, keep - 1) as number | undefined;
      if (oldestKept !== undefined)
        statement(this.db, `DELETE FROM device_logs WHERE ${DEVICE} AND id < ?`).run(...key, oldestKept);
    });
  }

  async list(tenant: Tenant, deviceId: string, limit: number): Promise<DeviceLogLine[]> {
    const docs = statement(this.db, `SELECT doc FROM device_logs WHERE ${DEVICE} ORDER BY id DESC LIMIT ?`)
      .pluck()
      .all(tenant.projectId, tenant.live ? 1 : 0, deviceId, limit) as string[];
    return docs.reverse().map((d) => JSON.parse(d) as DeviceLogLine);
  }
}
