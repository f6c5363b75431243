import type { UserStore } from '../ports/user-store.js';
import type { Tenant } from '../tenant.js';

/**
 * `users`, with each delete that removed a user reported to `onDeleted` once it is done (before the
 * caller answers): user search keeps stored users, and UserService has no listener of its own.
 */
export function reportDeletes(users: UserStore, onDeleted: (tenant: Tenant) => void): UserStore {
  const remove = async (tenant: Tenant, id: string): Promise<boolean> => {
    const deleted = await users.delete(tenant, id);
    if (deleted) onDeleted(tenant);
    return deleted;
  };
  return new Proxy(users, {
    get(target, prop) {
      if (prop === 'delete') return remove;
      const value: unknown = Reflect.get(target, prop, target);
      // Bound to the store itself: its methods may use private fields a proxy does not have.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
