import type pg from 'pg';
import type { ProjectStore } from '../../domain/ports/project-store.js';
import type { KeyLevel, Project, ResolvedKey } from '../../domain/projects/project.js';
import type { ChangeNotifier } from './change-notifier.js';
import { inTransaction } from './open-pool.js';

export class PostgresProjectStore implements ProjectStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly notifier: ChangeNotifier,
  ) {}

  async create(project: Project, keys: Array<{ keyHash: string; level: KeyLevel; live: boolean }>): Promise<void> {
    await inTransaction(this.pool, async (c) => {
      await c.query('INSERT INTO projects (id, name, doc, created_at) VALUES ($1, $2, $3, $4)', [
        project.id,
        project.name,
        project,
        project.createdAt,
      ]);
      for (const k of keys) {
        await c.query(
          'INSERT INTO api_keys (key_hash, project_id, level, live, created_at) VALUES ($1, $2, $3, $4, $5)',
          [k.keyHash, project.id, k.level, k.live, project.createdAt],
        );
      }
      await this.notifier.notify(c, 'projects');
    });
  }

  async findByName(name: string): Promise<Project | null> {
    const { rows } = await this.pool.query<{ doc: Project }>('SELECT doc FROM projects WHERE name = $1', [name]);
    return rows[0]?.doc ?? null;
  }

  async list(): Promise<Project[]> {
    const { rows } = await this.pool.query<{ doc: Project }>('SELECT doc FROM projects ORDER BY created_at');
    return rows.map((r) => r.doc);
  }

  async update(project: Project): Promise<void> {
    await this.pool.query('UPDATE projects SET name = $1, doc = $2 WHERE id = $3', [project.name, project, project.id]);
    await this.notifier.notify(this.pool, 'projects');
  }

  async resolveKey(keyHash: string): Promise<ResolvedKey | null> {
    const { rows } = await this.pool.query<{ level: KeyLevel; live: boolean; doc: Project }>(
      'SELECT k.level, k.live, p.doc FROM api_keys k JOIN projects p ON p.id = k.project_id WHERE k.key_hash = $1',
      [keyHash],
    );
    const row = rows[0];
    return row ? { keyHash, level: row.level, live: row.live, project: row.doc } : null;
  }
}
