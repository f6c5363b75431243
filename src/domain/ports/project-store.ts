import type { KeyLevel, Project, ResolvedKey } from '../projects/project.js';

/** Projects and their hashed keys. Not tenant-scoped: this is where tenants come from. */
export interface ProjectStore {
  create(project: Project, keys: Array<{ keyHash: string; level: KeyLevel; live: boolean }>): Promise<void>;
  findByName(name: string): Promise<Project | null>;
  list(): Promise<Project[]>;
  update(project: Project): Promise<void>;
  resolveKey(keyHash: string): Promise<ResolvedKey | null>;
}
