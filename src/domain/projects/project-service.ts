import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import type { ProjectStore } from '../ports/project-store.js';
import type { Segment } from '../segments/segment.js';
import { generateProjectKeys, hashKey, type ProjectKeys } from './keys.js';
import { DEFAULT_FEATURES, DEFAULT_LIMITS, type Project, type ProjectFeatures } from './project.js';

export class ProjectNameTaken extends Error {}

/** Creates projects with their four keys; the raw keys are returned once and only hashes are kept. */
export class ProjectService {
  constructor(
    private readonly projects: ProjectStore,
    private readonly clock: Clock,
  ) {}

  async create(name: string): Promise<{ project: Project; keys: ProjectKeys }> {
    if (await this.projects.findByName(name)) throw new ProjectNameTaken(`project "${name}" already exists`);
    const project: Project = {
      id: newId(),
      name,
      disabled: false,
      features: { ...DEFAULT_FEATURES },
      limits: { ...DEFAULT_LIMITS },
      tripExpiryMinutes: 24 * 60,
      createdAt: this.clock.now(),
    };
    const keys = generateProjectKeys();
    await this.projects.create(project, [
      { keyHash: hashKey(keys.test.publishable), level: 'publishable', live: false },
      { keyHash: hashKey(keys.test.secret), level: 'secret', live: false },
      { keyHash: hashKey(keys.live.publishable), level: 'publishable', live: true },
      { keyHash: hashKey(keys.live.secret), level: 'secret', live: true },
    ]);
    return { project, keys };
  }

  async update(name: string, change: (p: Project) => Project): Promise<Project | null> {
    const project = await this.projects.findByName(name);
    if (!project) return null;
    const next = change(project);
    await this.projects.update(next);
    return next;
  }

  /**
   * Turns optional features on or off for the project named `name` (both environments: features are a
   * project's). Keys cache their project, so callers drop cached keys afterwards.
   */
  async setFeatures(name: string, patch: Partial<ProjectFeatures>): Promise<Project | null> {
    return this.update(name, (p) => ({ ...p, features: { ...p.features, ...patch } }));
  }

  /** Replaces the project's segments (an empty list removes them). */
  async setSegments(name: string, segments: Segment[]): Promise<Project | null> {
    return this.update(name, (p) => ({ ...p, segments }));
  }

  list(): Promise<Project[]> {
    return this.projects.list();
  }

  find(name: string): Promise<Project | null> {
    return this.projects.findByName(name);
  }
}
