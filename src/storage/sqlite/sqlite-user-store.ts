import type { Page, PageQuery } from '../../domain/pagination.js';
import type { Tenant } from '../../domain/tenant.js';
import type { User } from '../../domain/users/user.js';
import type { UserStore } from '../store.js';
import { type SqliteDb, writeTransaction } from './open-database.js';
import { pagedDocs, statement } from './paged-query.js';

export class SqliteUserStore implements UserStore {
  constructor(private readonly db: SqliteDb) {}

  async list(tenant: Tenant, page: PageQuery): Promise<Page<User>> {
    return pagedDocs<User>(this.db, {
      from: 'FROM users WHERE project_id = @p AND live = @l',
      timeColumn: 'updated_at',
      idColumn: 'id',
      params: { p: tenant.projectId, l: tenant.live ? 1 : 0 },
      page,
    });
  }

  async get(tenant: Tenant, id: string): Promise<User | null> {
    const row = statement(
      this.db,
      `SELECT doc FROM users WHERE project_id = @p AND live = @l AND (id = @id OR user_id = @id OR device_id = @id)
       ORDER BY (id = @id) DESC, (user_id = @id) DESC, updated_at DESC LIMIT 1`,
    ).get({ p: tenant.projectId, l: tenant.live ? 1 : 0, id }) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as User) : null;
  }

  async save(user: User): Promise<void> {
    writeTransaction(this.db, () => saveUserRows(this.db, user));
  }

  async delete(tenant: Tenant, id: string): Promise<boolean> {
    const user = await this.get(tenant, id);
    if (!user) return false;
    writeTransaction(this.db, () => {
      statement(this.db, 'DELETE FROM user_geofences WHERE user_pk = ?').run(user.id);
      statement(this.db, 'DELETE FROM users WHERE id = ?').run(user.id);
    });
    return true;
  }

  async listInGeofence(tenant: Tenant, geofenceId: string, page: PageQuery): Promise<Page<User>> {
    return pagedDocs<User>(this.db, {
      from: `FROM user_geofences m JOIN users u ON u.id = m.user_pk
             WHERE m.project_id = @p AND m.live = @l AND m.geofence_id = @g`,
      timeColumn: 'm.updated_at',
      idColumn: 'm.user_pk',
      params: { p: tenant.projectId, l: tenant.live ? 1 : 0, g: geofenceId },
      page,
    });
  }
}

/** Writes the user row and its membership rows; call inside a write transaction. */
export function saveUserRows(db: SqliteDb, user: User): void {
  const live = user.live ? 1 : 0;
  statement(
    db,
    `INSERT INTO users (id, project_id, live, user_id, device_id, created_at, updated_at, doc)
     VALUES (@id, @p, @l, @userId, @deviceId, @createdAt, @updatedAt, @doc)
     ON CONFLICT(id) DO UPDATE SET user_id = excluded.user_id, device_id = excluded.device_id,
       updated_at = excluded.updated_at, doc = excluded.doc`,
  ).run({
    id: user.id,
    p: user.projectId,
    l: live,
    userId: user.userId,
    deviceId: user.deviceId,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
    doc: JSON.stringify(user),
  });
  statement(db, 'DELETE FROM user_geofences WHERE user_pk = ?').run(user.id);
  const insert = statement(
    db,
    'INSERT INTO user_geofences (project_id, live, geofence_id, user_pk, updated_at) VALUES (?, ?, ?, ?, ?)',
  );
  for (const m of user.geofences) insert.run(user.projectId, live, m.geofenceId, user.id, user.updatedAt);
}
