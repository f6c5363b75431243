import type { Project } from '../domain/projects/project.js';
import type { ProjectService } from '../domain/projects/project-service.js';

/** The lists of a project that `projects webhooks` and `projects destinations` change. */
type ListKey = 'webhooks' | 'destinations';
type Item<K extends ListKey> = NonNullable<Project[K]>[number];

/** `projects webhooks|destinations <name> [flags]`: changes that list of the project, then prints it. */
export type ProjectListCommand = (
  projects: ProjectService,
  name: string,
  flags: Record<string, string | true>,
  now: number,
) => Promise<{ out: string }>;

/**
 * What `projects webhooks` and `projects destinations` share: finds the project, saves what `change`
 * made of its list (only when it made something else), then prints the list as JSON, each item as `show`
 * gives it (what it hides) with its `createdAt` in ISO 8601.
 */
export async function changeProjectList<K extends ListKey>(
  projects: ProjectService,
  name: string,
  key: K,
  change: (current: Item<K>[]) => Item<K>[],
  show: (item: Item<K>) => object,
): Promise<{ out: string }> {
  const project = await projects.find(name);
  if (!project) throw new Error(`No project named "${name}".`);
  const current: Item<K>[] = project[key] ?? [];
  const next = change(current);
  const saved = next === current ? project : await projects.update(name, (p) => ({ ...p, [key]: next }));
  const shown = ((saved?.[key] ?? []) as Item<K>[]).map((item) => ({
    ...show(item),
    createdAt: new Date(item.createdAt).toISOString(),
  }));
  return { out: `${JSON.stringify(shown, null, 2)}\n` };
}
