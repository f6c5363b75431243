import { notFound } from '../errors.js';
import { type Page, type PageQuery, readInTurns } from '../pagination.js';
import type { UserStore } from '../ports/user-store.js';
import type { Tenant } from '../tenant.js';
import type { User } from './user.js';

/** Reading and deleting users; they are created and updated only by track. */
export class UserService {
  constructor(private readonly users: UserStore) {}

  /** A long page is read 100 users at a time, with turns of the event loop between (`readInTurns`). */
  list(tenant: Tenant, page: PageQuery): Promise<Page<User>> {
    return readInTurns(
      (q) => this.users.list(tenant, q),
      page,
      (u) => u.updatedAt,
    );
  }

  /** By `_id`, `userId` or `deviceId`. */
  async get(tenant: Tenant, id: string): Promise<User> {
    const user = await this.users.get(tenant, id);
    if (!user) throw notFound('user', 'id');
    return user;
  }

  /**
   * The device a track that names only its `installId` is of: that of the user last tracked with the
   * installId, else the installId itself (a first track), so later tracks of the install find its user.
   * The SDKs send no deviceId when the platform withholds one (iOS before the first unlock).
   */
  async deviceOfInstall(tenant: Tenant, installId: string): Promise<string> {
    return (await this.users.getByInstallId(tenant, installId))?.deviceId ?? installId;
  }

  async delete(tenant: Tenant, id: string): Promise<void> {
    if (!(await this.users.delete(tenant, id))) throw notFound('user', 'id');
  }
}
