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

  async delete(tenant: Tenant, id: string): Promise<void> {
    if (!(await this.users.delete(tenant, id))) throw notFound('user', 'id');
  }
}
