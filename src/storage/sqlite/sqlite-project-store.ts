import type { ProjectStore } from '../../domain/ports/project-store.js';
import type { KeyLevel, Project, ResolvedKey } from '../../domain/projects/project.js';
import { type SqliteDb, writeTransaction } from './open-database.js';
import { statement } from './paged-query.js';

export class SqliteProjectStore implements ProjectStore {
  constructor(private readonly db: SqliteDb) {}

  async create(project: Project, keys: Array<{ keyHash: string; level: KeyLevel; live: boolean }>): Promise<void> {
    writeTransaction(this.db, () => {
      statement(this.db, 'INSERT INTO projects (id, name, doc, created_at) VALUES (?, ?, ?, ?)').run(
        project.id,
        project.name,
        JSON.stringify(project),
        project.createdAt,
      );
      const insertKey = statement(
        this.db,
        'INSERT INTO api_keys (key_hash, project_id, level, live, created_at) VALUES (?, ?, ?, ?, ?)',
      );
      for (const k of keys) insertKey.run(k.keyHash, project.id, k.level, k.live ? 1 : 0, project.createdAt);
    });
  }

  async findByName(name: string): Promise<Project | null> {
    const row = statement(this.db, 'SELECT doc FROM projects WHERE name = ?').get(name) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as Project) : null;
  }

  async list(): Promise<Project[]> {
    const rows = statement(this.db, 'SELECT doc FROM projects ORDER BY created_at').all() as Array<{ doc: string }>;
    return rows.map((r) => JSON.parse(r.doc) as Project);
  }

  async update(project: Project): Promise<void> {
    const update = statement(this.db, 'UPDATE projects SET name = ?, doc = ? WHERE id = ?');
    writeTransaction(this.db, () => update.run(project.name, JSON.stringify(project), project.id));
  }

  async resolveKey(keyHash: string): Promise<ResolvedKey | null> {
    const row = statement(
      this.db,
      'SELECT k.level, k.live, p.doc FROM api_keys k JOIN projects p ON p.id = k.project_id WHERE k.key_hash = ?',
    ).get(keyHash) as { level: KeyLevel; live: number; doc: string } | undefined;
    if (!row) return null;
    return { keyHash, level: row.level, live: row.live === 1, project: JSON.parse(row.doc) as Project };
  }
}
