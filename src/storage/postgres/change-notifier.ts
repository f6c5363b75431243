import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { StoreChange } from '../../domain/ports/store.js';
import type { Tenant } from '../../domain/tenant.js';

const CHANNEL = 'whereabouts_changes';
/**
 * Every write of a user row (user-near-cache.ts), on a channel of its own: it is heard only by
 * processes that keep users in memory, and never reaches the `subscribe` listeners.
 */
export const USERS_CHANNEL = 'whereabouts_users';

/**
 * Cross-process cache invalidation over LISTEN/NOTIFY: every write names what changed, and every
 * process drops what it cached of that. A process ignores its own notifications (it already knows).
 */
export class ChangeNotifier {
  private readonly origin = randomUUID();
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private readonly userListeners = new Set<(payload: string) => void>();
  private listenClient: pg.PoolClient | undefined;
  /** LISTEN on USERS_CHANNEL in place on `listenClient` (a new connection needs it again). */
  private usersListening: Promise<void> | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly pool: pg.Pool) {}

  /** Sends a notification; inside a transaction it is delivered on commit. */
  async notify(db: pg.Pool | pg.PoolClient, kind: StoreChange['kind'], tenant?: Tenant, id?: string): Promise<void> {
    const payload = JSON.stringify({ o: this.origin, k: kind, p: tenant?.projectId, l: tenant?.live, i: id });
    await db.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
  }

  subscribe(listener: (change: StoreChange) => void): () => void {
    this.listeners.add(listener);
    if (!this.listenClient) this.listen().catch(() => this.relisten(500));
    return () => this.listeners.delete(listener);
  }

  /**
   * Connects and listens, once at a time: a second connection begun while the first connects (a
   * subscriber and `ready` at start-up) would never be released, and `close` would wait for it.
   */
  private listen(): Promise<void> {
    this.connecting ??= this.connectAndListen().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connectAndListen(): Promise<void> {
    const client = await this.pool.connect();
    this.listenClient = client;
    let released = false;
    const drop = () => {
      if (this.listenClient === client) {
        this.listenClient = undefined;
        this.usersListening = undefined;
      }
      if (!released) client.release(true);
      released = true;
    };
    client.on('notification', (msg) => {
      if (msg.channel === USERS_CHANNEL && msg.payload) {
        for (const l of this.userListeners) l(msg.payload);
        return;
      }
      if (msg.channel !== CHANNEL || !msg.payload) return;
      const p = JSON.parse(msg.payload) as { o: string; k: StoreChange['kind']; p?: string; l?: boolean; i?: string };
      if (p.o === this.origin) return;
      const change: StoreChange = { kind: p.k };
      if (p.p !== undefined) change.tenant = { projectId: p.p, live: p.l === true };
      if (p.i !== undefined) change.id = p.i;
      this.emit(change);
    });
    // The connection can drop (database restart, network): listen again on a new one, and tell
    // every cache that anything may have changed meanwhile, since notifications were missed.
    client.on('error', () => {
      const wasListening = this.listenClient === client;
      drop();
      if (wasListening) this.relisten(500);
    });
    try {
      await client.query(`LISTEN ${CHANNEL}`);
      if (this.userListeners.size > 0) await this.listenUsers();
    } catch (err) {
      drop();
      throw err;
    }
  }

  /**
   * Calls `listener` with the payload of every user write notified from now on, by any process, this
   * one included, in commit order. Resolves once LISTEN is in place: a read made after it sees every
   * write that is not announced to the listener.
   */
  async subscribeUsers(listener: (payload: string) => void): Promise<void> {
    this.userListeners.add(listener);
    await this.ready();
    await this.listenUsers();
  }

  private listenUsers(): Promise<void> {
    const client = this.listenClient;
    if (!client) return Promise.reject(new Error('not listening'));
    this.usersListening ??= client.query(`LISTEN ${USERS_CHANNEL}`).then(
      () => {},
      (err: unknown) => {
        if (this.listenClient === client) this.usersListening = undefined;
        throw err;
      },
    );
    return this.usersListening;
  }

  private relisten(delayMs: number): void {
    if (this.closed) return;
    setTimeout(() => {
      if (this.closed || this.listenClient) return;
      this.listen().then(
        () => this.emit({ kind: 'unknown' }),
        () => {
          this.listenClient = undefined;
          this.relisten(Math.min(delayMs * 2, 5000));
        },
      );
    }, delayMs).unref();
  }

  private emit(change: StoreChange): void {
    for (const l of this.listeners) l(change);
  }

  /** The backend pid of the LISTEN connection, while there is one. */
  listenerPid(): number | undefined {
    return (this.listenClient as (pg.PoolClient & { processID?: number }) | undefined)?.processID;
  }

  /** Resolves once LISTEN is in place (tests wait for it before writing from another process). */
  async ready(): Promise<void> {
    if (!this.listenClient) await this.listen();
  }

  close(): void {
    this.closed = true;
    this.listenClient?.release(true);
    this.listenClient = undefined;
  }
}
