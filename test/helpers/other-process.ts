import type { Store } from '../../src/domain/ports/store.js';
import { PostgresStore } from '../../src/storage/postgres/postgres-store.js';
import { SqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import type { TestServer } from './server.js';

/** Runs `write` on a store of its own over the test server's database, as another process would. */
export async function asOtherProcess<T>(s: TestServer, write: (other: Store) => Promise<T>): Promise<T> {
  const other: Store =
    process.env.TEST_STORE === 'postgres'
      ? await PostgresStore.open(s.deps.config.databaseUrl!)
      : SqliteStore.open(s.dataDir);
  try {
    return await write(other);
  } finally {
    await other.close();
  }
}
