import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Tenant } from '../../domain/tenant.js';
import type { StoreChange } from '../store.js';

const CHANNEL = 'whereabouts_changes';

/**
 * Cross-process cache invalidation over LISTEN/NOTIFY: every write names what changed, and every
 * process drops what it cached of that. A process ignores its own notifications (it already knows).
 */
export class ChangeNotifier {
  private readonly origin = randomUUID();
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private listenClient: pg.PoolClient | undefined;

  constructor(private readonly pool: pg.Pool) {}

  /** Sends a notification; inside a transaction it is delivered on commit. */
  async notify(db: pg.Pool | pg.PoolClient, kind: StoreChange['kind'], tenant?: Tenant, id?: string): Promise<void> {
    const payload = JSON.stringify({ o: this.origin, k: kind, p: tenant?.projectId, l: tenant?.live, i: id });
    await db.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
  }

  subscribe(listener: (change: StoreChange) => void): () => void {
    this.listeners.add(listener);
    if (!this.listenClient) void this.listen();
    return () => this.listeners.delete(listener);
  }

  private async listen(): Promise<void> {
    const client = await this.pool.connect();
    this.listenClient = client;
    client.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      const p = JSON.parse(msg.payload) as { o: string; k: StoreChange['kind']; p?: string; l?: boolean; i?: string };
      if (p.o === this.origin) return;
      const change: StoreChange = { kind: p.k };
      if (p.p !== undefined) change.tenant = { projectId: p.p, live: p.l === true };
      if (p.i !== undefined) change.id = p.i;
      for (const l of this.listeners) l(change);
    });
    await client.query(`LISTEN ${CHANNEL}`);
  }

  /** Resolves once LISTEN is in place (tests wait for it before writing from another process). */
  async ready(): Promise<void> {
    if (!this.listenClient) await this.listen();
  }

  close(): void {
    this.listenClient?.release(true);
    this.listenClient = undefined;
  }
}
